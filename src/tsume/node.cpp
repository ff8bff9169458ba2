// Search node (see node.h). Child keys are computed from the Zobrist tables the same way
// Position::do_move does, so the solver can look children up without playing them.
#include "node.h"

#include "core/zobrist.h"
#include "hands.h"
#include "moves.h"
#include "types.h"

namespace hisha::tsume {

using namespace core;

namespace {
constexpr Key mix(Key x) noexcept {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}
}  // namespace

Node::Node(Position& pos) : pos_(pos), attacker_(pos.side_to_move()) {
    states_.resize(MAX_PLY + 8);
    moves_.reserve(MAX_PLY + 8);
    path_.reserve(MAX_PLY + 8);
    path_keys_.reserve(MAX_PLY + 8);
    path_.push_back({pos.board_key(), or_hand()});
    path_keys_.push_back(mix(pos.board_key() ^ or_hand().raw()));
    ++filter_[pos.board_key() >> 1 & (FILTER_SIZE - 1)];
}

Key Node::board_key_after(Move m) const noexcept {
    Key k = pos_.board_key() ^ zobrist::SIDE;
    Square to = m.to();
    Piece after = m.piece_after();
    if (m.is_drop())
        return k ^ zobrist::psq(after, to);
    Square from = m.from();
    k ^= zobrist::psq(pos_.piece_on(from), from) ^ zobrist::psq(after, to);
    if (Piece cap = pos_.piece_on(to))
        k ^= zobrist::psq(cap, to);
    return k;
}

Hand Node::or_hand_after(Move m) const noexcept { return tsume::or_hand_after(pos_, attacker_, m); }

Key Node::path_key_after(Move m) const noexcept { return path_key() ^ mix((Key(m.raw()) << 16) ^ Key(depth() + 1)); }

int Node::repetition_after(Key bk, Hand h) const noexcept {
    if (!filter_[bk >> 1 & (FILTER_SIZE - 1)])
        return -1;
    // Same side to move only: the board key holds it, so a key match is enough.
    for (int d = depth() - 1; d >= 0; d -= 2)
        if (path_[std::size_t(d)].board == bk && path_[std::size_t(d)].hand.dominates(h))
            return d;
    return -1;
}

void Node::do_move(Move m) {
    Key pk = path_key_after(m);
    make_position(pos_, m, states_[moves_.size()]);
    moves_.push_back(m);
    path_.push_back({pos_.board_key(), or_hand()});
    path_keys_.push_back(pk);
    ++filter_[pos_.board_key() >> 1 & (FILTER_SIZE - 1)];
}

void Node::undo_move() noexcept {
    --filter_[pos_.board_key() >> 1 & (FILTER_SIZE - 1)];
    pos_.undo_move(moves_.back());
    moves_.pop_back();
    path_.pop_back();
    path_keys_.pop_back();
}

}  // namespace hisha::tsume
