// Time controls: parsing, canonical text, and the referee's clock.
#include "time_control.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <optional>

namespace hisha::match {

namespace {

// Seconds (possibly fractional) as milliseconds; nothing for anything else.
std::optional<int> parse_seconds(std::string_view s) {
    if (s.empty() || s.size() > 12)
        return std::nullopt;
    double v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !(v >= 0) || v > 1e7)
        return std::nullopt;
    return int(std::lround(v * 1000));
}

std::optional<std::uint64_t> parse_count(std::string_view s) {
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v == 0)
        return std::nullopt;
    return v;
}

// "1.5" for 1500 ms, "10" for 10000 ms.
std::string seconds_text(int ms) {
    std::string s = std::to_string(ms / 1000);
    if (int frac = ms % 1000; frac != 0) {
        std::string f = std::to_string(1000 + frac).substr(1);
        while (f.back() == '0')
            f.pop_back();
        s += "." + f;
    }
    return s;
}

core::Unexpected<std::string> bad(std::string_view text, std::string_view why) {
    return core::unexpected("bad time control '" + std::string(text) + "': " + std::string(why)
                            + " (use st=S, MAINbBYO, MAINiINC, MOVES/TIME, depth=N or nodes=N)");
}

}  // namespace

std::string TimeControl::to_string() const {
    switch (kind) {
    case Kind::PerMove: return "st=" + seconds_text(byoyomi_ms);
    case Kind::Byoyomi: return seconds_text(main_ms) + "b" + seconds_text(byoyomi_ms);
    case Kind::Fischer: return seconds_text(main_ms) + "i" + seconds_text(increment_ms);
    case Kind::MovesInTime: return std::to_string(moves) + "/" + seconds_text(main_ms);
    case Kind::Depth: return "depth=" + std::to_string(depth);
    case Kind::Nodes: return "nodes=" + std::to_string(nodes);
    }
    return {};
}

core::Result<TimeControl, std::string> parse_time_control(std::string_view text) {
    TimeControl tc;
    auto key = [&](std::string_view k) { return text.substr(0, k.size()) == k; };
    if (key("st=")) {
        auto s = parse_seconds(text.substr(3));
        if (!s || *s <= 0)
            return bad(text, "the time a move must be a positive number of seconds");
        tc.kind = TimeControl::Kind::PerMove;
        tc.byoyomi_ms = *s;
        return tc;
    }
    if (key("depth=") || key("nodes=")) {
        auto n = parse_count(text.substr(6));
        if (!n || (key("depth=") && *n > 1000))
            return bad(text, "expected a positive whole number");
        if (key("depth=")) {
            tc.kind = TimeControl::Kind::Depth;
            tc.depth = int(*n);
        } else {
            tc.kind = TimeControl::Kind::Nodes;
            tc.nodes = *n;
        }
        return tc;
    }
    if (auto slash = text.find('/'); slash != std::string_view::npos) {
        auto moves = parse_count(text.substr(0, slash));
        auto main = parse_seconds(text.substr(slash + 1));
        if (!moves || *moves > 1000 || !main || *main <= 0)
            return bad(text, "expected MOVES/SECONDS");
        tc.kind = TimeControl::Kind::MovesInTime;
        tc.moves = int(*moves);
        tc.main_ms = *main;
        return tc;
    }
    for (char sep : {'b', 'i'}) {
        auto at = text.find(sep);
        if (at == std::string_view::npos)
            continue;
        auto main = parse_seconds(text.substr(0, at));
        auto extra = parse_seconds(text.substr(at + 1));
        if (!main || !extra || (*main == 0 && *extra == 0))
            return bad(text, "expected two numbers of seconds, not both zero");
        tc.kind = sep == 'b' ? TimeControl::Kind::Byoyomi : TimeControl::Kind::Fischer;
        tc.main_ms = *main;
        (sep == 'b' ? tc.byoyomi_ms : tc.increment_ms) = *extra;
        return tc;
    }
    return bad(text, "unknown form");
}

GameClock::GameClock(const TimeControl& black, const TimeControl& white) : tc_{black, white} {
    for (core::Color c : {core::BLACK, core::WHITE})
        remaining_[c] = tc_[c].main_ms;
}

int GameClock::allowed_ms(core::Color c) const {
    const TimeControl& tc = tc_[c];
    switch (tc.kind) {
    case TimeControl::Kind::PerMove: return tc.byoyomi_ms;
    case TimeControl::Kind::Byoyomi: return remaining_[c] + tc.byoyomi_ms;
    case TimeControl::Kind::Fischer: return remaining_[c] + tc.increment_ms;
    case TimeControl::Kind::MovesInTime: return remaining_[c];
    case TimeControl::Kind::Depth:
    case TimeControl::Kind::Nodes: return -1;
    }
    return -1;
}

engine::Limits GameClock::limits(core::Color c) const {
    engine::Limits l;
    const TimeControl& tc = tc_[c];
    for (core::Color side : {core::BLACK, core::WHITE}) {
        if (tc_[side].timed())
            l.time[side] = remaining_[side];
        l.inc[side] = tc_[side].kind == TimeControl::Kind::Fischer ? tc_[side].increment_ms : 0;
    }
    switch (tc.kind) {
    case TimeControl::Kind::PerMove: l.byoyomi = tc.byoyomi_ms; break;
    case TimeControl::Kind::Byoyomi: l.byoyomi = tc.byoyomi_ms; break;
    case TimeControl::Kind::Fischer: break;
    case TimeControl::Kind::MovesInTime: l.moves_to_go = tc.moves - moves_made_[c] % tc.moves; break;
    case TimeControl::Kind::Depth: l.depth = tc.depth; break;
    case TimeControl::Kind::Nodes: l.nodes = tc.nodes; break;
    }
    // USI sends byoyomi or increments, never both: the mover's control decides.
    if (l.byoyomi > 0)
        l.inc[core::BLACK] = l.inc[core::WHITE] = 0;
    return l;
}

bool GameClock::charge(core::Color c, int elapsed_ms, int margin_ms) {
    const TimeControl& tc = tc_[c];
    int allowed = allowed_ms(c);
    ++moves_made_[c];
    if (allowed < 0)
        return true;
    if (elapsed_ms > allowed + margin_ms) {
        remaining_[c] = 0;
        return false;
    }
    switch (tc.kind) {
    case TimeControl::Kind::PerMove: break;
    case TimeControl::Kind::Byoyomi: remaining_[c] = std::max(0, remaining_[c] - elapsed_ms); break;
    case TimeControl::Kind::Fischer: remaining_[c] = std::max(0, allowed - elapsed_ms); break;
    case TimeControl::Kind::MovesInTime:
        remaining_[c] = std::max(0, remaining_[c] - elapsed_ms);
        if (moves_made_[c] % tc.moves == 0)
            remaining_[c] += tc.main_ms;
        break;
    default: break;
    }
    return true;
}

}  // namespace hisha::match
