// Search limits and time management: how long to think for each kind of clock (sudden death,
// byoyomi, Fischer, moves in time, fixed time per move), with a network-delay margin so that
// the engine never loses on time.
#pragma once

#include <chrono>
#include <cstdint>

#include "core/types.h"

namespace hisha::engine {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;

struct Limits {
    int time[core::COLOR_NB] = {0, 0};  // remaining main time (ms)
    int inc[core::COLOR_NB] = {0, 0};   // Fischer increment (ms)
    int byoyomi = 0;                    // per-move byoyomi (ms)
    int moves_to_go = 0;                // moves until the next time control (0: sudden death)
    int movetime = 0;                   // fixed time for this move (ms)
    int depth = 0;
    std::uint64_t nodes = 0;
    bool infinite = false;
    bool ponder = false;
    bool use_time() const { return time[0] || time[1] || byoyomi || inc[0] || inc[1] || movetime; }
};

class TimeManager {
public:
    /// Plans the time for the side to move `us` at game ply `ply`. `delay` (ms) is kept in
    /// reserve for transmission; `minimum` (ms) is the least time worth thinking;
    /// `final_delay` (USI NetworkDelay2; -1: the same as `delay`) is kept instead when the move
    /// may think to the very end of what it has (the maximum, and the whole of a byoyomi).
    void init(const Limits& l, core::Color us, int ply, TimePoint start, int delay, int minimum, int final_delay = -1);
    int optimum() const { return optimum_; }  // stop after an iteration past this
    int maximum() const { return maximum_; }  // never think longer than this
    int elapsed() const {
        return int(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_).count());
    }
    /// Restarts the clock (a ponder hit starts the real thinking time).
    void restart(TimePoint t) { start_ = t; }
    bool limited() const { return limited_; }
    /// A fixed time per move: all of it may be used (unused time is lost).
    bool fixed() const { return fixed_; }

private:
    TimePoint start_{};
    int optimum_ = 0, maximum_ = 0;
    bool limited_ = false;
    bool fixed_ = false;
};

}  // namespace hisha::engine
