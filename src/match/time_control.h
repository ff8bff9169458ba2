// Time controls of a match and the referee's clock. The referee, not the engines, keeps the
// time: it charges each move with the time between sending `go` and reading the answer, and
// a side whose clock runs out (past a margin for process and pipe latency) loses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"
#include "core/types.h"
#include "engine/timeman.h"

namespace hisha::match {

/// One side's time control, parsed from the command line:
///   st=1.5       1.5 s a move (unused time is not carried over)
///   600b10       600 s, then a byoyomi of 10 s a move
///   300i5        Fischer: 300 s, plus 5 s after every move
///   40/300       40 moves in 300 s, then the next 40 in another 300 s ...
///   depth=6      fixed depth, no clock
///   nodes=100000 fixed node count, no clock
/// Seconds may be fractional everywhere ("0.5b0.1").
struct TimeControl {
    enum class Kind { PerMove, Byoyomi, Fischer, MovesInTime, Depth, Nodes };
    Kind kind = Kind::PerMove;
    int main_ms = 0;       // Byoyomi, Fischer, MovesInTime: the main time
    int byoyomi_ms = 0;    // PerMove: the time a move; Byoyomi: the byoyomi
    int increment_ms = 0;  // Fischer
    int moves = 0;         // MovesInTime: moves per period
    int depth = 0;
    std::uint64_t nodes = 0;

    bool timed() const { return kind != Kind::Depth && kind != Kind::Nodes; }
    /// The canonical text ("st=0.2", "600b10", ...), which parse() reads back.
    std::string to_string() const;
};

core::Result<TimeControl, std::string> parse_time_control(std::string_view text);

/// The referee's clock for one game: both sides' remaining time under their own controls.
class GameClock {
public:
    GameClock(const TimeControl& black, const TimeControl& white);

    /// How long side c may think on this move before its flag falls, without the margin;
    /// -1 when its control has no clock (depth, nodes).
    int allowed_ms(core::Color c) const;
    /// The search limits to send with `go` when c is to move (btime/wtime, byoyomi, binc/winc,
    /// movestogo, depth, nodes), from the clocks as they stand.
    engine::Limits limits(core::Color c) const;
    /// Charges c for a move that took `elapsed_ms`. False when the flag fell (the move came
    /// more than `margin_ms` after allowed_ms()); the clock is then left at zero.
    bool charge(core::Color c, int elapsed_ms, int margin_ms);
    /// Main time left (for byoyomi controls the byoyomi is not included).
    int remaining_ms(core::Color c) const { return remaining_[c]; }
    const TimeControl& control(core::Color c) const { return tc_[c]; }

private:
    TimeControl tc_[core::COLOR_NB];
    int remaining_[core::COLOR_NB];
    int moves_made_[core::COLOR_NB] = {0, 0};
};

}  // namespace hisha::match
