// GNU Shogi's time controls and the two game clocks of the interactive program. The command
// line and the `level` command share one grammar: one argument is a search time per move
// ([minutes:]seconds), pairs are "moves minutes[:seconds]" tournament periods (up to four; the
// last one repeats), `f<minutes> <increment>` is a Fischer clock; `gamein` turns the first
// period into the time for the whole game.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/types.h"
#include "engine/timeman.h"

namespace hisha::play {

/// One tournament period: `moves` moves in `ms` milliseconds.
struct Period {
    int moves = 0;
    int ms = 0;
};

struct TimeControl {
    enum class Kind { None, PerMove, Tournament, Fischer };
    Kind kind = Kind::None;
    int per_move_ms = 0;          // PerMove
    std::vector<Period> periods;  // Tournament: the last period repeats
    int increment_ms = 0;         // Fischer: added after every move
    int fischer_ms = 0;           // Fischer: the initial time
    bool game_in = false;         // `gamein`: the first period's time is for the whole game

    /// "30 moves in 5:00, then 1 move in 0:30", "0:30 per move", "none".
    std::string describe() const;
};

/// "30" (seconds), "5:00", ":30", "1:30:00"; `minutes` says what a bare number counts.
core::Result<int, std::string> parse_duration(std::string_view text, bool minutes);
/// The command line's time arguments (no argument: Kind::None, the caller asks for a level).
core::Result<TimeControl, std::string> parse_time_args(const std::vector<std::string>& args);
/// The `level` command: "40 5", "0 0:30" (per move), "f5 10" (Fischer: minutes, increment s),
/// or any command-line form.
core::Result<TimeControl, std::string> parse_level(const std::vector<std::string>& args);

/// Both sides' clocks under a time control. Times in milliseconds; the side to move's clock
/// runs between start() and stop().
class GameClocks {
public:
    using Clock = std::chrono::steady_clock;

    void reset(const TimeControl& tc);
    const TimeControl& control() const { return tc_; }
    bool enabled() const { return tc_.kind == TimeControl::Kind::Tournament || tc_.kind == TimeControl::Kind::Fischer; }

    // --- running
    void start(core::Color side, Clock::time_point now = Clock::now());
    /// Stops the running clock, charges the time, counts the move (a new period adds its time
    /// and moves); returns the milliseconds used.
    int stop(Clock::time_point now = Clock::now());
    /// Stops without counting a move (undo, new game).
    void halt();
    bool running() const { return running_; }
    std::optional<core::Color> running_side() const;

    // --- reading and setting
    int remaining(core::Color c, Clock::time_point now = Clock::now()) const;
    int moves_left(core::Color c) const { return moves_left_[c]; }
    /// `time`/`otime`: sets a clock (and, when given, the moves left in the period).
    void set_remaining(core::Color c, int ms, std::optional<int> moves = std::nullopt);
    /// Takes back the time of an undone move: the clock returns to `ms`, one move more to go.
    void restore(core::Color c, int ms);
    bool flag_fell(core::Color c) const { return enabled() && remaining(c) <= 0; }

    /// Search limits for `us`: per-move time, or both clocks with moves to go.
    engine::Limits limits(core::Color us) const;

private:
    void enter_period(core::Color c, std::size_t index);

    TimeControl tc_;
    int left_[core::COLOR_NB] = {0, 0};
    int moves_left_[core::COLOR_NB] = {0, 0};
    std::size_t period_[core::COLOR_NB] = {0, 0};
    core::Color side_ = core::BLACK;
    bool running_ = false;
    Clock::time_point since_{};
};

/// "5:00", "0:07", "-0:03", "1:02:03" for a clock display.
std::string format_clock(int ms);

}  // namespace hisha::play
