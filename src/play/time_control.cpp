// Time-control grammar and the game clocks.
#include "time_control.h"

#include <algorithm>
#include <cstdio>

#include "core/numbers.h"

namespace hisha::play {

using core::Color;
using core::unexpected;

namespace {

std::string mmss(int ms) {
    int s = ms / 1000;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%d:%02d", s / 60, s % 60);
    return buf;
}

}  // namespace

std::string TimeControl::describe() const {
    switch (kind) {
    case Kind::None: return "none";
    case Kind::PerMove: return mmss(per_move_ms) + " per move";
    case Kind::Fischer: return mmss(fischer_ms) + " plus " + std::to_string(increment_ms / 1000) + " s per move";
    case Kind::Tournament: break;
    }
    std::string out;
    for (std::size_t i = 0; i < periods.size(); ++i) {
        if (i)
            out += ", then ";
        out += std::to_string(periods[i].moves) + (periods[i].moves == 1 ? " move in " : " moves in ")
             + mmss(periods[i].ms);
    }
    if (game_in)
        out += " (game in " + mmss(periods.empty() ? 0 : periods[0].ms) + ")";
    return out;
}

core::Result<int, std::string> parse_duration(std::string_view text, bool minutes) {
    if (text.empty())
        return unexpected(std::string("empty time"));
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == ':') {
            parts.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    if (parts.size() > 3)
        return unexpected("'" + std::string(text) + "': too many ':'");
    long long total = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        std::optional<int> v = parts[i].empty() && i == 0 && parts.size() > 1 ? 0 : core::to_number<int>(parts[i]);
        if (!v)
            return unexpected("'" + std::string(text) + "' is not a time ([minutes:]seconds)");
        total = total * 60 + *v;
    }
    if (parts.size() == 1 && minutes)
        total *= 60;
    if (total > 100LL * 24 * 3600)
        return unexpected("'" + std::string(text) + "' is too long");
    return int(total * 1000);
}

core::Result<TimeControl, std::string> parse_time_args(const std::vector<std::string>& args) {
    TimeControl tc;
    if (args.empty())
        return tc;
    if (args.size() == 1) {
        auto ms = parse_duration(args[0], false);
        if (!ms)
            return unexpected(ms.error());
        if (*ms <= 0)
            return unexpected(std::string("the time per move must be positive"));
        tc.kind = TimeControl::Kind::PerMove;
        tc.per_move_ms = *ms;
        return tc;
    }
    if (args.size() % 2)
        return unexpected(std::string("time controls come in pairs: moves minutes[:seconds]"));
    if (args.size() > 8)
        return unexpected(std::string("at most four pairs of time controls"));
    tc.kind = TimeControl::Kind::Tournament;
    for (std::size_t i = 0; i < args.size(); i += 2) {
        auto moves = core::to_number<int>(args[i]);
        if (!moves || *moves == 0)
            return unexpected("'" + args[i] + "' is not a number of moves");
        auto ms = parse_duration(args[i + 1], true);
        if (!ms)
            return unexpected(ms.error());
        tc.periods.push_back({*moves, *ms});
    }
    return tc;
}

core::Result<TimeControl, std::string> parse_level(const std::vector<std::string>& args) {
    if (args.size() == 2 && !args[0].empty() && (args[0][0] == 'f' || args[0][0] == 'F')) {
        auto base = parse_duration(std::string_view(args[0]).substr(1), true);
        auto inc = parse_duration(args[1], false);
        if (!base || !inc)
            return unexpected(std::string("Fischer clock: level f<minutes> <increment seconds>"));
        TimeControl tc;
        tc.kind = TimeControl::Kind::Fischer;
        tc.fischer_ms = *base;
        tc.increment_ms = *inc;
        return tc;
    }
    if (args.size() == 2 && args[0] == "0") {
        auto ms = parse_duration(args[1], true);
        if (!ms)
            return unexpected(ms.error());
        TimeControl tc;
        tc.kind = TimeControl::Kind::PerMove;
        tc.per_move_ms = std::max(*ms, 1);
        return tc;
    }
    return parse_time_args(args);
}

// --- GameClocks

void GameClocks::reset(const TimeControl& tc) {
    tc_ = tc;
    running_ = false;
    for (Color c : {core::BLACK, core::WHITE}) {
        left_[c] = moves_left_[c] = 0;
        period_[c] = 0;
        if (tc.kind == TimeControl::Kind::Tournament && !tc.periods.empty()) {
            left_[c] = tc.periods[0].ms;
            moves_left_[c] = tc.game_in ? 0 : tc.periods[0].moves;
        } else if (tc.kind == TimeControl::Kind::Fischer) {
            left_[c] = tc.fischer_ms;
        }
    }
}

void GameClocks::enter_period(Color c, std::size_t index) {
    std::size_t i = std::min(index, tc_.periods.size() - 1);
    period_[c] = index;
    left_[c] += tc_.periods[i].ms;
    moves_left_[c] = tc_.periods[i].moves;
}

void GameClocks::start(Color side, Clock::time_point now) {
    side_ = side;
    since_ = now;
    running_ = true;
}

int GameClocks::stop(Clock::time_point now) {
    if (!running_)
        return 0;
    running_ = false;
    int used = int(std::chrono::duration_cast<std::chrono::milliseconds>(now - since_).count());
    if (!enabled())
        return used;
    left_[side_] -= used;
    if (tc_.kind == TimeControl::Kind::Fischer)
        left_[side_] += tc_.increment_ms;
    else if (!tc_.game_in && --moves_left_[side_] <= 0)
        enter_period(side_, period_[side_] + 1);
    return used;
}

void GameClocks::halt() { running_ = false; }

std::optional<Color> GameClocks::running_side() const { return running_ ? std::optional<Color>(side_) : std::nullopt; }

int GameClocks::remaining(Color c, Clock::time_point now) const {
    if (!enabled())
        return 0;
    int left = left_[c];
    if (running_ && c == side_)
        left -= int(std::chrono::duration_cast<std::chrono::milliseconds>(now - since_).count());
    return left;
}

void GameClocks::set_remaining(Color c, int ms, std::optional<int> moves) {
    left_[c] = ms;
    if (moves && *moves > 0)
        moves_left_[c] = *moves;
    if (running_ && c == side_)
        since_ = Clock::now();
}

void GameClocks::restore(Color c, int ms) {
    left_[c] = ms;
    if (tc_.kind == TimeControl::Kind::Tournament && !tc_.game_in)
        ++moves_left_[c];
}

engine::Limits GameClocks::limits(Color us) const {
    engine::Limits l;
    switch (tc_.kind) {
    case TimeControl::Kind::PerMove: l.movetime = tc_.per_move_ms; break;
    case TimeControl::Kind::Fischer: l.inc[core::BLACK] = l.inc[core::WHITE] = tc_.increment_ms; [[fallthrough]];
    case TimeControl::Kind::Tournament:
        for (Color c : {core::BLACK, core::WHITE})
            l.time[c] = std::max(1, remaining(c));
        l.moves_to_go = tc_.kind == TimeControl::Kind::Tournament ? moves_left_[us] : 0;
        break;
    case TimeControl::Kind::None: break;
    }
    return l;
}

std::string format_clock(int ms) {
    bool negative = ms < 0;
    long s = (negative ? -(long)ms : ms) / 1000;
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%s%ld:%02ld:%02ld", negative ? "-" : "", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%s%ld:%02ld", negative ? "-" : "", s / 60, s % 60);
    return buf;
}

}  // namespace hisha::play
