// USI moves and position strings: "7g7f", "2d2c+", "P*5e" read in a position (every move
// checked by the core), and "position startpos|sfen <sfen> [moves ...]" read into and written
// from a GameRecord. Writing a move is core::to_usi.
#pragma once

#include <string>
#include <string_view>

#include "notation/record.h"

namespace hisha::notation {

/// Reads a USI move in `pos`. A malformed move is a BadMove error at the 1-based column of the
/// first wrong character, counted from `column` (the column of text[0]); a well-formed move
/// that the rules refuse is an IllegalMove error with the core's reason. USI has no `=`: a
/// move without `+` does not promote. Drops take an upper-case letter for both sides.
Result<core::Move, ParseError> parse_usi_move(const core::Position& pos, std::string_view text, int line = 1,
                                              int column = 1);

/// The USI form of a move (core::to_usi): "7g7f", "2d2c+", "P*5e".
std::string write_usi_move(core::Move m);

/// Reads `position startpos [moves m1 m2 ...]`, `position sfen <sfen> [moves ...]`, the same
/// without the word `position`, or a bare SFEN (optionally followed by `moves ...`). Every
/// move is checked by the core; an error names the move's index ("move 3: ...") and column.
/// A start that is a standard handicap position sets the record's handicap.
Result<GameRecord, ParseError> parse_usi_position(std::string_view text, int line = 1);

/// `position startpos [moves ...]` for the even start, else `position sfen <sfen> [moves ...]`.
/// The `moves` keyword is left out when there are none.
std::string write_usi_position(const GameRecord& rec);

}  // namespace hisha::notation
