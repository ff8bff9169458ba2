// Session state and the operations on it.
#include "session.h"

#include "core/names.h"
#include "kanji.h"
#include "notation/coordinate.h"
#include "notation/western.h"

namespace hisha::play {

using namespace hisha::core;
using core::unexpected;

TimeControl default_time_control(DisplayMode m) {
    return *parse_time_args(m == DisplayMode::Xshogi ? std::vector<std::string>{"40", "5"}
                                                     : std::vector<std::string>{"15"});
}

namespace {
constexpr EnumName<MoveNotation> NOTATION_NAMES[] = {
    {MoveNotation::Gnu, "gnu", {"coordinate"}},
    {MoveNotation::Western, "western", {"hodges"}},
    {MoveNotation::Usi, "usi"},
    {MoveNotation::Kif, "kif", {"ki2", "japanese"}},
};
}  // namespace

const char* notation_name(MoveNotation n) { return name_of(NOTATION_NAMES, n); }

std::optional<MoveNotation> notation_named(std::string_view name) { return value_named(NOTATION_NAMES, name); }

Session::Session(const Settings& settings) : settings_(settings), engine_(std::make_unique<engine::Engine>()) {
    if (settings.tt_mb > 0)
        engine_->set_option("USI_Hash", std::to_string(settings.tt_mb));
    if (!settings.book_file.empty())
        engine_->set_option("BookFile", settings.book_file);
    if (settings.ponder)
        options_.easy = !*settings.ponder;
    if (settings.xwndw)
        options_.xwndw = *settings.xwndw;
    options_.use_hash = settings.use_hash;
    std::string path = settings.hash_path.empty() ? Experience::default_path() : settings.hash_path;
    if (settings.use_hash || settings.create_hash || settings.hash_stats) {
        auto r = experience_.open(path);
        (void)r;  // a damaged file leaves the experience closed; the statistics say so
    }
    TimeControl tc = settings.time;
    if (tc.kind == TimeControl::Kind::None)
        tc = default_time_control(settings.mode);
    clocks_.reset(tc);
}

Session::~Session() {
    engine_->stop();
    engine_->pool().pondering_ = false;
    engine_->wait();
}

bool Session::computer_to_move() const {
    if (game_.over() || options_.force)
        return false;
    return options_.both || side_to_move() == options_.computer;
}

void Session::reset_game_state() {
    plies_.clear();
    clocks_.reset(clocks_.control());
}

void Session::new_game() {
    (void)game_.reset();
    options_.force = false;
    options_.both = false;
    reset_game_state();
    engine_->new_game();
}

void Session::new_game(Handicap h) {
    game_.reset(h);
    options_.force = false;
    options_.both = false;
    reset_game_state();
    engine_->new_game();
}

core::Result<void, std::string> Session::set_position(std::string_view sfen) {
    Position check;
    if (auto r = check.set(sfen, SfenRules::Relaxed); !r)
        return unexpected(r.error().to_string());
    if (auto r = game_.reset(sfen); !r)
        return unexpected(r.error().to_string());
    reset_game_state();
    return {};
}

core::Result<void, std::string> Session::load_record(const notation::GameRecord& rec) {
    Game g;
    if (auto r = notation::replay(rec, g); !r)
        return unexpected(r.error().to_string());
    if (auto r = game_.reset(rec.start_sfen); !r)
        return unexpected(r.error().to_string());
    if (rec.handicap)
        game_.reset(*rec.handicap);
    reset_game_state();
    for (const auto& mr : rec.moves) {
        PlyInfo info;
        info.time_ms = mr.time_ms.value_or(0);
        if (!play(mr.move, info))
            break;
    }
    return {};
}

notation::GameRecord Session::to_record() const {
    notation::GameRecord rec;
    rec.start_sfen = game_.start_sfen();
    if (game_.handicap())
        rec.set_handicap(*game_.handicap());
    bool machine_black = !options_.force && (options_.both || options_.computer == BLACK);
    bool machine_white = !options_.force && (options_.both || options_.computer == WHITE);
    rec.set_header(notation::key::BLACK, machine_black ? "Hisha" : "Player");
    rec.set_header(notation::key::WHITE, machine_white ? "Hisha" : "Player");
    rec.set_header(notation::key::TIME_CONTROL, clocks_.control().describe());
    for (const auto& p : plies_) {
        notation::MoveRecord mr;
        mr.move = p.move;
        mr.time_ms = p.time_ms;
        rec.moves.push_back(std::move(mr));
    }
    rec.result.winner = game_.result().winner;
    rec.result.reason = game_.result().reason;
    return rec;
}

void Session::set_time_control(const TimeControl& tc) {
    TimeControl t = tc;
    t.game_in = options_.gamein;
    clocks_.reset(t);
}

core::Result<void, IllegalMove> Session::play(Move m, PlyInfo info) {
    Color mover = side_to_move();
    info.clock_before = clocks_.remaining(mover);
    if (auto r = game_.play(m); !r) {
        return r;
    }
    int used = clocks_.running() ? clocks_.stop() : 0;
    if (info.time_ms == 0)
        info.time_ms = used;
    info.move = m;
    plies_.push_back(std::move(info));
    return {};
}

bool Session::undo() {
    if (plies_.empty() || !game_.undo())
        return false;
    clocks_.halt();
    Color mover = side_to_move();
    clocks_.restore(mover, plies_.back().clock_before);
    plies_.pop_back();
    return true;
}

bool Session::declare() {
    clocks_.halt();
    return game_.declare().has_value();
}

void Session::resign(Color c) {
    clocks_.halt();
    game_.resign(c);
}

std::string Session::move_text(const Position& before, Move m) const {
    switch (options_.notation) {
    case MoveNotation::Gnu: return notation::write_coordinate(m);
    case MoveNotation::Usi: return to_usi(m);
    case MoveNotation::Western: return notation::write_western(before, m);
    case MoveNotation::Kif: return kanji::move_text(before, m);
    }
    return to_usi(m);
}

std::string Session::move_text_at(int ply) const {
    if (ply < 0 || ply >= ply_count())
        return "";
    Position p;
    (void)p.set(game_.start_sfen(), SfenRules::Relaxed);
    for (int i = 0; i < ply; ++i)
        p.play(game_.moves()[std::size_t(i)]);
    return move_text(p, game_.moves()[std::size_t(ply)]);
}

engine::Limits Session::search_limits() const {
    engine::Limits l = clocks_.limits(side_to_move());
    l.depth = options_.depth;
    if (clocks_.control().kind == TimeControl::Kind::None && l.depth == 0)
        l.movetime = 10000;
    return l;
}

void Session::save_experience() {
    if (experience_.is_open())
        (void)experience_.save();
}

}  // namespace hisha::play
