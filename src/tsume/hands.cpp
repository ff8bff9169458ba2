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

namespace {
// All the bits of each field where a holds at least as many pieces as b, in a few operations
// over the whole word: with every guard bit of a set, a - b keeps a field's guard bit exactly
// when no borrow reaches it; the field below each kept guard bit is then filled by one
// subtraction (guard minus the field's lowest bit, the fields being 5, 3 or 2 bits wide).
constexpr std::uint32_t at_least_mask(std::uint32_t a, std::uint32_t b) noexcept {
    constexpr std::uint32_t G = Hand::BORROW_MASK;
    constexpr std::uint32_t G5 = 1u << 5, G3 = (1u << 9) | (1u << 13) | (1u << 17) | (1u << 21),
                            G2 = (1u << 24) | (1u << 27);
    static_assert((G5 | G3 | G2) == G);
    std::uint32_t g = ((a | G) - b) & G;
    return g - (((g & G5) >> 5) | ((g & G3) >> 3) | ((g & G2) >> 2));
}
}  // namespace

Hand hand_max(Hand a, Hand b) noexcept {
    std::uint32_t m = at_least_mask(a.raw(), b.raw());
    return Hand((a.raw() & m) | (b.raw() & ~m));
}

Hand hand_min(Hand a, Hand b) noexcept {
    std::uint32_t m = at_least_mask(a.raw(), b.raw());
    return Hand((b.raw() & m) | (a.raw() & ~m));
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
