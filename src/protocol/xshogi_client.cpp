// GNU Shogi through the xshogi protocol.
#include "xshogi_client.h"

#include <sys/stat.h>

#include <cctype>
#include <vector>

#include "core/text.h"
#include "notation/coordinate.h"

namespace hisha::protocol {

namespace {

constexpr const char* DEBIAN_BOOK = "/usr/lib/games/gnushogi/gnushogi.bbk";

bool all_digits(const std::string& s) { return !s.empty() && s.find_first_not_of("-0123456789") == std::string::npos; }

// "5" for 5 s, "1:30" for 90 s: GNU Shogi's minutes[:seconds] or seconds.
std::string minutes_seconds(int seconds) {
    std::string ss = std::to_string(seconds % 60);
    return std::to_string(seconds / 60) + ":" + (ss.size() < 2 ? "0" + ss : ss);
}

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The `edit` lines that set up a position: Black's pieces, `c`, White's, `.` (pieces in hand
// as one `P*` token each).
std::vector<std::string> edit_lines(const core::Position& pos) {
    std::vector<std::string> out{"edit", "#"};
    for (core::Color c : {core::BLACK, core::WHITE}) {
        if (c == core::WHITE)
            out.push_back("c");
        for (int sq = 0; sq < core::SQ_NB; ++sq) {
            core::Piece p = pos.piece_on(core::Square(sq));
            if (p == core::NO_PIECE || core::color_of(p) != c)
                continue;
            core::PieceType pt = core::type_of(p);
            char letter = pt == core::KING ? 'K' : notation::piece_letter(core::unpromote(pt));
            out.push_back(std::string(1, letter) + core::square_to_usi(core::Square(sq))
                          + (core::is_promoted(pt) ? "+" : ""));
        }
        for (core::PieceType pt :
             {core::ROOK, core::BISHOP, core::GOLD, core::SILVER, core::KNIGHT, core::LANCE, core::PAWN})
            for (int i = 0; i < pos.hand(c).count(pt); ++i)
                out.push_back(std::string(1, notation::piece_letter(pt)) + "*");
    }
    out.push_back(".");
    return out;
}

}  // namespace

XshogiClient::XshogiClient(EngineSpec spec) : ChildEnginePlayer(std::move(spec), 500) {}

std::string XshogiClient::option(const std::string& key, const std::string& fallback) const {
    for (const auto& [k, v] : spec_.options)
        if (k == key)
            return v;
    return fallback;
}

// Reads a line, dropping the prompt `depth = ` that 1.4.2 prints without a newline.
bool XshogiClient::read(std::string& line, SteadyClock::time_point deadline, ChildProcess::Read& status) {
    status = child_.read_line(line, deadline);
    if (status != ChildProcess::Read::Line)
        return false;
    while (line.rfind("depth = ", 0) == 0)
        line.erase(0, 8);
    log_received(line);
    return true;
}

core::Result<void, std::string> XshogiClient::launch(const std::string& time_args) {
    std::string cmd = command_;
    struct stat st;
    std::string book = option("book", ::stat(DEBIAN_BOOK, &st) == 0 ? DEBIAN_BOOK : "off");
    if (book != "off" && !book.empty())
        cmd += " -B " + shell_quote(book);
    if (std::string extra = option("args", ""); !extra.empty())
        cmd += " " + extra;
    if (!time_args.empty())
        cmd += " " + time_args;
    if (auto r = child_.spawn(cmd, true); !r)
        return core::unexpected(spec_.name + ": " + r.error());
    auto deadline = SteadyClock::now() + std::chrono::milliseconds(spec_.startup_timeout_ms);
    std::string line;
    ChildProcess::Read status;
    while (read(line, deadline, status))
        if (line.find("GNU Shogi") != std::string::npos) {
            identity_ = line;
            send("beep");  // a toggle, on by default: silence it as xshogi does
            if (option("random", "on") != "off")
                send("random");
            return {};
        }
    std::string why = status == ChildProcess::Read::Timeout ? "no 'GNU Shogi' banner in time"
                                                            : "it exited (" + child_.exit_description() + ")";
    child_.terminate(0);
    return core::unexpected(spec_.name + " (" + cmd + "): " + why);
}

core::Result<void, std::string> XshogiClient::start() {
    if (child_.running())
        return {};
    return launch("1 9999");
}

// The command that sets its time control: `level 0 0:SS` (SS seconds a move, which GNU Shogi
// uses to within some 25 ms) or `level N M:SS` (N moves in M:SS, its clock then kept in step
// with `time`/`otime`); `depth` for a fixed depth, under a 9999 s per-move limit given as
// arguments (1.4.2 reads two arguments as "seconds a move" in its second one).
core::Result<std::string, std::string> XshogiClient::level_command(const engine::Limits& l) const {
    if (l.depth > 0)
        return std::string("depth");
    if (l.nodes > 0)
        return core::unexpected(spec_.name + ": GNU Shogi cannot search a fixed number of nodes");
    if (l.time[color_] == 0 && l.byoyomi > 0) {
        if (l.byoyomi < 1000)
            return core::unexpected(spec_.name
                                    + ": GNU Shogi cannot think less than 1 s a move; give it st=1 or "
                                      "more, or depth=N (--tc "
                                    + spec_.name + ":depth=2)");
        return "level 0 " + minutes_seconds(l.byoyomi / 1000);  // whole seconds, rounded down
    }
    int moves = l.moves_to_go > 0 ? l.moves_to_go : 40;
    return "level " + std::to_string(moves) + " " + minutes_seconds(std::max(1, l.time[color_] / 1000));
}

core::Result<void, std::string> XshogiClient::new_game(const GameSetup& setup) {
    color_ = setup.color;
    auto level = level_command(setup.limits);
    if (!level)
        return core::unexpected(level.error());
    child_.terminate(0);
    if (auto r = launch(setup.limits.depth > 0 ? "1 9999" : ""); !r)
        return r;
    send(*level);
    if (setup.limits.depth > 0)
        send(std::to_string(setup.limits.depth));  // 1.4.2 reads the depth from the next line
    clocked_ = setup.limits.depth == 0 && setup.limits.time[color_] > 0;
    engaged_ = false;
    known_ = 0;
    claim_.clear();
    if (setup.start_sfen != core::START_SFEN) {
        core::Position pos;
        if (auto r = pos.set(setup.start_sfen); !r)
            return core::unexpected(spec_.name + ": bad start position: " + r.error().to_string());
        for (const auto& line : edit_lines(pos))
            send(line);
    }
    return {};
}

bool XshogiClient::note_claim(const std::string& line) {
    for (const char* end : {"mates!", "Drawn game", "Repetition", "Draw"})
        if (line.find(end) != std::string::npos) {
            claim_ = line;
            return true;
        }
    return false;
}

// Lines printed after its last move (a draw or mate announcement) are read before going on.
void XshogiClient::drain() {
    std::string line;
    ChildProcess::Read status;
    while (read(line, SteadyClock::now(), status))
        note_claim(line);
}

// The game so far in force mode, each move echoed before the next is sent.
core::Result<void, std::string> XshogiClient::enter_moves(const core::Game& game) {
    const auto& moves = game.moves();
    core::Color start_side = moves.size() % 2 == 0 ? game.position().side_to_move() : ~game.position().side_to_move();
    send(start_side == core::WHITE ? "white" : "black");  // the side to enter moves for (inverted)
    send("force");
    for (std::size_t i = known_; i < moves.size(); ++i) {
        std::string move = notation::write_coordinate(moves[i]);
        send(move);
        auto deadline = SteadyClock::now() + std::chrono::milliseconds(spec_.startup_timeout_ms);
        std::string line;
        ChildProcess::Read status;
        bool echoed = false;
        while (!echoed && read(line, deadline, status)) {
            if (line.find("Illegal") != std::string::npos)
                return core::unexpected("it refused the move " + move + ": " + line);
            auto t = text::words(line);
            echoed = t.size() >= 2 && t[1] == move;
        }
        if (!echoed)
            return core::unexpected("no echo of the move " + move);
    }
    known_ = moves.size();
    return {};
}

void XshogiClient::send_clocks(const core::Game&, const engine::Limits& l) {
    if (!clocked_)
        return;
    core::Color me = color_;
    int own_ms = l.time[me] + l.byoyomi + l.inc[me];
    int moves = l.moves_to_go > 0 ? l.moves_to_go : l.time[me] > 0 ? 30 : 1;
    // `time` and `otime` take centiseconds; a little is kept back for the pipes.
    send("time " + std::to_string(std::max(100, (own_ms - 300) / 10)) + " " + std::to_string(moves));
    send("otime " + std::to_string(std::max(100, (l.time[~me] + l.byoyomi) / 10)));
}

MoveReply XshogiClient::failure(MoveReply::Kind kind, SteadyClock::time_point t0, std::string detail) {
    MoveReply r;
    r.kind = kind;
    r.elapsed_ms = elapsed_ms_since(t0);
    if (kind == MoveReply::Kind::Crash)
        detail += " (" + child_.exit_description() + ")";
    r.detail = std::move(detail);
    if (kind != MoveReply::Kind::Claim)
        child_.terminate(0);
    return r;
}

MoveReply XshogiClient::think(const core::Game& game, const MoveRequest& request) {
    auto t0 = SteadyClock::now();
    if (!child_.running())
        return failure(MoveReply::Kind::Crash, t0, "GNU Shogi exited before its move");
    drain();
    if (!claim_.empty()) {
        MoveReply r = failure(MoveReply::Kind::Claim, t0, "GNU Shogi said '" + claim_ + "' and stopped playing");
        r.text = claim_;
        return r;
    }
    const auto& moves = game.moves();
    if (!engaged_) {
        if (auto r = enter_moves(game); !r)
            return failure(MoveReply::Kind::Refused, t0, r.error());
        send_clocks(game, request.limits);
        send(color_ == core::BLACK ? "black" : "white");  // inverted: `black` + `go` = play Black now
        t0 = SteadyClock::now();
        send("go");
        engaged_ = true;
        return read_move(game, t0, request, false);
    }
    if (moves.size() != known_ + 1)
        return failure(MoveReply::Kind::Refused, t0,
                       "out of step: " + std::to_string(moves.size() - known_) + " new moves at once");
    send_clocks(game, request.limits);
    t0 = SteadyClock::now();
    send(notation::write_coordinate(moves.back()));
    known_ = moves.size();
    return read_move(game, t0, request, true);
}

MoveReply XshogiClient::read_move(const core::Game& game, SteadyClock::time_point t0, const MoveRequest& request,
                                  bool expect_echo) {
    bool echoed = !expect_echo, late = false;
    auto deadline = t0 + std::chrono::milliseconds(request.deadline_ms);
    std::string line;
    ChildProcess::Read status;
    for (;;) {
        if (!read(line, deadline, status)) {
            if (status == ChildProcess::Read::Eof)
                return failure(MoveReply::Kind::Crash, t0, "GNU Shogi exited while thinking");
            if (!echoed)
                return failure(MoveReply::Kind::Refused, t0,
                               "GNU Shogi did not take the move " + notation::write_coordinate(game.moves().back())
                                   + " (it goes silent when it counts a fourfold repetition)");
            if (late)
                return failure(MoveReply::Kind::Hang, t0,
                               "no move, even " + std::to_string(request.grace_ms) + " ms after its time");
            late = true;
            deadline = SteadyClock::now() + std::chrono::milliseconds(request.grace_ms);
            continue;
        }
        if (line.find("Illegal move") != std::string::npos)
            return failure(MoveReply::Kind::Refused, t0, "GNU Shogi refused a legal move: " + line);
        auto t = text::words(line);
        if (t.size() >= 2 && t[1] == "...") {
            MoveReply r;
            r.elapsed_ms = elapsed_ms_since(t0);
            if (t.size() >= 3 && !all_digits(t[2])) {
                r.kind = MoveReply::Kind::Move;
                ++known_;  // its own move is part of the game it knows
                r.text = t[2];
                if (r.text.size() > 1 && r.text[1] == '*')  // drops in upper case, as USI writes them
                    r.text[0] = char(std::toupper(static_cast<unsigned char>(r.text[0])));
            } else {
                r.kind = MoveReply::Kind::Resign;
                r.detail = "GNU Shogi made no move (it sees itself mated)";
            }
            if (late) {
                r.detail = "its move came after " + std::to_string(r.elapsed_ms) + " ms";
                r.kind = MoveReply::Kind::Late;
            }
            return r;
        }
        if (note_claim(line))
            return failure(MoveReply::Kind::Claim, t0, "GNU Shogi said '" + line + "' instead of moving");
        if (t.size() >= 2 && !t[0].empty() && t[0].back() == '.')
            echoed = true;
    }
}

void XshogiClient::game_over(const core::GameResult&, core::Color) {}

}  // namespace hisha::protocol
