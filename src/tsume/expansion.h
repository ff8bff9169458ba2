// One expanded node: its moves, what is known of each child, and the node's own proof and
// disproof numbers computed from them. Children that are nearly the same (drops of different
// pieces on one square, a non-promotion after its promotion) form a chain: the next one is
// looked at only once the previous one is settled in the child's favour, so that the sum of
// the numbers does not count the same difficulty several times.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/move.h"
#include "node.h"
#include "tt.h"
#include "types.h"

namespace hisha::tsume {

class Expansion {
public:
    /// Generates the moves at n and reads what the TT knows of each child for "mate within
    /// len" (LEN_INF: at any length). When `first_search`, the attacker's children of a
    /// defender's node get the one-ply mate test.
    void init(Node& n, int len, bool first_search, TranspositionTable& tt, Convention conv);

    /// The node's result from its children's.
    NodeResult current(const Node& n) const;
    core::Move best_move() const noexcept { return moves_[std::size_t(idx_[0])]; }
    bool best_first_visit() const noexcept { return results_[std::size_t(idx_[0])].first_visit; }
    bool has_old_child() const noexcept { return old_child_; }
    /// Thresholds for the best child given the node's (the 1 + epsilon rule on phi).
    std::pair<PnDn, PnDn> child_thresholds(PnDn thpn, PnDn thdn) const noexcept;
    /// Records the best child's new result (also in the TT) and re-sorts the children.
    void update_best(Node& n, const NodeResult& r, TranspositionTable& tt);

private:
    bool better(int a, int b) const noexcept;
    void resort() noexcept;
    void build_chains(const core::Position& pos);
    bool delayed(std::size_t i) const noexcept;
    /// What is known of child i (TT, repetition, and, with `leaf_tests`, the leaf tests of the
    /// attacker's nodes).
    NodeResult child_result(Node& n, std::size_t i, TranspositionTable& tt, bool leaf_tests);
    NodeResult proven_or(const Node& n) const;
    NodeResult disproven_or(const Node& n) const;
    NodeResult proven_and(const Node& n) const;
    NodeResult disproven_and(const Node& n) const;

    bool or_node_ = true;
    int len_ = LEN_INF;
    bool old_child_ = false;
    bool too_short_ = false;  // an attacker's node with no ply left
    bool first_search_ = false;
    Convention conv_ = Convention::Ordinary;
    std::vector<core::Move> moves_;
    std::vector<core::Key> keys_;  // the children's board keys
    std::vector<NodeResult> results_;
    std::vector<int> prev_, next_;   // chains of delayed moves (-1: none)
    std::vector<std::uint8_t> sum_;  // 1: delta counts in the sum, 0: in the max
    std::vector<std::uint8_t> in_play_;
    std::vector<std::uint8_t> untested_;  // delayed children whose leaf tests wait for their turn
    std::vector<int> idx_;                // the children in play, best first
    int delayed_count_ = 0;
    // Cached over idx_ by resort(): deltas of all children but the best.
    PnDn sum_except_best_ = 0;
    PnDn max_except_best_ = 0;
};

}  // namespace hisha::tsume
