// A move typed by a player, in any notation the program accepts: GNU Shogi's (7g7f, P7f,
// Pg7f, P77f, P*5e, P'5e, 2d2c+, P2c+, `=` to decline), USI (the same squares), Western
// (P-7f, Px7f, P'7f, G4a-5b, +R-5b, S-3c=) and Japanese (▲７六歩, ７六歩(77)). The notation
// modules read and match; this file only decides which reading applies and what is missing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace hisha::play {

struct MoveInput {
    enum class Status {
        Ok,               // `move` is legal
        NotAMove,         // the text is no move in any notation
        Illegal,          // a move, but no legal move fits; `reason` says why
        Ambiguous,        // several pieces fit; `candidates`
        PromotionChoice,  // the input left an optional promotion open; `candidates` = both
    };
    Status status = Status::NotAMove;
    core::Move move;
    std::vector<core::Move> candidates;
    std::string reason;
};

/// Reads a move typed in `pos`. `previous` is the last move (for Japanese 同).
MoveInput read_move_input(const core::Position& pos, std::string_view text,
                          core::Move previous = core::Move::none());

/// True when the text looks like a move rather than a command word (starts like one).
bool looks_like_move_text(std::string_view text);

}  // namespace hisha::play
