// Evaluation parameters fitted by `hisha tune` (Texel tuning on self-play positions); written
// by `hisha tune --emit-header`. Applied on top of the hand-set defaults when the parameter
// layout still has TUNED_SIZE entries. Empty until the first tuning run.
#pragma once

#include <utility>

namespace hisha::engine {
inline constexpr int TUNED_SIZE = 0;
inline constexpr std::pair<int, int> TUNED_PARAMS[] = {{0, 0}};
}  // namespace hisha::engine
