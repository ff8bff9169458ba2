// The placement part of the Classic evaluation (ClassicEvaluator::placement), kept incrementally
// by one search thread, one entry per ply of the search, the way the network's accumulators are
// (nnue/accumulator.h): evaluate(pos, ply) finds the nearest ply back along the position's chain
// of states whose entry is known and whose kings stood where they stand now, adds the changes
// of the moves since then, and adds the part that is computed afresh (dynamic_score). With no
// such ancestor within MAX_STEPS plies, the placement is computed in full. The value is the
// evaluator's evaluate(pos), exactly.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "evaluate.h"
#include "line_entries.h"

namespace hisha::engine {

class ClassicStack {
public:
    static constexpr int MAX_STEPS = 8;

    ClassicStack(std::shared_ptr<const ClassicEvaluator> eval, int plies);
    const std::shared_ptr<const ClassicEvaluator>& evaluator() const { return eval_; }
    /// Forgets every entry (a new search).
    void clear();
    /// The value of `pos` for the side to move; `ply` is its distance from the search's root.
    Value evaluate(const core::Position& pos, int ply);

    // Counts for tests: placements computed in full, and updated from an ancestor.
    std::uint64_t refreshes = 0, updates = 0;

private:
    struct Entry : LineEntry {
        core::Square ksq[core::COLOR_NB] = {core::SQ_NONE, core::SQ_NONE};
        int placement = 0;
    };
    std::shared_ptr<const ClassicEvaluator> eval_;
    std::vector<Entry> entries_;
};

}  // namespace hisha::engine
