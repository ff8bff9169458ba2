// Search values and depths. Scores are in centipawns from the side to move's view; mate
// scores count plies from the root (VALUE_MATE - ply), so they survive the TT by adjusting.
#pragma once

#include <cstdint>

namespace hisha::engine {

using Value = int;
using Depth = int;

constexpr int MAX_PLY = 246;
constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_DRAW = 0;
constexpr Value VALUE_MATE = 32000;
constexpr Value VALUE_INFINITE = 32001;
constexpr Value VALUE_NONE = 32002;
constexpr Value VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
constexpr Value VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;
// Evaluations are clamped below this so that they never look like mates.
constexpr Value VALUE_KNOWN_WIN = 20000;

constexpr Value mate_in(int ply) { return VALUE_MATE - ply; }
constexpr Value mated_in(int ply) { return -VALUE_MATE + ply; }
constexpr bool is_mate_score(Value v) { return v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY; }

// Mate scores are stored in the TT relative to the node, and read back relative to the root.
constexpr Value value_to_tt(Value v, int ply) {
    return v >= VALUE_MATE_IN_MAX_PLY ? v + ply : v <= VALUE_MATED_IN_MAX_PLY ? v - ply : v;
}
constexpr Value value_from_tt(Value v, int ply) {
    return v == VALUE_NONE             ? VALUE_NONE
         : v >= VALUE_MATE_IN_MAX_PLY  ? v - ply
         : v <= VALUE_MATED_IN_MAX_PLY ? v + ply
                                       : v;
}

}  // namespace hisha::engine
