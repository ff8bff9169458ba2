// Move generation. Engine stages (captures and promotions, quiets, evasions, checks) produce
// pseudo-legal moves that still need Position::legal(); LEGAL filters them. The template
// flag `All` adds the non-promotions of pawn, bishop and rook (and of a lance to the second
// last rank), which are legal but never better: a rules-complete generator (perft, server,
// records) must use All = true; an engine may leave them out.
#pragma once

#include "assert.h"
#include "move.h"
#include "position.h"

namespace hisha::core {

enum GenType {
    CAPTURES,      // captures (every promotion choice) and non-capturing promotions
    QUIETS,        // non-captures that do not promote, and drops
    NON_EVASIONS,  // CAPTURES + QUIETS, when not in check
    EVASIONS,      // when in check: king moves, captures of the checker, interpositions
    CHECKS,        // moves that give check (evasions when in check)
    QUIET_CHECKS,  // QUIETS that give check
    LEGAL,         // every legal move
};

template <GenType T, bool All = false>
ScoredMove* generate(const Position& pos, ScoredMove* list);

/// A fixed-capacity list of the moves of one generation stage.
template <GenType T, bool All = false>
struct MoveList {
    explicit MoveList(const Position& pos) : last_(generate<T, All>(pos, moves_)) {
        HISHA_ASSERT(1, last_ - moves_ <= MAX_MOVES);
    }
    const ScoredMove* begin() const { return moves_; }
    const ScoredMove* end() const { return last_; }
    std::size_t size() const { return std::size_t(last_ - moves_); }
    bool contains(Move m) const {
        for (const ScoredMove* it = moves_; it != last_; ++it)
            if (it->move == m)
                return true;
        return false;
    }

private:
    // Left uninitialised: the generator writes what it uses (zeroing 600 entries per node
    // would cost more than generating the moves).
    union {
        ScoredMove moves_[MAX_MOVES];
    };
    ScoredMove* last_;
};

/// True when the side to move has at least one legal move.
bool has_legal_move(const Position& pos);

/// Perft: the number of leaf nodes of the legal move tree (All = true) at `depth`, counting
/// the last ply in bulk.
std::uint64_t perft(Position& pos, int depth);

}  // namespace hisha::core
