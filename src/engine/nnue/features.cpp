// Feature set KB9: the active features of a position and the changes a move makes.
#include "features.h"

namespace hisha::engine::nnue {

using namespace core;

int active_features(const Position& pos, Color persp, std::uint16_t* out) {
    Frame f = frame_of(pos, persp);
    int n = 0;
    pos.pieces().for_each([&](Square s) { out[n++] = std::uint16_t(board_feature(persp, f, pos.piece_on(s), s)); });
    for (Color owner : {BLACK, WHITE}) {
        Hand h = pos.hand(owner);
        for (int pt = PAWN; pt <= GOLD; ++pt) {
            int count = h.count(PieceType(pt));
            for (int i = 0; i < count && n < MAX_ACTIVE; ++i)
                if (int x = hand_feature(persp, f, owner, PieceType(pt), i); x >= 0)
                    out[n++] = std::uint16_t(x);
        }
    }
    return n;
}

void move_delta(const StateInfo& st, const Frame frames[COLOR_NB], const bool want[COLOR_NB], Hand hands[COLOR_NB],
                FeatureDelta d[COLOR_NB]) {
    Move m = st.move;
    if (!m.is_ok())
        return;  // a null move (or the root's "none")
    Piece after = m.piece_after();
    Color mover = color_of(after);
    Square to = m.to();
    if (m.is_drop()) {
        PieceType pt = m.dropped_piece();
        int held_after = hands[mover].count(pt);  // the dropped piece was number held_after (0-based)
        for (Color c : {BLACK, WHITE})
            if (want[c]) {
                d[c].add(board_feature(c, frames[c], after, to));
                d[c].remove(hand_feature(c, frames[c], mover, pt, held_after));
            }
        hands[mover].add(pt);
        return;
    }
    Square from = m.from();
    Piece before = m.is_promotion() ? demote(after) : after;
    Piece captured = st.captured;
    for (Color c : {BLACK, WHITE})
        if (want[c]) {
            d[c].remove(board_feature(c, frames[c], before, from));
            d[c].add(board_feature(c, frames[c], after, to));
        }
    if (captured != NO_PIECE) {
        PieceType pt = unpromote(type_of(captured));
        int held_after = hands[mover].count(pt);  // the captured piece is number held_after - 1
        for (Color c : {BLACK, WHITE})
            if (want[c]) {
                d[c].remove(board_feature(c, frames[c], captured, to));
                d[c].add(hand_feature(c, frames[c], mover, pt, held_after - 1));
            }
        hands[mover].remove(pt);
    }
}

}  // namespace hisha::engine::nnue
