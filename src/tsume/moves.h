// The solver's moves: the attacker's legal checks and the defender's legal evasions (every
// promotion choice included), ordered best first; a fast exact "has the defender any reply"
// test; the one-ply mate test used at the leaves; and the tsume-shogi futility rule.
#pragma once

#include <cstdint>
#include <vector>

#include "core/attacks.h"
#include "core/move.h"
#include "core/position.h"
#include "types.h"

namespace hisha::tsume {

/// Positions the solver has made on this thread: its Position::do_move calls, the search's
/// own and those of the leaf tests and the futility rule. YaneuraOu-based solvers such as
/// KomoringHeights report this count as their nodes; Searcher::nodes() counts searched nodes.
inline thread_local std::uint64_t positions_made = 0;

/// pos.do_move(m, st), counted in positions_made.
inline void make_position(core::Position& pos, core::Move m, core::StateInfo& st) {
    ++positions_made;
    pos.do_move(m, st);
}

/// Position::attackers_to(c, s, occ), computing a slider's line only when one of c's sliders
/// stands on it (the usual case near a king: none does).
inline core::Bitboard attackers_of(const core::Position& pos, core::Color c, core::Square s,
                                   const core::Bitboard& occ) noexcept {
    using namespace core;
    Color t = ~c;
    const Bitboard own = pos.pieces(c);
    const Bitboard hdk = pos.pieces(HORSE) | pos.pieces(DRAGON) | pos.pieces(KING);
    Bitboard b = (PAWN_ATTACKS[t][s] & pos.pieces(PAWN)) | (KNIGHT_ATTACKS[t][s] & pos.pieces(KNIGHT))
               | (SILVER_ATTACKS[t][s] & (pos.pieces(SILVER) | hdk)) | (GOLD_ATTACKS[t][s] & (pos.golds(c) | hdk));
    b &= own;
    if (Bitboard rd = own & (pos.pieces(ROOK) | pos.pieces(DRAGON)); (rd & ROOK_PSEUDO[s]).any())
        b |= rook_attacks(s, occ) & rd;
    if (Bitboard bh = own & (pos.pieces(BISHOP) | pos.pieces(HORSE)); (bh & BISHOP_PSEUDO[s]).any())
        b |= bishop_attacks(s, occ) & bh;
    if (Bitboard l = own & pos.pieces(LANCE); (l & lance_pseudo(t, s)).any())
        b |= lance_attacks(t, s, occ) & l;
    return b;
}
inline core::Bitboard attackers_of(const core::Position& pos, core::Color c, core::Square s) noexcept {
    return attackers_of(pos, c, s, pos.pieces());
}

/// Legal checks of the side to move (non-promotions of P, B, R and lance included), best first.
void generate_checks(const core::Position& pos, std::vector<core::Move>& out);

/// Legal evasions of the side to move (in check), best first (drops: the weakest piece first).
/// Under Convention::Tsume, futile drop interpositions (is_futile_drop) are left out. `pos` is
/// restored.
void generate_evasions(core::Position& pos, Convention conv, std::vector<core::Move>& out);

/// Tsume convention: dropping a piece of type pt on s between a sliding checker and the king
/// is futile when the checker takes it for free and that capture mates: no other defender
/// piece can take back on s (pinned pieces only along their pin), the king cannot either (s
/// is not next to it, or another attacker piece guards s once the checker has left its
/// square), and after the capture the defender has no reply (drops nearer the king judged by
/// this rule). `pos` is the defender to move, in check by one piece; it is restored.
bool is_futile_drop(core::Position& pos, core::Square s, core::PieceType pt) noexcept;

/// The kind of legal reply the side to move (in check) has: none, a board move, or only
/// drops (DropPawn + the piece type - PAWN, of one such drop). Under Tsume a futile drop is none.
enum class Reply : std::uint8_t { None, Move, DropPawn };
Reply find_reply(core::Position& pos, Convention conv) noexcept;
bool has_evasion(core::Position& pos, Convention conv) noexcept;
/// A disproof hand that keeps `reply` possible (a drop needs the defender to keep the piece).
core::Hand reply_disproof(const core::Position& pos, Reply reply, core::Hand disproof) noexcept;

/// Before the attacker's check m is played: true when the defender's king will then have a
/// safe step to a square other than m.to() (a sufficient test: false proves nothing). Such a
/// check cannot mate; the one-ply test skips playing it.
bool king_steps_after(const core::Position& pos, core::Move m) noexcept;

/// king_steps_after() for many checks of one position: what does not depend on the check (the
/// king's steps, and which attacker's pieces guard each, worked out at the first check that
/// needs it) is found once. steps_after(m) is a sufficient test as well, a little weaker: a
/// square guarded before the check counts as guarded after it unless its only guard is the
/// piece that moves (a check that blocks the line of a guard is not seen to free the square).
/// `pos` must not change in between.
class KingEscape {
public:
    explicit KingEscape(const core::Position& pos) noexcept;
    bool steps_after(const core::Position& pos, core::Move m) const noexcept;

private:
    void find_guards(const core::Position& pos) const noexcept;

    core::Square ksq_ = core::SQ_NONE;
    core::Bitboard steps_;  // the king's steps to squares without a defender's piece
    // Found by find_guards() when first needed.
    mutable bool guards_known_ = false;
    mutable core::Bitboard free_;      // steps no attacker's piece guards (through the king's square)
    mutable core::Bitboard lone_;      // steps guarded by exactly one attacker's piece
    mutable core::Bitboard guard_[8];  // lone_'s guard, by the square's index in steps_ (lsb first)
};

/// The outcome of the one-ply test at an attacker's node.
struct MateProbe {
    core::Move move;           // a mating move, or none
    core::Hand proof_hand;     // the least attacker hand with which `move` still mates
    core::Hand disproof_hand;  // without a mate: the most with which none exists
    bool no_check = false;     // the attacker has no legal check at all
};

/// Looks for a checking move that leaves the defender no reply. `pos` is restored.
MateProbe mate_in_one(core::Position& pos, Convention conv);

/// Looks for a mate within `plies` plies (an odd number; exact: a fixed-depth search).
/// When `move` is set, `length` is the length of the mate found (at most `plies`).
struct MateProbe3 {
    core::Move move;
    core::Hand proof_hand;
    core::Hand disproof_hand;  // without a mate
    int length = 0;
};
MateProbe3 mate_within(core::Position& pos, Convention conv, int plies);

}  // namespace hisha::tsume
