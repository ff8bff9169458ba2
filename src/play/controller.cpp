// The interactive program's main loop.
#include "controller.h"

#include <algorithm>
#include <random>

#include "commands.h"
#include "core/movegen.h"
#include "core/text.h"
#include "move_input.h"
#include "notation/record.h"

namespace hisha::play {

using namespace hisha::core;

std::atomic<int> Controller::interrupt_signals{0};
std::atomic<bool> Controller::terminate_signal{false};

namespace {

bool is_move_now(std::string_view line) { return line == "?" || line == "movenow" || line == "stop"; }

}  // namespace

Controller::Controller(Session& session, Ui& ui, EventQueue& queue) : session_(session), ui_(ui), queue_(queue) {}

// --- the loop

int Controller::run() {
    ui_.start(session_);
    startup();
    while (!quit_) {
        check_signals();
        if (quit_)
            break;
        bool busy = search_ == Search::Move || search_ == Search::Analysis;
        if (!busy && !lines_.empty()) {
            std::string line = std::move(lines_.front());
            lines_.pop_front();
            stop_pondering();
            handle_line(line);
            continue;
        }
        if (search_ == Search::None && eof_)
            break;
        const Options& o = session_.options();
        if (search_ == Search::None && o.both && !o.force && !session_.game().over()) {
            start_thinking();
            continue;
        }
        if (!busy && !prompted_) {
            const Game& g = session_.game();
            if (!session_.clocks().running() && !g.over() && !session_.options().force)
                session_.clocks().start(session_.side_to_move());
            ui_.prompt(session_);
            prompted_ = true;
        }
        pump();
    }
    if (search_ != Search::None) {
        session_.engine().pool().pondering_ = false;
        session_.engine().stop();
        session_.engine().wait();
    }
    session_.save_experience();
    ui_.finish();
    return 0;
}

void Controller::startup() {
    const Settings& st = session_.settings();
    for (const auto& note : st.notes)
        ui_.message(note);
    if (st.create_hash) {
        std::string path = st.hash_path.empty() ? Experience::default_path() : st.hash_path;
        auto r = session_.experience().create(path, *st.create_hash);
        ui_.message(r ? "Created the experience file " + path + " (" + std::to_string(1 << *st.create_hash)
                            + " entries)"
                      : "Cannot create the experience file: " + r.error());
    }
    if (st.hash_stats)
        ui_.message(session_.experience().statistics());
    if (mode() != DisplayMode::Xshogi)
        ui_.show_board(session_);
}

std::optional<Event> Controller::next_event() {
    if (!ui_.polls_input())
        return queue_.pop(std::chrono::milliseconds(100));
    if (auto e = queue_.pop(std::chrono::milliseconds(0)))
        return e;
    ui_.poll(queue_, std::chrono::milliseconds(50));
    return queue_.pop(std::chrono::milliseconds(0));
}

// Waits a little for the next event (a line, the end of input, a search report) and takes it in.
void Controller::pump() {
    if (auto e = next_event())
        dispatch(*e);
    else
        ui_.tick(session_);
}

void Controller::check_signals() {
    if (terminate_signal.load())
        quit_ = true;
    if (interrupt_signals.exchange(0) == 0)
        return;
    if (search_ == Search::Move || search_ == Search::Analysis)
        interrupt();
    else if (mode() != DisplayMode::Xshogi)
        quit_ = true;
}

void Controller::dispatch(Event& e) {
    switch (e.kind) {
    case Event::Kind::Line: receive_line(std::move(e.line)); break;
    case Event::Kind::Eof:
        eof_ = true;
        stop_pondering();
        break;
    case Event::Kind::Info:
        if (e.search_id != search_id_)
            break;
        last_info_ = e.info;
        if (session_.options().random && e.info.multipv >= 1 && e.info.multipv <= 8) {
            if (multipv_.size() < std::size_t(e.info.multipv))
                multipv_.resize(std::size_t(e.info.multipv));
            multipv_[std::size_t(e.info.multipv - 1)] = e.info;
        }
        if (search_ == Search::Move || search_ == Search::Analysis)
            ui_.thinking(session_, e.info, session_.options().post || search_ == Search::Analysis);
        break;
    case Event::Kind::Done: on_search_done(e); break;
    }
}

void Controller::handle_line(const std::string& raw) {
    prompted_ = false;
    std::string line = text::trim(raw);
    if (line.empty())
        return;
    run_command_line(line);
}

void Controller::run_command_line(const std::string& line) {
    std::size_t sp = line.find_first_of(" \t");
    std::string word = line.substr(0, sp);
    CommandArgs args;
    args.name = word;
    args.rest = sp == std::string::npos ? std::string() : text::trim(line.substr(sp));
    for (std::size_t i = 0; i < args.rest.size();) {
        std::size_t j = args.rest.find_first_of(" \t", i);
        if (j == std::string::npos)
            j = args.rest.size();
        if (j > i)
            args.words.push_back(args.rest.substr(i, j - i));
        i = j + 1;
    }
    const Command* cmd = find_command(word);
    if (!cmd && read_move_input(session_.position(), line).status == MoveInput::Status::NotAMove)
        cmd = find_command_folded(word);
    if (cmd && mode() == DisplayMode::Xshogi && (cmd->flags & X_DISABLED)) {
        ui_.illegal(line, "no match");
        return;
    }
    if (cmd)
        cmd->handler(*this, args);
    else
        user_move(line);
}

// A line joins the input in order. While the program thinks about its move only `?` (move
// now) is acted on at once; any line stops an analysis (Enter, `.` and `?` only stop it).
void Controller::receive_line(std::string line) {
    std::string l = text::trim(line);
    if (search_ == Search::Move && is_move_now(l)) {
        interrupt();
        return;
    }
    if (search_ == Search::Analysis) {
        interrupt();
        if (l.empty() || l == "." || is_move_now(l))
            return;
    }
    lines_.push_back(std::move(line));
}

// The next line of input for a question; nullopt at the end of input or on quit.
std::optional<std::string> Controller::next_line() {
    while (!quit_) {
        if (!lines_.empty()) {
            std::string line = text::trim(lines_.front());
            lines_.pop_front();
            return line;
        }
        if (eof_)
            return std::nullopt;
        pump();
        check_signals();
    }
    return std::nullopt;
}

std::optional<std::string> Controller::ask(std::string_view question) {
    ui_.prompt(session_, question.empty() ? std::string_view("? ") : question);
    return next_line();
}

bool Controller::input_is_terminal() const {
    return mode() == DisplayMode::Curses || (mode() == DisplayMode::Raw && session_.settings().input_terminal);
}

// --- moves

void Controller::user_move(std::string_view text) {
    const Game& g = session_.game();
    const Options& o = session_.options();
    if (g.over()) {
        ui_.illegal(text, "the game is over: new, undo or get");
        return;
    }
    MoveInput mi = read_move_input(session_.position(), text, session_.position().last_move());
    // xshogi sets up a position without saying who moves; its first move tells.
    if (mi.status == MoveInput::Status::Illegal && mode() == DisplayMode::Xshogi && session_.ply_count() == 0) {
        Position other;
        std::string sfen = session_.position().sfen(false);
        std::size_t at = sfen.find(session_.side_to_move() == BLACK ? " b " : " w ");
        if (at != std::string::npos
            && other.set(sfen.replace(at, 3, session_.side_to_move() == BLACK ? " w " : " b ") + " 1",
                         SfenRules::Relaxed)) {
            MoveInput flipped = read_move_input(other, text);
            if (flipped.status == MoveInput::Status::Ok && session_.set_position(other.sfen()))
                mi = flipped;
        }
    }
    if (!o.force && !o.both && session_.side_to_move() == o.computer && mi.status != MoveInput::Status::NotAMove) {
        ui_.illegal(text, "it is my move (go: I move now; force: enter both sides' moves)");
        return;
    }
    if (o.both && !o.force) {
        ui_.illegal(text, "I am playing both sides (both: stop; force: enter moves)");
        return;
    }
    switch (mi.status) {
    case MoveInput::Status::Ok: play_user_move(mi.move, text); return;
    case MoveInput::Status::PromotionChoice: {
        Move promote = mi.candidates[0].is_promotion() ? mi.candidates[0] : mi.candidates[1];
        Move stay = mi.candidates[0].is_promotion() ? mi.candidates[1] : mi.candidates[0];
        if (!input_is_terminal()) {
            play_user_move(stay, text);  // as GNU Shogi reads it: no `+`, no promotion
            return;
        }
        auto answer = ask("Promote? (y/n) ");
        if (answer && !answer->empty() && ((*answer)[0] == 'y' || (*answer)[0] == 'Y'))
            play_user_move(promote, text);
        else if (answer && !answer->empty() && ((*answer)[0] == 'n' || (*answer)[0] == 'N'))
            play_user_move(stay, text);
        else
            ui_.message("Move cancelled.");
        return;
    }
    case MoveInput::Status::NotAMove:
        ui_.illegal(text, mode() == DisplayMode::Xshogi ? std::string("no match") : mi.reason);
        return;
    default: ui_.illegal(text, mi.reason); return;
    }
}

bool Controller::play_user_move(Move m, std::string_view typed) {
    Color mover = session_.side_to_move();
    auto before = session_.position().clone();
    std::string text = session_.move_text(*before, m);
    PlyInfo info;
    info.typed = std::string(typed);
    if (auto r = session_.play(m, info); !r) {
        ui_.illegal(typed, notation::explain_illegal(*before, m, r.error()));
        return false;
    }
    MoveReport rep;
    rep.move = m;
    rep.text = text;
    rep.typed = std::string(typed);
    rep.ply = session_.ply_count();
    rep.counter = ++user_counter_;
    rep.clock_ms = session_.clocks().remaining(mover);
    ui_.move_made(session_, rep);
    after_move();
    return true;
}

void Controller::after_move() {
    if (session_.game().over()) {
        announce_result();
        return;
    }
    if (session_.options().both)
        return;  // the loop goes on with the next move once pending input is handled
    if (session_.computer_to_move())
        start_thinking();
    else if (!session_.options().easy && !session_.options().force && !eof_)
        start_pondering();
}

void Controller::announce_result() {
    const Game& g = session_.game();
    if (!g.over())
        return;
    session_.clocks().halt();
    ui_.game_over(session_, g.result());
    session_.save_experience();
}

// --- searches

void Controller::start_search(Search kind, const engine::Limits& limits, std::vector<Move> search_moves) {
    int id = ++search_id_;
    search_ = kind;
    last_info_ = {};
    multipv_.clear();
    // Both reports reach the main loop as events of this search.
    auto report = [this, id](Event e) {
        e.search_id = id;
        queue_.push(std::move(e));
    };
    session_.engine().go(
        session_.position(), limits,
        [report](const engine::SearchInfo& info) { report({.kind = Event::Kind::Info, .info = info}); },
        [report](const engine::SearchResult& r) { report({.kind = Event::Kind::Done, .result = r}); },
        std::move(search_moves));
}

void Controller::start_thinking() {
    if (session_.game().over() || search_ == Search::Move)
        return;
    stop_pondering();
    if (search_ != Search::None)
        return;
    Session& s = session_;
    const Options& o = s.options();
    engine::Engine& eng = s.engine();
    eng.set_option("OwnBook", o.book ? "true" : "false");
    eng.set_option("Contempt", std::to_string(o.contempt));
    eng.set_option("MultiPV", o.random ? "3" : "1");
    std::vector<Move> moves;
    if (o.tsume && !s.position().in_check())
        for (const auto& sm : MoveList<LEGAL>(s.position()))
            if (s.position().gives_check(sm.move))
                moves.push_back(sm.move);
    if (o.use_hash && s.experience().is_open() && s.position().game_ply() <= 2 * o.hash_moves)
        s.experience().seed(eng.pool().tt, s.position(), o.hash_min_depth);
    if (!s.clocks().running() || s.clocks().running_side() != s.side_to_move()) {
        s.clocks().halt();
        s.clocks().start(s.side_to_move());
    }
    start_search(Search::Move, s.search_limits(), std::move(moves));
}

void Controller::start_pondering() {
    if (search_ != Search::None || session_.game().over())
        return;
    engine::Limits l;
    l.infinite = true;
    session_.engine().set_option("MultiPV", "1");
    start_search(Search::Ponder, l);
}

void Controller::stop_pondering() {
    if (search_ != Search::Ponder)
        return;
    session_.engine().stop();
    session_.engine().wait();
    ++search_id_;  // its report is stale
    search_ = Search::None;
}

void Controller::interrupt() {
    if (search_ == Search::Ponder) {
        stop_pondering();
        return;
    }
    if (search_ != Search::None)
        session_.engine().stop();
}

void Controller::start_analysis(const engine::Limits& limits) {
    stop_pondering();
    if (search_ != Search::None)
        return;
    session_.engine().set_option("MultiPV", "1");
    start_search(Search::Analysis, limits);
}

Move Controller::predicted_move() {
    stop_pondering();
    if (search_ != Search::None || session_.game().over())
        return Move::none();
    engine::Limits l;
    l.depth = session_.options().depth > 0 ? std::min(session_.options().depth, 8) : 8;
    l.movetime = 1000;
    return session_.engine().search(session_.position(), l).best;
}

void Controller::on_search_done(const Event& e) {
    if (e.search_id != search_id_)
        return;
    Search kind = search_;
    search_ = Search::None;
    prompted_ = false;
    if (kind == Search::Move) {
        finish_own_move(e.result);
    } else if (kind == Search::Analysis) {
        Move best = e.result.best;
        ui_.message(best.is_ok()
                        ? "Best move: " + session_.move_text(session_.position(), best) + " (score "
                              + std::to_string(e.result.score) + ", depth " + std::to_string(e.result.depth) + ")"
                        : "No legal move.");
    }
}

Move Controller::choose_move(const engine::SearchResult& r) const {
    if (!session_.options().random || multipv_.size() < 2 || !r.best.is_ok())
        return r.best;
    const engine::SearchInfo& top = multipv_[0];
    if (top.pv.empty() || engine::is_mate_score(top.score))
        return r.best;
    std::vector<Move> near;
    for (const auto& info : multipv_)
        if (!info.pv.empty() && info.depth == top.depth && info.score >= top.score - 20)
            near.push_back(info.pv[0]);
    if (near.size() < 2)
        return r.best;
    std::mt19937 rng(std::random_device{}());
    return near[std::uniform_int_distribution<std::size_t>(0, near.size() - 1)(rng)];
}

void Controller::finish_own_move(const engine::SearchResult& r) {
    Session& s = session_;
    s.engine().set_option("MultiPV", "1");
    if (s.game().over())
        return;
    Color us = s.side_to_move();
    Move m = choose_move(r);
    if (m == Move::win() || !m.is_ok()) {
        if (m == Move::win() && s.declare())
            ui_.message(std::string(us == BLACK ? "Black" : "White") + " declares an entering-king win.");
        else
            s.resign(us);
        announce_result();
        return;
    }
    auto before = s.position().clone();
    PlyInfo info;
    info.by_engine = true;
    info.depth = r.depth;
    info.nodes = r.nodes;
    info.score = m == r.best ? r.score : r.score - 10;
    if (s.options().use_hash)
        s.experience().record(*before, m, info.score, info.depth);
    if (!s.play(m, info)) {
        ui_.message("internal error: the engine chose an illegal move " + to_usi(m) + "; force mode is on");
        s.options().force = true;
        return;
    }
    MoveReport rep;
    rep.move = m;
    rep.text = s.move_text(*before, m);
    rep.by_engine = true;
    rep.ply = s.ply_count();
    rep.counter = ++engine_counter_;
    rep.clock_ms = s.clocks().remaining(us);
    rep.search = r;
    rep.search.best = m;
    ui_.move_made(s, rep);
    if (s.options().beep)
        ui_.beep();
    if (eof_ && !s.game().over())
        return;  // the input has ended: no new search starts by itself (self-play stops here)
    after_move();
}

}  // namespace hisha::play
