#include "server/proto/move_text.h"

#include "notation/japanese.h"

namespace hisha::server::proto {

std::string ki2_text(const core::Position& pos, core::Move m, core::Move previous) {
    return notation::ki2_move_text(pos, m, previous, true);
}

std::string kif_text(const core::Position& pos, core::Move m, core::Move previous) {
    return notation::kif_move_text(pos, m, previous);
}

}  // namespace hisha::server::proto
