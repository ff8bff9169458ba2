// GNU Shogi's own save file (what its `save` writes and its `get` reads), so that a game
// moves between `hisha` and `gnushogi` both ways: a header naming the human side (the side
// to move) and force mode, the clocks, the board (rank a first, file 9 first, upper case
// White), both hands, then one line per move with its flags and the piece it captured (GNU
// Shogi takes moves back with these).
#pragma once

#include <string>
#include <string_view>

#include "core/game.h"
#include "core/result.h"
#include "notation/record.h"

namespace hisha::play {

/// The text starts like a GNU Shogi save file ("White ... Black ..." then "TimeControl").
bool is_gnu_save(std::string_view text);

/// Reads a save file: the game from the start position when its moves lead from there to its
/// board (take-backs then work), else its position alone (`moves_kept` says which).
struct GnuSave {
    notation::GameRecord record;
    bool force = false;
    bool moves_kept = false;
};
core::Result<GnuSave, std::string> read_gnu_save(std::string_view text);

/// The game as GNU Shogi saves it; the side to move is the human one.
std::string write_gnu_save(const core::Game& game, bool force);

}  // namespace hisha::play
