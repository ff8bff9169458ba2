// One-ply mate: try every legal check, look for a position without a legal reply.
#include "mate1ply.h"

#include "core/movegen.h"

namespace hisha::engine {

using namespace core;

Move mate_in_one(Position& pos) {
    Square k = pos.king_square(~pos.side_to_move());
    if (k == SQ_NONE || pos.in_check())
        return Move::none();
    StateInfo st;
    for (const ScoredMove& sm : MoveList<CHECKS>(pos)) {
        Move m = sm.move;
        if (!pos.legal(m))
            continue;
        pos.do_move(m, st);
        bool mate = !has_legal_move(pos);
        pos.undo_move(m);
        if (mate)
            return m;
    }
    return Move::none();
}

}  // namespace hisha::engine
