// Japanese spellings of a move for the JSON API (KI2 with its side mark, KIF): thin wrappers
// of notation::ki2_move_text and notation::kif_move_text (move_text.cpp includes
// notation/japanese.h), so json_api.cpp needs only this header for them.
#pragma once

#include <string>

#include "core/move.h"
#include "core/position.h"

namespace hisha::server::proto {

std::string ki2_text(const core::Position& pos, core::Move m, core::Move previous);
std::string kif_text(const core::Position& pos, core::Move m, core::Move previous);

}  // namespace hisha::server::proto
