// The Japanese spelling of a move, in a translation unit of its own: notation/japanese.h and
// notation/coordinate.h both declare a piece_name() and cannot be included together.
#include "notation/japanese.h"
#include "server/service/move_record.h"

namespace hisha::server::service {

std::string ki2_spelling(const core::Position& before, core::Move m, core::Move previous) {
    return notation::ki2_move_text(before, m, previous, true);
}

}  // namespace hisha::server::service
