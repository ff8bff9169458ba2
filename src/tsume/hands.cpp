// Proof and disproof hands (see hands.h). The rules follow the usual df-pn practice for
// shogi (Nagai's thesis; KomoringHeights): a proof hand is the union of the children's, plus
// the pieces the defender could otherwise interpose; a disproof hand is their intersection,
// minus the pieces that would give new drop checks.
#include "hands.h"

#include <algorithm>

#include "core/attacks.h"

namespace hisha::tsume {

using core::Hand;
using core::PieceType;

namespace {
constexpr PieceType HAND_TYPES[7] = {core::PAWN, core::LANCE,  core::KNIGHT, core::SILVER,
                                     core::GOLD, core::BISHOP, core::ROOK};

// The squares next to the king from which a piece of type pt dropped by `attacker` checks
// (for sliders, the adjacent squares: a far drop checks only if the adjacent one is empty).
core::Bitboard step_check_squares(PieceType pt, core::Color attacker, core::Square ksq) noexcept {
    using namespace core;
    Color them = ~attacker;
    switch (pt) {
    case PAWN:
    case LANCE: return PAWN_ATTACKS[them][ksq];
    case KNIGHT: return KNIGHT_ATTACKS[them][ksq];
    case SILVER: return SILVER_ATTACKS[them][ksq];
    case GOLD: return GOLD_ATTACKS[them][ksq];
    case BISHOP: return KING_ATTACKS[ksq].andnot(GOLD_ATTACKS[them][ksq] & GOLD_ATTACKS[attacker][ksq]);
    case ROOK: return GOLD_ATTACKS[them][ksq] & GOLD_ATTACKS[attacker][ksq];
    default: return {};
    }
}
}  // namespace

Hand hand_max(Hand a, Hand b) noexcept {
    Hand r;
    for (PieceType pt : HAND_TYPES)
        r.set(pt, std::max(a.count(pt), b.count(pt)));
    return r;
}

Hand hand_min(Hand a, Hand b) noexcept {
    Hand r;
    for (PieceType pt : HAND_TYPES)
        r.set(pt, std::min(a.count(pt), b.count(pt)));
    return r;
}

Hand full_hand() noexcept {
    Hand r;
    for (PieceType pt : HAND_TYPES)
        r.set(pt, Hand::MAX[pt]);
    return r;
}

Hand or_hand_after(const core::Position& pos, core::Color attacker, core::Move m) noexcept {
    Hand h = pos.hand(attacker);
    if (pos.side_to_move() != attacker)
        return h;
    if (m.is_drop()) {
        h.remove(m.dropped_piece());
    } else if (core::Piece cap = pos.piece_on(m.to())) {
        PieceType pt = core::unpromote(core::type_of(cap));
        if (h.count(pt) < Hand::MAX[pt])
            h.add(pt);
    }
    return h;
}

Hand hand_before(const core::Position& pos, core::Move m, Hand after) noexcept {
    if (m.is_drop()) {
        PieceType pt = m.dropped_piece();
        if (after.count(pt) < Hand::MAX[pt])
            after.add(pt);
    } else if (core::Piece cap = pos.piece_on(m.to())) {
        PieceType pt = core::unpromote(core::type_of(cap));
        if (after.has(pt))
            after.remove(pt);
    }
    return after;
}

Hand add_blocking_pieces(const core::Position& pos, Hand proof) noexcept {
    using namespace core;
    Color us = pos.side_to_move(), them = ~us;
    Square ksq = pos.king_square(us);
    Bitboard checkers = pos.checkers();
    if (ksq == SQ_NONE || checkers.empty() || checkers.more_than_one())
        return proof;
    Bitboard between = between_bb(checkers.lsb(), ksq);
    if (between.empty())
        return proof;
    Hand ours = pos.hand(us), theirs = pos.hand(them);
    for (PieceType pt : HAND_TYPES) {
        if (ours.has(pt))
            continue;
        if (pt == PAWN) {
            // A pawn could not be dropped where every blocking square has our pawn on its file.
            Bitboard files = us == BLACK ? core::pawn_files<BLACK>(pos.pieces(us, PAWN))
                                         : core::pawn_files<WHITE>(pos.pieces(us, PAWN));
            if (between.andnot(files).empty())
                continue;
        }
        proof.set(pt, theirs.count(pt));
    }
    return proof;
}

Hand remove_checking_pieces(const core::Position& pos, Hand disproof) noexcept {
    using namespace core;
    Color us = pos.side_to_move();
    Square ksq = pos.king_square(~us);
    if (ksq == SQ_NONE)
        return disproof;
    Hand ours = pos.hand(us);
    Bitboard empty = ~pos.pieces();
    for (PieceType pt : HAND_TYPES) {
        if (ours.has(pt))
            continue;
        if (pt == PAWN && (pos.pieces(us, PAWN) & FILE_BB[file_of(ksq)]).any())
            continue;
        if ((step_check_squares(pt, us, ksq) & empty).any())
            disproof.set(pt, 0);
    }
    return disproof;
}

Hand keep_defender_drop(const core::Position& pos, PieceType pt, Hand disproof) noexcept {
    int total = pos.hand(core::BLACK).count(pt) + pos.hand(core::WHITE).count(pt);
    if (total - disproof.count(pt) <= 0)
        disproof.set(pt, std::max(0, total - 1));
    return disproof;
}

}  // namespace hisha::tsume
