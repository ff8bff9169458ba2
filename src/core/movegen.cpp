// Move generation: board moves by piece kind with the promotion rules, drops by band of
// ranks, evasions, and the legal filter. Templates on the side to move keep the colour
// arithmetic at compile time.
#include "movegen.h"

namespace hisha::core {

namespace {

// Which promotion choices a stage wants for the moves it is given.
enum PromoMode { BOTH, PROMO_ONLY, NONPROMO_ONLY };

inline ScoredMove* add(ScoredMove* list, Move m) {
    list->move = m;
    return list + 1;
}

// Emits moves of the piece pc (of color Us) from `from` to every square of `to_bb`.
template <Color Us, PromoMode Mode, bool All>
ScoredMove* emit(ScoredMove* list, Piece pc, Square from, Bitboard to_bb) {
    constexpr Bitboard ZONE = ZONE_BB[Us];
    PieceType pt = type_of(pc);
    Piece pro = promote(pc);
    switch (pt) {
    case LANCE:
    case KNIGHT:
        to_bb.for_each([&](Square to) {
            Rank rr = relative_rank(Us, rank_of(to));
            if (rr <= RANK_3) {
                if constexpr (Mode != NONPROMO_ONLY)
                    list = add(list, Move::make_promote(from, to, pro));
                if constexpr (Mode != PROMO_ONLY) {
                    bool keep = pt == LANCE ? (rr == RANK_3 || (All && rr == RANK_2)) : rr == RANK_3;
                    if (keep)
                        list = add(list, Move::make(from, to, pc));
                }
            } else if constexpr (Mode != PROMO_ONLY)
                list = add(list, Move::make(from, to, pc));
        });
        break;
    case SILVER:
    case BISHOP:
    case ROOK: {
        Bitboard promo = ZONE.test(from) ? to_bb : to_bb & ZONE;
        if constexpr (Mode != NONPROMO_ONLY)
            promo.for_each([&](Square to) { list = add(list, Move::make_promote(from, to, pro)); });
        if constexpr (Mode != PROMO_ONLY) {
            Bitboard plain = (pt == SILVER || All) ? to_bb : to_bb.andnot(promo);
            plain.for_each([&](Square to) { list = add(list, Move::make(from, to, pc)); });
        }
        break;
    }
    default:  // gold, king, promoted pieces: no choice
        if constexpr (Mode != PROMO_ONLY)
            to_bb.for_each([&](Square to) { list = add(list, Move::make(from, to, pc)); });
    }
    return list;
}

// Pawn pushes in bulk: every pawn moves one rank forward.
template <Color Us, PromoMode Mode, bool All>
ScoredMove* emit_pawns(ScoredMove* list, const Position& pos, Bitboard target) {
    constexpr int BACK = Us == BLACK ? 1 : -1;  // to + BACK = from
    [[maybe_unused]] constexpr Piece PC = make_piece(Us, PAWN), PRO = make_piece(Us, PRO_PAWN);
    Bitboard pawns = pos.pieces(Us, PAWN);
    Bitboard to_bb = (Us == BLACK ? pawns.shift_north() : pawns.shift_south()) & target;
    to_bb.for_each([&](Square to) {
        Square from = Square(to + BACK);
        if (in_zone(Us, to)) {
            if constexpr (Mode != NONPROMO_ONLY)
                list = add(list, Move::make_promote(from, to, PRO));
            if constexpr (Mode != PROMO_ONLY && All)
                if (relative_rank(Us, rank_of(to)) != RANK_1)
                    list = add(list, Move::make(from, to, PC));
        } else if constexpr (Mode != PROMO_ONLY)
            list = add(list, Move::make(from, to, PC));
    });
    return list;
}

// Board moves of every piece but the king. Each target set comes with its promotion mode:
// moves to `both` get every choice, moves to `promo` only promotions, to `plain` only
// non-promotions (any of them may be empty).
template <Color Us, bool All>
ScoredMove* board_moves(ScoredMove* list, const Position& pos, Bitboard both, Bitboard promo, Bitboard plain) {
    list = emit_pawns<Us, BOTH, All>(list, pos, both);
    if (promo.any())
        list = emit_pawns<Us, PROMO_ONLY, All>(list, pos, promo);
    if (plain.any())
        list = emit_pawns<Us, NONPROMO_ONLY, All>(list, pos, plain);
    Bitboard occ = pos.pieces();
    Bitboard others = pos.pieces(Us).andnot(pos.pieces(PAWN) | pos.pieces(KING));
    others.for_each([&](Square from) {
        Piece pc = pos.piece_on(from);
        Bitboard att = attacks_of(pc, from, occ);
        list = emit<Us, BOTH, All>(list, pc, from, att & both);
        if (promo.any())
            list = emit<Us, PROMO_ONLY, All>(list, pc, from, att & promo);
        if (plain.any())
            list = emit<Us, NONPROMO_ONLY, All>(list, pc, from, att & plain);
    });
    return list;
}

template <Color Us>
ScoredMove* king_moves(ScoredMove* list, const Position& pos, Bitboard target) {
    Square k = pos.king_square(Us);
    if (k != SQ_NONE)
        list = emit<Us, BOTH, false>(list, make_piece(Us, KING), k, KING_ATTACKS[k] & target);
    return list;
}

// Drops on `target` (empty squares). Pawns apart (two-pawn rule); the other pieces by band:
// no lance or knight on the last rank, no knight on the last two.
template <Color Us>
ScoredMove* drops(ScoredMove* list, const Position& pos, Bitboard target) {
    Hand h = pos.hand(Us);
    if (h.has(PAWN)) {
        Bitboard t = target.andnot(pawn_files<Us>(pos.pieces(Us, PAWN))).andnot(LAST_RANK_BB[Us]);
        t.for_each([&](Square to) { list = add(list, Move::make_drop(PAWN, to, Us)); });
    }
    if (!h.has_except_pawn())
        return list;
    std::uint32_t tmpl[6];
    int n = 0;
    for (PieceType pt : {SILVER, GOLD, BISHOP, ROOK})
        if (h.has(pt))
            tmpl[n++] = Move::make_drop(pt, SQ_11, Us).raw();
    int n_far = n;  // pieces allowed on the last rank
    if (h.has(LANCE))
        tmpl[n++] = Move::make_drop(LANCE, SQ_11, Us).raw();
    int n_mid = n;  // ... on the second last rank
    if (h.has(KNIGHT))
        tmpl[n++] = Move::make_drop(KNIGHT, SQ_11, Us).raw();
    constexpr Bitboard LAST = LAST_RANK_BB[Us];
    constexpr Bitboard SECOND = LAST_TWO_RANKS_BB[Us] ^ LAST_RANK_BB[Us];
    auto band = [&](Bitboard b, int count) {
        if (count == 0)
            return;
        b.for_each([&](Square to) {
            for (int i = 0; i < count; ++i)
                list = add(list, Move(tmpl[i] | to));
        });
    };
    band(target & LAST, n_far);
    band(target & SECOND, n_mid);
    band(target.andnot(LAST_TWO_RANKS_BB[Us]), n);
    return list;
}

template <Color Us, bool All>
ScoredMove* evasions(ScoredMove* list, const Position& pos) {
    Square k = pos.king_square(Us);
    Bitboard checkers = pos.checkers();
    list = king_moves<Us>(list, pos, ~pos.pieces(Us));
    if (checkers.more_than_one())
        return list;
    Square c = checkers.lsb();
    Bitboard between = between_bb(c, k);
    list = board_moves<Us, All>(list, pos, between | c, Bitboard(), Bitboard());
    return drops<Us>(list, pos, between);
}

template <Color Us, GenType T, bool All>
ScoredMove* generate_for(const Position& pos, ScoredMove* list) {
    Bitboard empty = ~pos.pieces();
    Bitboard enemy = pos.pieces(~Us);
    if constexpr (T == CAPTURES) {
        list = board_moves<Us, All>(list, pos, enemy, empty, Bitboard());
        return king_moves<Us>(list, pos, enemy);
    } else if constexpr (T == QUIETS) {
        list = board_moves<Us, All>(list, pos, Bitboard(), Bitboard(), empty);
        list = king_moves<Us>(list, pos, empty);
        return drops<Us>(list, pos, empty);
    } else if constexpr (T == NON_EVASIONS) {
        list = board_moves<Us, All>(list, pos, empty | enemy, Bitboard(), Bitboard());
        list = king_moves<Us>(list, pos, empty | enemy);
        return drops<Us>(list, pos, empty);
    } else if constexpr (T == EVASIONS) {
        return evasions<Us, All>(list, pos);
    }
}

}  // namespace

template <GenType T, bool All>
ScoredMove* generate(const Position& pos, ScoredMove* list) {
    Color us = pos.side_to_move();
    if constexpr (T == CAPTURES || T == QUIETS || T == NON_EVASIONS || T == EVASIONS) {
        return us == BLACK ? generate_for<BLACK, T, All>(pos, list) : generate_for<WHITE, T, All>(pos, list);
    } else if constexpr (T == LEGAL) {
        ScoredMove* end = pos.in_check() ? generate<EVASIONS, All>(pos, list) : generate<NON_EVASIONS, All>(pos, list);
        for (ScoredMove* it = list; it != end;)
            if (pos.legal(it->move))
                ++it;
            else
                *it = *--end;
        return end;
    } else {
        // CHECKS and QUIET_CHECKS: filter a wider stage by gives_check().
        ScoredMove* end = T == QUIET_CHECKS ? generate<QUIETS, All>(pos, list)
                        : pos.in_check()    ? generate<EVASIONS, All>(pos, list)
                                            : generate<NON_EVASIONS, All>(pos, list);
        for (ScoredMove* it = list; it != end;)
            if (pos.gives_check(it->move))
                ++it;
            else
                *it = *--end;
        return end;
    }
}

#define HISHA_INSTANTIATE(T)                                                   \
    template ScoredMove* generate<T, false>(const Position&, ScoredMove*);    \
    template ScoredMove* generate<T, true>(const Position&, ScoredMove*);
HISHA_INSTANTIATE(CAPTURES)
HISHA_INSTANTIATE(QUIETS)
HISHA_INSTANTIATE(NON_EVASIONS)
HISHA_INSTANTIATE(EVASIONS)
HISHA_INSTANTIATE(CHECKS)
HISHA_INSTANTIATE(QUIET_CHECKS)
HISHA_INSTANTIATE(LEGAL)
#undef HISHA_INSTANTIATE

bool has_legal_move(const Position& pos) {
    return MoveList<LEGAL, false>(pos).size() > 0;
}

std::uint64_t perft(Position& pos, int depth) {
    MoveList<LEGAL, true> moves(pos);
    if (depth <= 1)
        return depth == 1 ? moves.size() : 1;
    std::uint64_t nodes = 0;
    StateInfo st;
    for (const ScoredMove& sm : moves) {
        pos.do_move(sm.move, st);
        nodes += perft(pos, depth - 1);
        pos.undo_move(sm.move);
    }
    return nodes;
}

}  // namespace hisha::core
