// The mating line: read from the TT after the search, with further searches where the TT no
// longer knows (entries may have been replaced) and to learn each defence's exact length.
#pragma once

#include <vector>

#include "core/move.h"
#include "dfpn.h"
#include "node.h"

namespace hisha::tsume {

/// Fills `pv` with a line from the node of `n` (the attacker to move) that mates within len
/// plies. When `exact` (the node mates in exactly len), every defence taken is one of the
/// longest (see solver.h for the order among equals). False when the search had to stop
/// first or the TT and the searches disagreed; `n` is restored either way.
bool extract_pv(Searcher& s, Node& n, int len, bool exact, std::vector<core::Move>& pv);

}  // namespace hisha::tsume
