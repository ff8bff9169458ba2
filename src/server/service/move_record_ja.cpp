// The Japanese spelling of a move (KI2 with its side mark, notation::ki2_move_text) for
// move_record.cpp, which declares it in move_record.h and so needs no notation/japanese.h.
#include "notation/japanese.h"
#include "server/service/move_record.h"

namespace hisha::server::service {

std::string ki2_spelling(const core::Position& before, core::Move m, core::Move previous) {
    return notation::ki2_move_text(before, m, previous, true);
}

}  // namespace hisha::server::service
