// An independent check of a solver's answer: the line is replayed through the core's own
// rules (not the solver's move generators). Front ends and benchmarks use it to vouch for a
// mate they print; the tests keep a copy of their own.
#pragma once

#include <string>
#include <vector>

#include "core/move.h"
#include "core/position.h"
#include "types.h"

namespace hisha::tsume {

/// Why `pv` is not a correct mating line of exactly `plies` plies from `start` ("" when it
/// is): every attacking move is legal and checks, every defence is legal, and the final
/// position is checkmate (under Convention::Tsume: or the defender's only replies are futile
/// drop interpositions).
std::string line_error(const core::Position& start, const std::vector<core::Move>& pv, int plies,
                       Convention conv = Convention::Ordinary);

}  // namespace hisha::tsume
