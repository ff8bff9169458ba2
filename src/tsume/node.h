// A search node: the position being searched plus what the solver tracks along the path from
// the root: the depth, a path key (for disproofs that hold on one path only) and the positions
// of the path, to spot a repetition or a return to a position where the attacker was better off.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/hand.h"
#include "core/move.h"
#include "core/position.h"

namespace hisha::tsume {

/// The root's side to move is the attacker (OR nodes); the other side defends (AND nodes).
class Node {
public:
    explicit Node(core::Position& pos);
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;

    // --- state
    core::Position& pos() noexcept { return pos_; }
    const core::Position& pos() const noexcept { return pos_; }
    bool or_node() const noexcept { return pos_.side_to_move() == attacker_; }
    core::Color attacker() const noexcept { return attacker_; }
    int depth() const noexcept { return int(moves_.size()); }
    core::Key board_key() const noexcept { return pos_.board_key(); }
    core::Hand or_hand() const noexcept { return pos_.hand(attacker_); }
    core::Key path_key() const noexcept { return path_keys_.back(); }
    const std::vector<core::Move>& moves() const noexcept { return moves_; }

    // --- the child after move m (without playing it)
    core::Key board_key_after(core::Move m) const noexcept;
    core::Hand or_hand_after(core::Move m) const noexcept;
    core::Key path_key_after(core::Move m) const noexcept;
    /// The depth of the nearest ancestor with the board reached by m and an attacker hand at
    /// least as good (the same position, or a worse one for the attacker), or -1.
    int repetition_after(core::Move m) const noexcept { return repetition_after(board_key_after(m), or_hand_after(m)); }
    /// The same, given the child's board key and attacker's hand.
    int repetition_after(core::Key board, core::Hand hand) const noexcept;

    // --- moving
    void do_move(core::Move m);
    void undo_move() noexcept;

private:
    struct PathEntry {
        core::Key board;
        core::Hand hand;
    };
    static constexpr std::size_t FILTER_SIZE = 4096;

    core::Position& pos_;
    core::Color attacker_;
    std::vector<core::StateInfo> states_;  // one per ply, allocated once (pointers stay valid)
    std::vector<core::Move> moves_;
    std::vector<PathEntry> path_;  // path_[d]: the position at depth d
    std::vector<core::Key> path_keys_;
    std::array<std::uint16_t, FILTER_SIZE> filter_{};  // counts of path boards by low key bits
};

}  // namespace hisha::tsume
