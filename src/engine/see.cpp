// Static exchange evaluation with x-rays through sliders.
#include "see.h"

namespace hisha::engine {

using namespace core;

namespace {
constexpr int VALUES[PIECE_TYPE_NB] = {0, 90, 315, 405, 495, 855, 990, 540, 15000, 540, 540, 540, 540, 945, 1395};
// Attackers are tried cheapest first.
constexpr PieceType ORDER[] = {PAWN,       LANCE, KNIGHT, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, SILVER,
                               PRO_SILVER, GOLD,  BISHOP, ROOK,     HORSE,     DRAGON,     KING};
}  // namespace

int see_value(PieceType pt) { return VALUES[pt]; }

bool see_ge(const Position& pos, Move m, int threshold) {
    Square to = m.to();
    Color us = pos.side_to_move();
    int swap;
    Bitboard occ = pos.pieces();
    if (m.is_drop()) {
        swap = -threshold;
        if (swap < 0)
            return false;
        occ |= to;
    } else {
        Square from = m.from();
        int gain = VALUES[type_of(pos.piece_on(to))];
        if (m.is_promotion())
            gain += VALUES[type_of(m.piece_after())] - VALUES[m.moved_type()];
        swap = gain - threshold;
        if (swap < 0)
            return false;
        occ = (occ ^ from) | to;
    }
    // The piece now standing on `to` may be lost.
    swap = VALUES[type_of(m.piece_after())] - swap;
    if (swap <= 0)
        return true;

    Color stm = us;
    Bitboard attackers = pos.attackers_to(BLACK, to, occ) | pos.attackers_to(WHITE, to, occ);
    Bitboard lance[COLOR_NB] = {pos.pieces(BLACK, LANCE), pos.pieces(WHITE, LANCE)};
    Bitboard bishops = pos.pieces(BISHOP) | pos.pieces(HORSE);
    Bitboard rooks = pos.pieces(ROOK) | pos.pieces(DRAGON);
    int res = 1;
    while (true) {
        stm = ~stm;
        attackers &= occ;
        Bitboard mine = attackers & pos.pieces(stm);
        if (mine.empty())
            break;
        res ^= 1;
        PieceType pt = NO_PIECE_TYPE;
        Bitboard b;
        for (PieceType t : ORDER)
            if ((b = mine & pos.pieces(t)).any()) {
                pt = t;
                break;
            }
        if (pt == KING)  // the king may only take when nothing defends
            return (attackers & pos.pieces(~stm)).any() ? res ^ 1 : res;
        swap = VALUES[pt] - swap;
        if (swap < res)
            break;
        occ ^= b.lsb();
        // Sliders behind the piece that just took now see the square.
        attackers |= (bishop_attacks(to, occ) & bishops) | (rook_attacks(to, occ) & rooks)
                   | (lance_attacks(WHITE, to, occ) & lance[BLACK]) | (lance_attacks(BLACK, to, occ) & lance[WHITE]);
    }
    return res;
}

}  // namespace hisha::engine
