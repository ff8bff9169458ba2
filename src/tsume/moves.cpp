// Move generation for the solver on top of core/movegen (see moves.h). The ordering puts
// strong pieces close to the king first (but the defender's drops weakest first) and a
// non-promotion after its promotion, which the expansion relies on to delay the non-promotion.
#include "moves.h"

#include <algorithm>
#include <cstdlib>

#include "core/attacks.h"
#include "core/movegen.h"
#include "hands.h"

namespace hisha::tsume {

using namespace core;

namespace {

constexpr int PIECE_VALUE[PIECE_TYPE_NB] = {0, 1, 2, 2, 3, 5, 5, 5, 8, 5, 5, 5, 5, 8, 8};

int distance(Square a, Square b) noexcept {
    return std::max(std::abs(int(file_of(a)) - int(file_of(b))), std::abs(int(rank_of(a)) - int(rank_of(b))));
}

// A cheap guess of how good a move is, smaller first: a strong piece near the (defender's)
// king first; a non-promotion of a piece that could promote last. The defender's drops go the
// other way, the weakest piece first: the drops on one square form a chain in the expansion,
// where a piece is tried only once the one before it is mated, and an interposed piece is the
// attacker's when taken, so the weak one is the defence most likely to hold. Strongest first
// kept a defender's node on a gold whose refutation needed hundreds of thousands of nodes while
// the pawn behind it in the chain held at once (the king chase below Kotobuki's ply 544:
// `nomate` in 0.27 M nodes, not in 20 M).
int brief_score(const Position& pos, Move m, Square ksq, bool defender) noexcept {
    int value = PIECE_VALUE[type_of(m.piece_after())];
    int score = defender && m.is_drop() ? value : -value;
    if (ksq != SQ_NONE)
        score += distance(ksq, m.to());
    if (!m.is_drop() && !m.is_promotion()) {
        Color us = pos.side_to_move();
        PieceType pt = type_of(pos.piece_on(m.from()));
        bool zone = in_zone(us, m.from()) || in_zone(us, m.to());
        if (zone && (pt == PAWN || pt == BISHOP || pt == ROOK))
            score += 100;
        if (pt == LANCE && relative_rank(us, rank_of(m.to())) == RANK_2)
            score += 100;
    }
    return score;
}

template <typename List>
void order(const Position& pos, const List& list, std::vector<Move>& out, Square ksq, bool defender) {
    struct Scored {
        int score;
        Move move;
    };
    // Left uninitialised (a union): Move's default member initialiser would otherwise zero all
    // MAX_MOVES entries at every call, which cost more than generating and sorting the moves.
    union Buffer {
        Buffer() {}
        Scored tmp[MAX_MOVES];
    } buffer;
    Scored* tmp = buffer.tmp;
    int n = 0;
    for (const ScoredMove& sm : list)
        if (pos.legal(sm.move))
            tmp[n++] = {brief_score(pos, sm.move, ksq, defender), sm.move};
    // A stable insertion sort: lists are short and often nearly in order already.
    for (int i = 1; i < n; ++i) {
        Scored x = tmp[i];
        int j = i;
        for (; j > 0 && x.score < tmp[j - 1].score; --j)
            tmp[j] = tmp[j - 1];
        tmp[j] = x;
    }
    out.clear();
    for (int i = 0; i < n; ++i)
        out.push_back(tmp[i].move);
}

bool can_drop_on(const Position& pos, PieceType pt, Square s) noexcept {
    Color us = pos.side_to_move();
    Rank r = relative_rank(us, rank_of(s));
    switch (pt) {
    case PAWN: {
        if (r == RANK_1 || (pos.pieces(us, PAWN) & FILE_BB[file_of(s)]).any())
            return false;
        return pos.legal(Move::make_drop(PAWN, s, us));  // a pawn drop must not mate
    }
    case LANCE: return r != RANK_1;
    case KNIGHT: return r > RANK_2;
    default: return true;
    }
}

}  // namespace

void generate_checks(const Position& pos, std::vector<Move>& out) {
    MoveList<CHECKS, true> list(pos);
    order(pos, list, out, pos.king_square(~pos.side_to_move()), false);
}

void generate_evasions(Position& pos, Convention conv, std::vector<Move>& out) {
    MoveList<EVASIONS, true> list(pos);
    order(pos, list, out, pos.king_square(pos.side_to_move()), true);
    if (conv == Convention::Tsume)
        std::erase_if(out, [&](Move m) { return m.is_drop() && is_futile_drop(pos, m.to(), m.dropped_piece()); });
}

// After such a check find_reply() answers Reply::Move, as its first test is the king's
// steps: the one-ply test needs no do_move for it. The king's square is left out of the
// occupancy (a slider's line goes on behind it), and the moving piece attacks from `to`.
bool king_steps_after(const Position& pos, Move m) noexcept {
    Color us = pos.side_to_move(), them = ~us;
    Square ksq = pos.king_square(them);
    if (ksq == SQ_NONE)
        return false;
    Square to = m.to();
    Bitboard occ = pos.pieces() ^ ksq;
    Bitboard moved;  // the attacker's piece leaves from here (it attacks from `to` now)
    if (!m.is_drop()) {
        moved = square_bb(m.from());
        occ ^= m.from();
    }
    occ |= to;
    Bitboard steps = KING_ATTACKS[ksq].andnot(pos.pieces(them)).andnot(square_bb(to));
    steps = steps.andnot(attacks_of(m.piece_after(), to, occ));
    if (steps.empty())
        return false;
    // Whether one of `own` attacks s through occ (Position::is_attacked without the moving
    // piece, which attacks from `to` and was counted above), stopping at the first attacker.
    const Bitboard own = pos.pieces(us).andnot(moved);
    const Bitboard hdk = pos.pieces(HORSE) | pos.pieces(DRAGON) | pos.pieces(KING);
    const Bitboard golds = pos.golds(us) | hdk;
    const Bitboard rd = own & (pos.pieces(ROOK) | pos.pieces(DRAGON));
    const Bitboard bh = own & (pos.pieces(BISHOP) | pos.pieces(HORSE));
    const Bitboard lances = own & pos.pieces(LANCE);
    auto attacked = [&](Square s) {
        Bitboard stepping = (PAWN_ATTACKS[them][s] & pos.pieces(PAWN)) | (KNIGHT_ATTACKS[them][s] & pos.pieces(KNIGHT))
                          | (SILVER_ATTACKS[them][s] & (pos.pieces(SILVER) | hdk)) | (GOLD_ATTACKS[them][s] & golds);
        if ((stepping & own).any())
            return true;
        if ((rd & ROOK_PSEUDO[s]).any() && (rook_attacks(s, occ) & rd).any())
            return true;
        if ((bh & BISHOP_PSEUDO[s]).any() && (bishop_attacks(s, occ) & bh).any())
            return true;
        return (lances & lance_pseudo(them, s)).any() && (lance_attacks(them, s, occ) & lances).any();
    };
    while (steps.any())
        if (!attacked(steps.pop_lsb()))
            return true;
    return false;
}

KingEscape::KingEscape(const Position& pos) noexcept {
    ksq_ = pos.king_square(~pos.side_to_move());
    if (ksq_ != SQ_NONE)
        steps_ = KING_ATTACKS[ksq_].andnot(pos.pieces(~pos.side_to_move()));
}

// Position::attackers_to(us, s, occ) for each step, with the stepping pieces' masks made once
// and a slider's line worked out only when one stands on it (most steps have none).
void KingEscape::find_guards(const Position& pos) const noexcept {
    guards_known_ = true;
    Color us = pos.side_to_move(), them = ~us;
    Bitboard occ = pos.pieces() ^ ksq_;
    const Bitboard own = pos.pieces(us);
    const Bitboard hdk = own & (pos.pieces(HORSE) | pos.pieces(DRAGON) | pos.pieces(KING));
    const Bitboard pawns = own & pos.pieces(PAWN), knights = own & pos.pieces(KNIGHT);
    const Bitboard silvers = (own & pos.pieces(SILVER)) | hdk, golds = pos.golds(us) | hdk;
    const Bitboard rd = own & (pos.pieces(ROOK) | pos.pieces(DRAGON));
    const Bitboard bh = own & (pos.pieces(BISHOP) | pos.pieces(HORSE));
    const Bitboard lances = own & pos.pieces(LANCE);
    int i = 0;
    for (Bitboard b = steps_; b.any(); ++i) {
        Square s = b.pop_lsb();
        Bitboard guards = (PAWN_ATTACKS[them][s] & pawns) | (KNIGHT_ATTACKS[them][s] & knights)
                        | (SILVER_ATTACKS[them][s] & silvers) | (GOLD_ATTACKS[them][s] & golds);
        if ((rd & ROOK_PSEUDO[s]).any())
            guards |= rook_attacks(s, occ) & rd;
        if ((bh & BISHOP_PSEUDO[s]).any())
            guards |= bishop_attacks(s, occ) & bh;
        if ((lances & lance_pseudo(them, s)).any())
            guards |= lance_attacks(them, s, occ) & lances;
        if (guards.empty()) {
            free_ |= s;
        } else if (!guards.more_than_one()) {
            lone_ |= s;
            guard_[i] = guards;
        }
    }
}

bool KingEscape::steps_after(const Position& pos, Move m) const noexcept {
    if (ksq_ == SQ_NONE)
        return false;
    // The squares the checking piece does not reach, as in king_steps_after().
    Square to = m.to();
    Bitboard occ = (pos.pieces() ^ ksq_) | to;
    if (!m.is_drop())
        occ = occ.andnot(square_bb(m.from()));
    Bitboard cand = steps_.andnot(square_bb(to)).andnot(attacks_of(m.piece_after(), to, occ));
    if (cand.empty())
        return false;
    if (!guards_known_)
        find_guards(pos);
    // A square no guard reaches stays so after a drop (the dropped piece can only block a line).
    if (m.is_drop())
        return (cand & free_).any();
    // After a board move, one whose only guard is the moving piece may be free as well, and no
    // slider may reach the square through the square the piece left (a discovered guard).
    cand &= free_ | lone_;
    if (cand.empty())
        return false;
    Square from = m.from();
    Color us = pos.side_to_move(), them = ~us;
    const Bitboard own = pos.pieces(us).andnot(square_bb(from));
    const Bitboard rd = own & (pos.pieces(ROOK) | pos.pieces(DRAGON));
    const Bitboard bh = own & (pos.pieces(BISHOP) | pos.pieces(HORSE));
    const Bitboard lances = own & pos.pieces(LANCE);
    int i = 0;
    for (Bitboard b = steps_; b.any(); ++i) {
        Square s = b.pop_lsb();
        if (!cand.test(s))
            continue;
        if (lone_.test(s) && !guard_[i].test(from))
            continue;
        if ((rd & ROOK_PSEUDO[s]).any() && (rook_attacks(s, occ) & rd).any())
            continue;
        if ((bh & BISHOP_PSEUDO[s]).any() && (bishop_attacks(s, occ) & bh).any())
            continue;
        if ((lances & lance_pseudo(them, s)).any() && (lance_attacks(them, s, occ) & lances).any())
            continue;
        return true;
    }
    return false;
}

namespace {

// Whether a piece of `side` other than its king takes on s legally: one that is pinned only along
// its pin (the pins of the position as it stands).
bool piece_takes(const Position& pos, Color side, Square s) noexcept {
    Square ksq = pos.king_square(side);
    Bitboard pinned = pos.pinned(side);
    Bitboard takers = attackers_of(pos, side, s).andnot(square_bb(ksq));
    while (takers.any()) {
        Square from = takers.pop_lsb();
        if (!pinned.test(from) || aligned(from, s, ksq))
            return true;
    }
    return false;
}

// The checker on c takes a piece of type pt dropped on s (promoting or not): true when one
// of these captures leaves the defender no reply. Drops nearer the king are judged by the
// same rule (is_futile_drop), so the recursion ends at the king.
bool capture_mates(Position& pos, PieceType pt, Square s, Square c) noexcept {
    Move drop = Move::make_drop(pt, s, pos.side_to_move());
    StateInfo st_drop, st_take;
    make_position(pos, drop, st_drop);
    bool mates = false;
    for (bool promote : {false, true}) {
        Move take = pos.make_move(c, s, promote);
        if (!pos.is_legal(take))
            continue;
        make_position(pos, take, st_take);
        mates = find_reply(pos, Convention::Tsume) == Reply::None;
        pos.undo_move(take);
        if (mates)
            break;
    }
    pos.undo_move(drop);
    return mates;
}

}  // namespace

bool is_futile_drop(Position& pos, Square s, PieceType pt) noexcept {
    Color us = pos.side_to_move();
    Square ksq = pos.king_square(us);
    Bitboard checkers = pos.checkers();
    if (ksq == SQ_NONE || checkers.empty() || checkers.more_than_one())
        return false;
    Square c = checkers.lsb();
    if (!between_bb(c, ksq).test(s))
        return false;
    // 1. No other defender piece can take back on s (a pinned one only along its pin).
    if (piece_takes(pos, us, s))
        return false;
    // 2. Nor can the king: s is not next to it, or the checker taking on s is guarded there
    //    (by another piece, also one behind the checker on its line).
    if (KING_ATTACKS[ksq].test(s)) {
        Bitboard occ = pos.pieces() ^ c;
        if (attackers_of(pos, ~us, s, occ).andnot(square_bb(c)).empty())
            return false;
    }
    // 3. And the capture mates: a drop whose capture lets the king out (the checker has left
    //    a square it guarded, or the king escapes past it) changes the mate and counts.
    return capture_mates(pos, pt, s, c);
}

Reply find_reply(Position& pos, Convention conv) noexcept {
    Color us = pos.side_to_move(), them = ~us;
    Square ksq = pos.king_square(us);
    Bitboard occ = pos.pieces();
    // 1. The king steps (or captures) to a square that is not attacked once it has left.
    Bitboard steps = KING_ATTACKS[ksq].andnot(pos.pieces(us));
    Bitboard occ_wo_king = occ ^ ksq;
    while (steps.any())
        if (!pos.is_attacked(them, steps.pop_lsb(), occ_wo_king))
            return Reply::Move;
    Bitboard checkers = pos.checkers();
    if (checkers.empty())
        return Reply::Move;  // not in check (a capture that promoted off the line): no mate
    if (checkers.more_than_one())
        return Reply::None;
    // 2. Another piece takes the checker (a pinned one only along its pin).
    Square c = checkers.lsb();
    if (piece_takes(pos, us, c))
        return Reply::Move;
    Bitboard pinned = pos.pinned(us);
    // 3. A piece moves in between (a pinned piece never can: its line is another) ...
    const Bitboard between = between_bb(c, ksq);
    for (Bitboard b = between; b.any();)
        if (attackers_of(pos, us, b.pop_lsb(), occ).andnot(square_bb(ksq)).andnot(pinned).any())
            return Reply::Move;
    // 4. ... or is dropped there.
    Hand h = pos.hand(us);
    if (h.empty())
        return Reply::None;
    for (Bitboard b = between; b.any();) {
        Square s = b.pop_lsb();
        for (PieceType pt : {SILVER, GOLD, BISHOP, ROOK, LANCE, KNIGHT, PAWN})
            if (h.has(pt) && can_drop_on(pos, pt, s) && !(conv == Convention::Tsume && is_futile_drop(pos, s, pt)))
                return Reply(int(Reply::DropPawn) + int(pt) - int(PAWN));
    }
    return Reply::None;
}

bool has_evasion(Position& pos, Convention conv) noexcept { return find_reply(pos, conv) != Reply::None; }

Hand reply_disproof(const Position& pos, Reply reply, Hand disproof) noexcept {
    if (reply < Reply::DropPawn)
        return disproof;
    return keep_defender_drop(pos, PieceType(int(reply) - int(Reply::DropPawn) + int(PAWN)), disproof);
}

namespace {

// Before a checking drop on s: true when the defender can take the dropped piece. A drop
// unpins nothing and gives no other check, so a piece that is not pinned now (or moves along
// its pin) takes it legally, and the king takes it when no other attacker's piece guards s.
bool drop_is_taken(const Position& pos, Square s) noexcept {
    Color us = pos.side_to_move(), them = ~us;
    if (piece_takes(pos, them, s))
        return true;
    Square ksq = pos.king_square(them);
    return KING_ATTACKS[ksq].test(s) && attackers_of(pos, us, s, pos.pieces() ^ ksq).empty();
}

}  // namespace

MateProbe mate_in_one(Position& pos, Convention conv) {
    MateProbe probe;
    MoveList<CHECKS, true> list(pos);
    StateInfo st;
    bool any = false;
    Hand disproof = full_hand();
    const KingEscape escape(pos);
    for (const ScoredMove& sm : list) {
        Move m = sm.move;
        if (!pos.legal(m))
            continue;
        any = true;
        // Checks with a board reply found without playing them (find_reply() == Reply::Move).
        if (escape.steps_after(pos, m) || (m.is_drop() && drop_is_taken(pos, m.to()))) {
            disproof = hand_min(disproof, hand_before(pos, m, full_hand()));
            continue;
        }
        make_position(pos, m, st);
        Reply reply = find_reply(pos, conv);
        Hand after = reply == Reply::None ? add_blocking_pieces(pos, Hand()) : reply_disproof(pos, reply, full_hand());
        pos.undo_move(m);
        if (reply == Reply::None) {
            probe.move = m;
            probe.proof_hand = hand_before(pos, m, after);
            return probe;
        }
        disproof = hand_min(disproof, hand_before(pos, m, after));
    }
    probe.no_check = !any;
    probe.disproof_hand = remove_checking_pieces(pos, disproof);
    return probe;
}

MateProbe3 mate_within(Position& pos, Convention conv, int plies) {
    MateProbe3 out;
    MateProbe one = mate_in_one(pos, conv);
    out.disproof_hand = one.disproof_hand;
    if (one.move)
        out = {one.move, one.proof_hand, Hand(), 1};
    if (one.move || one.no_check || plies < 3)
        return out;
    // The move lists of each level of the recursion, kept between calls (no allocation at the
    // leaves). Sized before recursing: a deeper call uses a lower level and never resizes.
    struct Lists {
        std::vector<Move> checks, evasions;
    };
    thread_local std::vector<Lists> levels;
    std::size_t level = std::size_t(plies / 2);
    if (levels.size() <= level)
        levels.resize(level + 1);
    std::vector<Move>& checks = levels[level].checks;
    std::vector<Move>& evasions = levels[level].evasions;
    generate_checks(pos, checks);
    StateInfo st, st2;
    Hand disproof = full_hand();
    for (Move m : checks) {
        make_position(pos, m, st);
        generate_evasions(pos, conv, evasions);
        // Every reply must leave a shorter mate; the proof needs the union of their hands.
        Hand proof, refuted = full_hand();
        int longest = 0;
        bool mated = !evasions.empty();
        for (Move e : evasions) {
            make_position(pos, e, st2);
            MateProbe3 sub = mate_within(pos, conv, plies - 2);
            pos.undo_move(e);
            if (!sub.move) {
                mated = false;
                refuted =
                    e.is_drop() ? keep_defender_drop(pos, e.dropped_piece(), sub.disproof_hand) : sub.disproof_hand;
                break;
            }
            proof = hand_max(proof, sub.proof_hand);
            longest = std::max(longest, sub.length);
        }
        if (mated)
            proof = add_blocking_pieces(pos, proof);
        pos.undo_move(m);
        if (mated) {
            out = {m, hand_before(pos, m, proof), Hand(), longest + 2};
            return out;
        }
        disproof = hand_min(disproof, hand_before(pos, m, refuted));
    }
    out.disproof_hand = remove_checking_pieces(pos, disproof);
    return out;
}

}  // namespace hisha::tsume
