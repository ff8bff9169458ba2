// Proof and disproof hands: the attacker's hand a result needs (proof: the least hand that
// still mates) or tolerates (disproof: the most that still fails), so that one TT entry
// answers every hand it dominates or is dominated by (hand superiority).
#pragma once

#include "core/hand.h"
#include "core/move.h"
#include "core/position.h"

namespace hisha::tsume {

/// Per piece type maximum and minimum of two hands.
core::Hand hand_max(core::Hand a, core::Hand b) noexcept;
core::Hand hand_min(core::Hand a, core::Hand b) noexcept;
/// The hand holding the most pieces any hand can hold (the start of a disproof hand).
core::Hand full_hand() noexcept;

/// The attacker's hand after move m of the side to move in pos (unchanged for defender moves).
core::Hand or_hand_after(const core::Position& pos, core::Color attacker, core::Move m) noexcept;

/// The attacker's hand before its move m that corresponds to `after` (a proof or disproof hand
/// of the child): a dropped piece is added back, a captured piece taken out again if present.
core::Hand hand_before(const core::Position& pos, core::Move m, core::Hand after) noexcept;

/// At a mated (AND) position: a defender holding a piece could interpose it, so the proof
/// must keep every such piece the attacker holds (else the defender would hold one).
core::Hand add_blocking_pieces(const core::Position& pos, core::Hand proof) noexcept;

/// At a disproved (OR) position: a piece the attacker lacks might give a new check by a
/// drop, so the disproof holds only without it.
core::Hand remove_checking_pieces(const core::Position& pos, core::Hand disproof) noexcept;

/// At a disproved AND position whose refutation drops piece pt: the defender must still hold
/// one, so the attacker may hold at most all but one of that type.
core::Hand keep_defender_drop(const core::Position& pos, core::PieceType pt, core::Hand disproof) noexcept;

}  // namespace hisha::tsume
