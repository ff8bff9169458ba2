// The df-pn search proper: depth-first proof-number search with thresholds, over the
// expansions of the nodes on the current path, with the TT as its memory. One Searcher
// answers "is the node mated within len plies?" for any node and length, reusing the TT
// between calls; the solver asks it repeatedly with shorter lengths.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "expansion.h"
#include "node.h"
#include "tt.h"
#include "types.h"

namespace hisha::tsume {

/// When to stop: a node budget, a deadline and an external flag (all optional).
struct StopCondition {
    std::uint64_t max_nodes = 0;  // 0: no limit
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    double cpu_deadline_s = 0;  // not 0: the thread's CPU time (thread_cpu_seconds()) at which to stop
    const std::atomic<bool>* stop = nullptr;
};

/// CPU time used so far by the calling thread, in seconds.
double thread_cpu_seconds() noexcept;

class Searcher {
public:
    Searcher(TranspositionTable& tt, Convention conv, const StopCondition& stop);

    /// Searches the node at the top of `n` for a mate within len plies (LEN_INF: any length)
    /// until it is proven, disproven, the search must stop or, when `budget` is not 0, this
    /// call has searched `budget` nodes (exhausted()). The result is also stored, so a later
    /// call resumes where this one ended.
    NodeResult search_root(Node& n, int len, std::uint64_t budget = 0);
    /// What the TT knows of the node for "mate within len", without searching.
    NodeResult peek(Node& n, int len);

    /// A limit of the StopCondition was reached (the solve must end).
    bool stopped() const noexcept { return stopped_; }
    /// The last search_root() used up its budget.
    bool exhausted() const noexcept { return exhausted_; }
    std::uint64_t nodes() const noexcept { return nodes_; }
    int max_depth() const noexcept { return max_depth_; }
    Convention convention() const noexcept { return conv_; }

private:
    NodeResult search(Node& n, PnDn thpn, PnDn thdn, int len, bool inc_flag);
    bool should_stop() noexcept;

    TranspositionTable& tt_;
    Convention conv_;
    StopCondition stop_;
    std::vector<Expansion> stack_;  // the expansion of the node at each depth
    std::uint64_t nodes_ = 0;
    std::uint64_t next_check_ = 0;
    std::uint64_t budget_end_ = 0;  // 0: the call has no budget
    int max_depth_ = 0;
    bool stopped_ = false;
    bool exhausted_ = false;
};

}  // namespace hisha::tsume
