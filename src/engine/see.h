// Static exchange evaluation: would the sequence of captures on a move's destination, each
// side using its least valuable attacker, leave the mover at least `threshold` ahead?
// Drops are moves that capture nothing and put the dropped piece at risk.
#pragma once

#include "core/position.h"
#include "value.h"

namespace hisha::engine {

/// Exchange value of a piece type (board material, promoted pieces at their own value).
int see_value(core::PieceType pt);

/// True when the exchange starting with m gains at least `threshold` for the side to move.
bool see_ge(const core::Position& pos, core::Move m, int threshold);

}  // namespace hisha::engine
