// Time allocation per clock type.
#include "timeman.h"

#include <algorithm>

namespace hisha::engine {

void TimeManager::init(const Limits& l, core::Color us, int ply, TimePoint start, int delay, int minimum,
                       int final_delay) {
    if (final_delay < 0)
        final_delay = delay;
    start_ = start;
    limited_ = l.use_time() && !l.infinite;
    if (!limited_) {
        optimum_ = maximum_ = 1 << 30;
        return;
    }
    // The transmission margin never takes more than a sixteenth of what this move may use, so
    // that very fast controls (0.1 s a move) still leave time to think: the search reads the
    // clock often enough (in qsearch too) to answer within a few ms of its limit.
    if (l.movetime) {
        delay = std::min(delay, l.movetime / 16);
        optimum_ = maximum_ = std::max(1, l.movetime - delay);
        fixed_ = true;
        return;
    }
    fixed_ = false;
    int left = std::max(0, l.time[us]);
    int inc = l.inc[us];
    int byo = l.byoyomi;
    delay = std::min(delay, (left / 10 + byo + inc) / 16);
    final_delay = std::min(final_delay, (left / 10 + byo + inc) / 16);
    // Moves still to play in this control: the given number, or an estimate that shrinks as
    // the game goes on (shogi games last about 120 plies; keep a reserve).
    int mtg = l.moves_to_go ? std::min(l.moves_to_go, 50) : std::clamp(50 - ply / 4, 20, 50);
    // Everything this move may still use without losing on time.
    int hard = left + byo + (inc ? inc : 0) - final_delay;
    int base = left / mtg + inc * 3 / 4;
    if (byo && left == 0 && !inc) {
        // Byoyomi only (or seconds a move): what is not used is lost, and the search cannot
        // save it for later, so think until the margin as a fixed move time does.
        optimum_ = maximum_ = std::max(1, byo - final_delay);
        fixed_ = true;
        return;
    }
    if (byo) {
        // Byoyomi time is lost if unused: think for most of it, plus a share of the main time.
        optimum_ = base + byo * 9 / 10 - delay;
        maximum_ = std::min(hard, left / 4 + byo - final_delay);
    } else {
        optimum_ = base;
        maximum_ = std::min(hard - final_delay, std::max(base, left / 5 + inc));
    }
    if (l.moves_to_go == 1)  // the last move of a control: use what is safely there
        optimum_ = std::max(optimum_, (left + inc) * 7 / 10 - delay);
    maximum_ = std::max(1, maximum_);
    optimum_ = std::clamp(optimum_, std::min(minimum, maximum_), maximum_);
}

}  // namespace hisha::engine
