// xshogi protocol lines.
#include "xshogi.h"

#include "core/version.h"

namespace hisha::protocol::xshogi {

std::string banner() { return std::string("Hisha ") + version() + " (GNU Shogi compatible)"; }

namespace {

// What xshogi acts on, in HandleMachineMove's order of tests: a line that starts with `text`
// (or holds it anywhere), and what xshogi makes of it. After a Fatal one it shuts the program down.
enum Where { AtStart, Anywhere };
struct Trigger {
    std::string_view text;
    Where where;
    LineKind kind;
};
constexpr Trigger TRIGGERS[] = {
    {"warning:", AtStart, LineKind::Warning},
    {"unknown host", Anywhere, LineKind::Fatal},
    {"No remote directory", Anywhere, LineKind::Fatal},
    {"not found", Anywhere, LineKind::Fatal},
    {"No such file", Anywhere, LineKind::Fatal},
    {"Permission denied", Anywhere, LineKind::Fatal},
    {"Illegal move", AtStart, LineKind::Illegal},
    {"GNU Shogi", Anywhere, LineKind::Banner},
    {"Hint:", AtStart, LineKind::Hint},
    {"Clocks:", AtStart, LineKind::Clocks},
    {"Black", AtStart, LineKind::BlackWins},
    {"White", AtStart, LineKind::WhiteWins},
    {"Repetition", AtStart, LineKind::Draw},
    {"Draw", AtStart, LineKind::Draw},
    {"opponent mates!", AtStart, LineKind::BlackWins},  // depends on the mode; significant either way
    {"computer mates!", AtStart, LineKind::BlackWins},
    {"...", Anywhere, LineKind::Move},
};

bool fires(const Trigger& t, std::string_view line) {
    return t.where == Anywhere ? line.find(t.text) != std::string_view::npos : line.starts_with(t.text);
}

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
    for (const auto& t : TRIGGERS)
        if (t.kind == LineKind::Fatal)
            replace_all(r, t.text, "missing");
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
    for (const auto& t : TRIGGERS)
        if (fires(t, line))
            return t.kind;
    return LineKind::Noise;
}

bool significant(std::string_view line) {
    LineKind k = classify(line);
    return k != LineKind::Noise && k != LineKind::Banner;
}

std::string noise(std::string_view line) {
    std::string s(line);
    for (const auto& t : TRIGGERS) {
        if (t.kind != LineKind::Fatal)
            continue;
        std::string lowered(t.text);
        lowered[0] = char(lowered[0] | 0x20);
        replace_all(s, t.text, lowered == t.text ? std::string("missing") : lowered);
    }
    replace_all(s, "...", ". . .");
    for (const auto& t : TRIGGERS)
        if (t.where == AtStart && fires(t, s))
            return "# " + s;
    return s;
}

}  // namespace hisha::protocol::xshogi
