// Static exchange evaluation with x-rays through sliders.
#include "see.h"

#include "core/attacks.h"

namespace hisha::engine {

using namespace core;

namespace {
constexpr int VALUES[PIECE_TYPE_NB] = {0, 90, 315, 405, 495, 855, 990, 540, 15000, 540, 540, 540, 540, 945, 1395};
// Attackers are tried cheapest first.
constexpr PieceType ORDER[] = {PAWN,       LANCE, KNIGHT, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, SILVER,
                               PRO_SILVER, GOLD,  BISHOP, ROOK,     HORSE,     DRAGON,     KING};

// Attackers of s of both sides: Position::attackers_to(BLACK) | attackers_to(WHITE), with the
// sliders' lines searched once instead of once a side.
Bitboard all_attackers(const Position& pos, Square s, const Bitboard& occ) {
    Bitboard hdk = pos.pieces(HORSE) | pos.pieces(DRAGON) | pos.pieces(KING);
    Bitboard golds = pos.pieces(GOLD) | pos.pieces(PRO_PAWN) | pos.pieces(PRO_LANCE) | pos.pieces(PRO_KNIGHT)
                   | pos.pieces(PRO_SILVER) | hdk;
    Bitboard b = (bishop_attacks(s, occ) & (pos.pieces(BISHOP) | pos.pieces(HORSE)))
               | (rook_attacks(s, occ) & (pos.pieces(ROOK) | pos.pieces(DRAGON)));
    for (Color c : {BLACK, WHITE}) {
        Color t = ~c;  // c's pieces attack s from where t's would be attacked from s
        b |= ((PAWN_ATTACKS[t][s] & pos.pieces(PAWN)) | (KNIGHT_ATTACKS[t][s] & pos.pieces(KNIGHT))
              | (SILVER_ATTACKS[t][s] & (pos.pieces(SILVER) | hdk)) | (GOLD_ATTACKS[t][s] & golds)
              | (lance_attacks(t, s, occ) & pos.pieces(LANCE)))
           & pos.pieces(c);
    }
    return b;
}
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
    Bitboard attackers = all_attackers(pos, to, occ);
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
        Square gone = b.lsb();
        occ ^= gone;
        // Sliders behind the piece that just took now see the square: only along the line from
        // `to` through where it stood (a knight stands on none). The other lines are unchanged,
        // so searching them again would add no attacker.
        Direction d = DIRECTION[to][gone];
        if (d == DIR_N || d == DIR_S)
            attackers |= (rook_attacks(to, occ) & rooks) | (lance_attacks(WHITE, to, occ) & lance[BLACK])
                       | (lance_attacks(BLACK, to, occ) & lance[WHITE]);
        else if (d == DIR_E || d == DIR_W)
            attackers |= rook_attacks(to, occ) & rooks;
        else if (d != DIR_NONE)
            attackers |= bishop_attacks(to, occ) & bishops;
    }
    return res;
}

}  // namespace hisha::engine
