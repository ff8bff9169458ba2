// Japanese spellings of a move for the JSON API (KI2 with its side mark, KIF), kept in a
// translation unit of their own: notation/japanese.h and notation/coordinate.h both declare
// a piece_name() and cannot be included together.
#pragma once

#include <string>

#include "core/move.h"
#include "core/position.h"

namespace hisha::server::proto {

std::string ki2_text(const core::Position& pos, core::Move m, core::Move previous);
std::string kif_text(const core::Position& pos, core::Move m, core::Move previous);

}  // namespace hisha::server::proto
