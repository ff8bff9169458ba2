// The accumulators of one search thread, one per ply of the search. evaluate(pos, ply) finds
// the nearest ply back along the position's chain of states whose accumulator is known (the
// parent's, usually), applies the features that the moves since then changed, and runs the
// layers. A perspective whose king changed frame (bucket or mirror) is computed afresh, as is
// everything when no known ancestor is at most FeatureDelta::MAX_STEPS plies back. Entries are
// tagged with the state and key of their position, so an entry of another line is never used.
// The work happens only when the search evaluates with NNUE; Classic never touches it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/line_entries.h"
#include "network.h"

namespace hisha::engine::nnue {

class AccumulatorStack {
public:
    AccumulatorStack(std::shared_ptr<const Network> net, int plies);
    const std::shared_ptr<const Network>& network() const { return net_; }
    /// Forgets every entry (a new search).
    void clear();
    /// The value of `pos` for the side to move (clamped like every evaluation); `ply` is its
    /// distance from the search's root (0 at the root).
    Value evaluate(const core::Position& pos, int ply, Simd simd);
    Value evaluate(const core::Position& pos, int ply) { return evaluate(pos, ply, simd_); }
    /// The accumulator of `persp` computed for `ply` (after evaluate), for tests.
    const std::int16_t* accumulator(int ply, core::Color persp) const;
    /// The linear (psqt) sum of `persp` computed for `ply` (after evaluate), for tests.
    int linear(int ply, core::Color persp) const { return psqt_[std::size_t(ply) * 2 + persp]; }

    // Counts for tests and tuning: perspectives refreshed and updated incrementally.
    std::uint64_t refreshes = 0, updates = 0;

private:
    struct Entry : LineEntry {
        Frame frame[core::COLOR_NB];
    };
    std::int16_t* acc(int ply, core::Color c) { return &acc_[(std::size_t(ply) * 2 + c) * std::size_t(net_->l1)]; }
    int& psqt(int ply, core::Color c) { return psqt_[std::size_t(ply) * 2 + c]; }
    void compute(const core::Position& pos, int ply, Simd simd);

    std::shared_ptr<const Network> net_;
    std::vector<Entry> entries_;
    std::vector<std::int16_t> acc_;  // [ply][color][l1]
    std::vector<int> psqt_;          // [ply][color]: the network's linear term
    Simd simd_;
};

}  // namespace hisha::engine::nnue
