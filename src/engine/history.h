// Move-ordering statistics learned during search: butterfly history of quiet moves, capture
// history, continuation history, killers and counter-moves. Updated with a gravity formula that keeps values bounded.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/move.h"

namespace hisha::engine {

// A move's "from" index for history: the square, or 81 + piece type for a drop.
constexpr int from_index(core::Move m) { return m.is_drop() ? 81 + m.dropped_piece() : m.from(); }
constexpr int FROM_NB = 81 + 8;

template <int Limit>
struct StatEntry {
    std::int16_t v = 0;
    void update(int bonus) {
        int b = std::clamp(bonus, -Limit, Limit);
        v = std::int16_t(v + b - v * std::abs(b) / Limit);
    }
    operator int() const { return v; }
};

// Continuation history: how good a quiet move (piece after the move, destination) has been
// after a given earlier move (indexed the same way). Entry [0][0] (no piece) is the sentinel
// used when there is no earlier move, or it was a null move.
using PieceToHistory = StatEntry<29952>[32][81];

struct History {
    // [color][from][to]
    StatEntry<7183> main[2][FROM_NB][81];
    // [piece after move][to][captured type]
    StatEntry<10692> capture[32][81][16];
    // [piece][to] of the previous move -> the reply that refuted it
    core::Move counter[32][81];
    // [piece][to] of a move one, two or four plies back -> [piece][to] of the quiet move now
    PieceToHistory continuation[32][81];

    // Correction history: how far the static evaluation has been from what the search found,
    // by side to move and by a hash of the pawn placement, and of the hands (units: 1/32 cp).
    static constexpr int CORRECTION_SIZE = 16384;
    static constexpr int CORRECTION_LIMIT = 16384;
    StatEntry<CORRECTION_LIMIT> pawn_correction[2][CORRECTION_SIZE];
    StatEntry<CORRECTION_LIMIT> hand_correction[2][CORRECTION_SIZE];

    void clear() { std::memset(static_cast<void*>(this), 0, sizeof(*this)); }
};

}  // namespace hisha::engine
