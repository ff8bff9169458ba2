// The search's signature: the node count of `hisha bench` (the fixed positions searched one by
// one to a fixed depth, one thread, 16 MB hash), the same on every run, build and machine.
// A change of the search (what it prunes, extends, orders or evaluates) changes it; a change of
// speed alone does not. engine_tests fails when the count differs: update these figures in the
// same commit as the search change, together with its SPRT result in bench/strength/RESULTS.md
// (bench/strength/sprt.sh). The bench searches with the default evaluation, NNUE with the
// built-in net (nnue/nets/hisha.nnue): a new net changes the counts as well.
#pragma once

#include <cstdint>

namespace hisha::engine {

/// `hisha bench` (depth 13: about ten seconds, long enough that its nodes per second measure the
/// search rather than the start of each one, or a shared machine's swings).
inline constexpr int BENCH_DEPTH = 13;
inline constexpr std::uint64_t BENCH_NODES = 2551169;
/// `hisha bench 6`: the shorter check of a run with HISHA_TEST_QUICK=1 (a slow build).
inline constexpr int BENCH_QUICK_DEPTH = 6;
inline constexpr std::uint64_t BENCH_QUICK_NODES = 40289;

}  // namespace hisha::engine
