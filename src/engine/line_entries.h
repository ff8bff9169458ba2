// What the incremental evaluations (the classic placement stack and the NNUE accumulators) share:
// one entry per ply of the search's current line, each valid only for the position it was computed
// for, and the search for the nearest computed ancestor to update from.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/position.h"

namespace hisha::engine {

// The position an entry was computed for (its state on the line and its key).
struct LineEntry {
    const core::StateInfo* st = nullptr;
    core::Key key = 0;
    bool computed = false;

    bool holds(const core::Position& pos) const { return computed && st == pos.state() && key == pos.key(); }
    bool holds(const core::StateInfo* s) const { return computed && st == s && key == s->key(); }
    void computed_for(const core::Position& pos) {
        st = pos.state();
        key = pos.key();
        computed = true;
    }
};

// How many plies back (1..max_steps) the nearest ancestor of `pos` (at `ply`) with a computed entry
// is, or 0 when there is none that close.
template <class Entry>
int nearest_computed(const std::vector<Entry>& entries, const core::Position& pos, int ply, int max_steps) {
    const core::StateInfo* s = pos.state();
    for (int k = 1; k <= std::min(ply, max_steps) && s->previous; ++k) {
        s = s->previous;
        if (entries[std::size_t(ply - k)].holds(s))
            return k;
    }
    return 0;
}

}  // namespace hisha::engine
