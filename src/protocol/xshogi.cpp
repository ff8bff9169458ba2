// xshogi protocol lines.
#include "xshogi.h"

#include <array>

#include "core/version.h"

namespace hisha::protocol::xshogi {

std::string banner() { return std::string("Hisha ") + version() + " (GNU Shogi compatible)"; }

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

// Substrings after which xshogi shuts the program down (HandleMachineMove, first test).
constexpr std::array<std::string_view, 5> FATAL = {"unknown host", "No remote directory", "not found", "No such file",
                                                   "Permission denied"};
// Prefixes xshogi acts on.
constexpr std::array<std::string_view, 10> PREFIXES = {
    "warning:", "Illegal move", "Hint:",           "Clocks:",         "Black",
    "White",    "Repetition",   "opponent mates!", "computer mates!", "Draw"};

void replace_all(std::string& s, std::string_view from, std::string_view to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
}

const char* side(core::Color c) { return c == core::BLACK ? "Black" : "White"; }

}  // namespace

std::string user_move_line(int n, std::string_view typed, int ms) {
    return std::to_string(n) + ". " + std::string(typed) + " " + std::to_string(ms);
}

std::string engine_move_line(int n, core::Move m, int ms) {
    return std::to_string(n) + ". ... " + core::to_usi(m) + " " + std::to_string(ms);
}

std::string illegal_move_line(std::string_view reason, std::string_view input) {
    std::string r(reason);
    for (auto f : FATAL)
        replace_all(r, f, "missing");
    return "Illegal move (" + r + ") " + std::string(input);
}

std::string hint_line(core::Move m) { return m.is_ok() ? "Hint: " + core::to_usi(m) : "I have no idea."; }

std::string clocks_line(int black_ms, int white_ms) {
    return "Clocks: " + std::to_string(black_ms) + " " + std::to_string(white_ms);
}

std::string time_ack(bool opponent, int centiseconds, int moves) {
    return std::string(opponent ? "otime " : "time ") + std::to_string(centiseconds) + " " + std::to_string(moves);
}

std::string result_line(const core::GameResult& r) {
    using core::EndReason;
    using core::Winner;
    if (r.winner == Winner::Draw)
        return "Drawn game!";
    if (r.winner != Winner::Black && r.winner != Winner::White)
        return "";
    core::Color w = r.winner == Winner::Black ? core::BLACK : core::WHITE;
    if (r.reason == EndReason::Checkmate)
        return std::string(side(w)) + " mates!";
    std::string why;
    switch (r.reason) {
    case EndReason::NoLegalMoves: why = std::string(side(~w)) + " has no legal move"; break;
    case EndReason::Resignation: why = std::string(side(~w)) + " resigns"; break;
    case EndReason::PerpetualCheck: why = std::string("perpetual check by ") + side(~w); break;
    case EndReason::Declaration: why = "entering-king declaration"; break;
    case EndReason::ImpasseCount: why = "impasse count"; break;
    case EndReason::TimeUp: why = std::string(side(~w)) + " lost on time"; break;
    case EndReason::IllegalMove: why = "illegal move"; break;
    case EndReason::Disconnect: why = std::string(side(~w)) + " disconnected"; break;
    default: why = core::describe(r.reason); break;
    }
    return std::string(side(w)) + " wins (" + why + ")";
}

LineKind classify(std::string_view line) {
    if (starts_with(line, "warning:"))
        return LineKind::Warning;
    for (auto f : FATAL)
        if (contains(line, f))
            return LineKind::Fatal;
    if (starts_with(line, "Illegal move"))
        return LineKind::Illegal;
    if (contains(line, "GNU Shogi"))
        return LineKind::Banner;
    if (starts_with(line, "Hint:"))
        return LineKind::Hint;
    if (starts_with(line, "Clocks:"))
        return LineKind::Clocks;
    if (starts_with(line, "Black"))
        return LineKind::BlackWins;
    if (starts_with(line, "White"))
        return LineKind::WhiteWins;
    if (starts_with(line, "Repetition") || starts_with(line, "Draw"))
        return LineKind::Draw;
    if (starts_with(line, "opponent mates!") || starts_with(line, "computer mates!"))
        return LineKind::BlackWins;  // depends on the mode; significant either way
    if (contains(line, "..."))
        return LineKind::Move;
    return LineKind::Noise;
}

bool significant(std::string_view line) {
    LineKind k = classify(line);
    return k != LineKind::Noise && k != LineKind::Banner;
}

std::string noise(std::string_view line) {
    std::string s(line);
    for (auto f : FATAL) {
        std::string lowered(f);
        lowered[0] = char(lowered[0] | 0x20);
        replace_all(s, f, lowered == f ? std::string("missing") : lowered);
    }
    replace_all(s, "...", ". . .");
    for (auto p : PREFIXES)
        if (starts_with(s, p))
            return "# " + s;
    return s;
}

}  // namespace hisha::protocol::xshogi
