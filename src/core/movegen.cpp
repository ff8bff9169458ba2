// Move generation: board moves by piece kind with the promotion rules, drops by band of
// ranks, evasions. Templates on the side to move keep the colour arithmetic at compile time.
// The LEGAL generator produces legal moves directly: pinned pieces move only along their
// line, king steps are tested for attack, and the one square where a pawn drop could mate
// is tested once, so no move needs a legality test afterwards.
#include "movegen.h"

#include <array>

namespace hisha::core {

namespace {

// The emitters are tiny and called per piece: inlining them keeps the bitboards in registers.
#define HISHA_INLINE [[gnu::always_inline]] inline

// Which promotion choices a stage wants for the moves it is given.
enum PromoMode { BOTH, PROMO_ONLY, NONPROMO_ONLY };

HISHA_INLINE ScoredMove* add(ScoredMove* list, Move m) {
    list->move = m;
    return list + 1;
}

// --- emitting the moves of one piece to a set of squares, by kind

template <PromoMode Mode>
HISHA_INLINE ScoredMove* emit_plain(ScoredMove* list, Piece pc, Square from, Bitboard to_bb) {
    if constexpr (Mode != PROMO_ONLY)
        to_bb.for_each([&](Square to) { list = add(list, Move::make(from, to, pc)); });
    return list;
}

// Lance and knight: promotion forced on the last rank(s), optional on the third.
template <Color Us, PieceType Pt, PromoMode Mode, bool All>
HISHA_INLINE ScoredMove* emit_lance_knight(ScoredMove* list, Square from, Bitboard to_bb) {
    constexpr Piece PC = make_piece(Us, Pt), PRO = promote(PC);
    constexpr Bitboard ZONE = ZONE_BB[Us];
    constexpr Bitboard RANK3 = ZONE_BB[Us] ^ LAST_TWO_RANKS_BB[Us];
    // Squares where staying unpromoted is allowed and wanted.
    constexpr Bitboard KEEP = Pt == LANCE && All ? ZONE.andnot(LAST_RANK_BB[Us]) : RANK3;
    if constexpr (Mode != NONPROMO_ONLY)
        (to_bb & ZONE).for_each([&](Square to) { list = add(list, Move::make_promote(from, to, PRO)); });
    if constexpr (Mode != PROMO_ONLY)
        (to_bb.andnot(ZONE) | (to_bb & KEEP)).for_each([&](Square to) { list = add(list, Move::make(from, to, PC)); });
    return list;
}

// Silver, bishop, rook: promotion optional when the move starts or ends in the zone.
// Non-promotions of bishop and rook there are generated only with All.
template <Color Us, PieceType Pt, PromoMode Mode, bool All>
HISHA_INLINE ScoredMove* emit_promotable(ScoredMove* list, Square from, Bitboard to_bb) {
    constexpr Piece PC = make_piece(Us, Pt), PRO = promote(PC);
    Bitboard promo = ZONE_BB[Us].test(from) ? to_bb : to_bb & ZONE_BB[Us];
    if constexpr (Mode != NONPROMO_ONLY)
        promo.for_each([&](Square to) { list = add(list, Move::make_promote(from, to, PRO)); });
    if constexpr (Mode != PROMO_ONLY) {
        Bitboard plain = (Pt == SILVER || All) ? to_bb : to_bb.andnot(promo);
        plain.for_each([&](Square to) { list = add(list, Move::make(from, to, PC)); });
    }
    return list;
}

// Pawn pushes in bulk.
template <Color Us, PromoMode Mode, bool All>
HISHA_INLINE ScoredMove* emit_pawns(ScoredMove* list, Bitboard pawns, Bitboard target) {
    constexpr int BACK = Us == BLACK ? 1 : -1;  // to + BACK = from
    constexpr Piece PC = make_piece(Us, PAWN), PRO = make_piece(Us, PRO_PAWN);
    constexpr Bitboard ZONE = ZONE_BB[Us];
    constexpr Bitboard KEEP = ZONE.andnot(LAST_RANK_BB[Us]);
    Bitboard to_bb = (Us == BLACK ? pawns.shift_north() : pawns.shift_south()) & target;
    if constexpr (Mode != NONPROMO_ONLY)
        (to_bb & ZONE).for_each([&](Square to) { list = add(list, Move::make_promote(Square(to + BACK), to, PRO)); });
    if constexpr (Mode != PROMO_ONLY) {
        Bitboard plain = All ? to_bb.andnot(ZONE) | (to_bb & KEEP) : to_bb.andnot(ZONE);
        plain.for_each([&](Square to) { list = add(list, Move::make(Square(to + BACK), to, PC)); });
    }
    return list;
}

// The targets of a stage: moves to `both` get every promotion choice, moves to `promo` only
// promotions, moves to `plain` only non-promotions.
struct Targets {
    Bitboard both, promo, plain;
};

template <Color Us, PieceType Pt, bool All, typename Emit>
HISHA_INLINE ScoredMove* emit_targets(ScoredMove* list, Bitboard att, const Targets& t, Emit&& emit) {
    list = emit.template operator()<BOTH>(list, att & t.both);
    if (t.promo.any())
        list = emit.template operator()<PROMO_ONLY>(list, att & t.promo);
    if (t.plain.any())
        list = emit.template operator()<NONPROMO_ONLY>(list, att & t.plain);
    return list;
}

// Board moves of every piece but the king, for the pieces in `movers`. When Legal, pinned
// pieces (which must be in `movers`) are kept on the line through their king.
template <Color Us, bool All, bool Legal>
ScoredMove* board_moves(ScoredMove* list, const Position& pos, Bitboard movers, const Targets& t) {
    const Bitboard occ = pos.pieces();
    const Square ksq = pos.king_square(Us);
    const Bitboard pinned = Legal ? pos.pinned(Us) & movers : Bitboard();
    // The squares a piece on `from` may move to without exposing its king.
    auto line = [&](Square from) {
        return Legal && pinned.test(from) ? RAY[DIRECTION[ksq][from]][ksq] : Bitboard::all();
    };

    // Pawns: a pinned pawn can move only when pinned along its file.
    Bitboard pawns = pos.pieces(Us, PAWN) & movers;
    if (Legal && ksq != SQ_NONE)
        pawns = pawns.andnot(pinned.andnot(FILE_BB[file_of(ksq)]));
    list = emit_pawns<Us, BOTH, All>(list, pawns, t.both);
    if (t.promo.any())
        list = emit_pawns<Us, PROMO_ONLY, All>(list, pawns, t.promo);
    if (t.plain.any())
        list = emit_pawns<Us, NONPROMO_ONLY, All>(list, pawns, t.plain);

    (pos.pieces(Us, LANCE) & movers).for_each([&](Square from) {
        Bitboard att = lance_attacks(Us, from, occ) & line(from);
        list = emit_targets<Us, LANCE, All>(list, att, t, [&]<PromoMode M>(ScoredMove* l, Bitboard b) {
            return emit_lance_knight<Us, LANCE, M, All>(l, from, b);
        });
    });
    (pos.pieces(Us, KNIGHT) & movers).andnot(pinned).for_each([&](Square from) {
        list = emit_targets<Us, KNIGHT, All>(list, KNIGHT_ATTACKS[Us][from], t, [&]<PromoMode M>(ScoredMove* l, Bitboard b) {
            return emit_lance_knight<Us, KNIGHT, M, All>(l, from, b);
        });
    });
    (pos.pieces(Us, SILVER) & movers).for_each([&](Square from) {
        Bitboard att = SILVER_ATTACKS[Us][from] & line(from);
        list = emit_targets<Us, SILVER, All>(list, att, t, [&]<PromoMode M>(ScoredMove* l, Bitboard b) {
            return emit_promotable<Us, SILVER, M, All>(l, from, b);
        });
    });
    (pos.pieces(Us, BISHOP) & movers).for_each([&](Square from) {
        Bitboard att = bishop_attacks(from, occ) & line(from);
        list = emit_targets<Us, BISHOP, All>(list, att, t, [&]<PromoMode M>(ScoredMove* l, Bitboard b) {
            return emit_promotable<Us, BISHOP, M, All>(l, from, b);
        });
    });
    (pos.pieces(Us, ROOK) & movers).for_each([&](Square from) {
        Bitboard att = rook_attacks(from, occ) & line(from);
        list = emit_targets<Us, ROOK, All>(list, att, t, [&]<PromoMode M>(ScoredMove* l, Bitboard b) {
            return emit_promotable<Us, ROOK, M, All>(l, from, b);
        });
    });
    // Pieces without a promotion choice.
    Bitboard tb = t.both | t.plain;
    (pos.golds(Us) & movers).for_each([&](Square from) {
        list = emit_plain<BOTH>(list, pos.piece_on(from), from, GOLD_ATTACKS[Us][from] & tb & line(from));
    });
    (pos.pieces(Us, HORSE) & movers).for_each([&](Square from) {
        list = emit_plain<BOTH>(list, make_piece(Us, HORSE), from, horse_attacks(from, occ) & tb & line(from));
    });
    (pos.pieces(Us, DRAGON) & movers).for_each([&](Square from) {
        list = emit_plain<BOTH>(list, make_piece(Us, DRAGON), from, dragon_attacks(from, occ) & tb & line(from));
    });
    return list;
}

template <Color Us, bool Legal>
ScoredMove* king_moves(ScoredMove* list, const Position& pos, Bitboard target) {
    Square k = pos.king_square(Us);
    if (k == SQ_NONE)
        return list;
    constexpr Piece KING_PC = make_piece(Us, KING);
    Bitboard occ = pos.pieces() ^ k;
    (KING_ATTACKS[k] & target).for_each([&](Square to) {
        if (!Legal || !pos.is_attacked(~Us, to, occ))
            list = add(list, Move::make(k, to, KING_PC));
    });
    return list;
}

// Drops on `target` (empty squares). Pawns apart (two-pawn rule, and when Legal the square
// where a pawn drop would mate); the other pieces by band: no lance or knight on the last
// rank, no knight on the last two.
template <Color Us, bool Legal>
ScoredMove* drops(ScoredMove* list, const Position& pos, Bitboard target) {
    Hand h = pos.hand(Us);
    if (h.has(PAWN)) {
        Bitboard t = target.andnot(pawn_files<Us>(pos.pieces(Us, PAWN))).andnot(LAST_RANK_BB[Us]);
        if constexpr (Legal) {
            Square k = pos.king_square(~Us);
            if (k != SQ_NONE) {
                // The one square where our pawn would check (none when the king is on its edge).
                Bitboard front = PAWN_ATTACKS[~Us][k] & t;
                if (front.any() && pos.pawn_drop_mates(front.lsb()))
                    t ^= front;
            }
        }
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

template <Color Us, bool All, bool Legal>
ScoredMove* evasions(ScoredMove* list, const Position& pos) {
    Square k = pos.king_square(Us);
    Bitboard checkers = pos.checkers();
    list = king_moves<Us, Legal>(list, pos, ~pos.pieces(Us));
    if (checkers.more_than_one())
        return list;
    Square c = checkers.lsb();
    Bitboard between = between_bb(c, k);
    // A pinned piece can never answer a check (its line and the checker's meet at the king).
    Bitboard movers = Legal ? pos.pieces(Us).andnot(pos.pinned(Us)) : pos.pieces(Us);
    list = board_moves<Us, All, false>(list, pos, movers, Targets{between | c, {}, {}});
    return drops<Us, Legal>(list, pos, between);
}

template <Color Us, GenType T, bool All>
ScoredMove* generate_for(const Position& pos, ScoredMove* list) {
    Bitboard empty = ~pos.pieces();
    Bitboard enemy = pos.pieces(~Us);
    Bitboard mine = pos.pieces(Us);
    if constexpr (T == CAPTURES) {
        list = board_moves<Us, All, false>(list, pos, mine, Targets{enemy, empty, {}});
        return king_moves<Us, false>(list, pos, enemy);
    } else if constexpr (T == QUIETS) {
        list = board_moves<Us, All, false>(list, pos, mine, Targets{{}, {}, empty});
        list = king_moves<Us, false>(list, pos, empty);
        return drops<Us, false>(list, pos, empty);
    } else if constexpr (T == NON_EVASIONS) {
        list = board_moves<Us, All, false>(list, pos, mine, Targets{empty | enemy, {}, {}});
        list = king_moves<Us, false>(list, pos, empty | enemy);
        return drops<Us, false>(list, pos, empty);
    } else if constexpr (T == EVASIONS) {
        return evasions<Us, All, false>(list, pos);
    } else if constexpr (T == LEGAL) {
        if (pos.in_check())
            return evasions<Us, All, true>(list, pos);
        list = board_moves<Us, All, true>(list, pos, mine, Targets{empty | enemy, {}, {}});
        list = king_moves<Us, true>(list, pos, empty | enemy);
        return drops<Us, true>(list, pos, empty);
    }
}

// --- checks

// Squares from which a piece of color Us and type pt attacks `ksq` (Us's piece seen from the
// enemy king: the enemy piece's attack pattern from ksq).
template <Color Us>
Bitboard check_squares(PieceType pt, Square ksq, const Bitboard& occ) {
    constexpr Color THEM = ~Us;
    switch (pt) {
    case PAWN: return PAWN_ATTACKS[THEM][ksq];
    case LANCE: return lance_attacks(THEM, ksq, occ);
    case KNIGHT: return KNIGHT_ATTACKS[THEM][ksq];
    case SILVER: return SILVER_ATTACKS[THEM][ksq];
    case BISHOP: return bishop_attacks(ksq, occ);
    case ROOK: return rook_attacks(ksq, occ);
    case HORSE: return horse_attacks(ksq, occ);
    case DRAGON: return dragon_attacks(ksq, occ);
    case KING: return Bitboard();
    default: return GOLD_ATTACKS[THEM][ksq];  // gold and promoted minors
    }
}

// The squares within four steps of each square (a 9x9 box clipped at the edges). A piece that
// steps (not a lance, bishop, rook, horse or dragon) checks a king directly only from a square
// next to it or a knight's jump away, promoted or not, so it must stand within this box of the
// king to reach one in a move; farther away it checks only by discovery.
const auto NEAR4 = [] {
    std::array<Bitboard, SQ_NB> t{};
    for (int s = 0; s < SQ_NB; ++s)
        for (int x = 0; x < SQ_NB; ++x) {
            int df = int(file_of(Square(s))) - int(file_of(Square(x)));
            int dr = int(rank_of(Square(s))) - int(rank_of(Square(x)));
            if (df >= -4 && df <= 4 && dr >= -4 && dr <= 4)
                t[std::size_t(s)] |= Square(x);
        }
    return t;
}();

// Every pseudo-legal checking move (legality still to test): direct checks to the check
// squares of the piece's type (promoted or not), discovered checks by moving a blocker off
// its line, and drops on check squares.
template <Color Us, bool All>
ScoredMove* checks(ScoredMove* list, const Position& pos) {
    Square ksq = pos.king_square(~Us);
    if (ksq == SQ_NONE)
        return list;
    const Bitboard occ = pos.pieces(), empty = ~occ, target = ~pos.pieces(Us);
    const Bitboard discover = pos.blockers_for_king(~Us) & pos.pieces(Us);
    Bitboard cs[PIECE_TYPE_NB];
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt)
        cs[pt] = check_squares<Us>(PieceType(pt), ksq, occ);

    // Pieces that can check at all, in square order as before: sliders, blockers of a line to
    // the king, and steppers near it (the others add no move).
    const Bitboard sliders =
        pos.pieces(LANCE) | pos.pieces(BISHOP) | pos.pieces(ROOK) | pos.pieces(HORSE) | pos.pieces(DRAGON);
    const Bitboard can_check = pos.pieces(Us) & (sliders | discover | NEAR4[std::size_t(ksq)]);
    can_check.for_each([&](Square from) {
        Piece pc = pos.piece_on(from);
        PieceType pt = type_of(pc);
        Bitboard att = attacks_of(pc, from, occ) & target;
        if (att.empty())
            return;
        // A blocker moving off the line to the king checks wherever it goes.
        Bitboard off_line = discover.test(from) ? att.andnot(RAY[DIRECTION[ksq][from]][ksq]) : Bitboard();
        bool promotable = can_promote(pt);
        Bitboard promo_ok = promotable ? (ZONE_BB[Us].test(from) ? att : att & ZONE_BB[Us]) : Bitboard();
        Bitboard plain = (att & cs[pt]) | off_line;
        Bitboard promo = promotable ? promo_ok & (cs[promote(pt)] | off_line) : Bitboard();
        // Non-promotions that are forbidden (dead piece) or left out of the engine's list.
        if (pt == PAWN || pt == LANCE)
            plain = plain.andnot(LAST_RANK_BB[Us]);
        if (pt == KNIGHT)
            plain = plain.andnot(LAST_TWO_RANKS_BB[Us]);
        if (!All && (pt == PAWN || pt == BISHOP || pt == ROOK))
            plain = plain.andnot(promo_ok);
        if (!All && pt == LANCE)
            plain = plain.andnot(LAST_TWO_RANKS_BB[Us]);
        plain.for_each([&](Square to) { list = add(list, Move::make(from, to, pc)); });
        promo.for_each([&](Square to) { list = add(list, Move::make_promote(from, to, promote(pc))); });
    });

    Hand h = pos.hand(Us);
    for (PieceType pt : {PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK}) {
        if (!h.has(pt))
            continue;
        Bitboard t = cs[pt] & empty;
        if (pt == PAWN)
            t = t.andnot(pawn_files<Us>(pos.pieces(Us, PAWN))).andnot(LAST_RANK_BB[Us]);
        else if (pt == LANCE)
            t = t.andnot(LAST_RANK_BB[Us]);
        else if (pt == KNIGHT)
            t = t.andnot(LAST_TWO_RANKS_BB[Us]);
        t.for_each([&](Square to) { list = add(list, Move::make_drop(pt, to, Us)); });
    }
    return list;
}

}  // namespace

template <GenType T, bool All>
ScoredMove* generate(const Position& pos, ScoredMove* list) {
    Color us = pos.side_to_move();
    if constexpr (T == CHECKS) {
        // When in check, only evasions that also check.
        if (pos.in_check()) {
            ScoredMove* end = generate<EVASIONS, All>(pos, list);
            for (ScoredMove* it = list; it != end;)
                if (pos.gives_check(it->move))
                    ++it;
                else
                    *it = *--end;
            return end;
        }
        return us == BLACK ? checks<BLACK, All>(list, pos) : checks<WHITE, All>(list, pos);
    } else if constexpr (T == QUIET_CHECKS) {
        ScoredMove* end = generate<CHECKS, All>(pos, list);
        for (ScoredMove* it = list; it != end;)
            if (it->move.is_drop() || (!it->move.is_promotion() && pos.piece_on(it->move.to()) == NO_PIECE))
                ++it;
            else
                *it = *--end;
        return end;
    } else
        return us == BLACK ? generate_for<BLACK, T, All>(pos, list) : generate_for<WHITE, T, All>(pos, list);
}

#define HISHA_INSTANTIATE(T)                                                \
    template ScoredMove* generate<T, false>(const Position&, ScoredMove*); \
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
