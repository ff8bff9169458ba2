// Western (Hodges / SHOGI-L) move notation: P-7f, Px7f, P*7f, P'7f, B-3c+, S-3c=, G4a-5b, +R-5b.
//
// Writing (canonical form, one per move):
//   <piece><origin?><movement><destination><promotion?>
//   - piece: P L N S G B R K; a promoted piece is '+' and its unpromoted letter (+P +L +N +S +B +R).
//   - origin: the start square ("G4i-5h"), written only when another piece of the same kind
//     (promoted pieces counted apart) has a legal move to the same square.
//   - movement: '-' for a move, 'x' for a capture, '*' for a drop (never '\'').
//   - promotion: '+' when the move promotes, '=' when it could promote and does not; nothing
//     when promotion was not possible (so "P-7f", never "P-7f=").
//   - no check or mate marks, no spaces.
//
// Reading accepts the canonical form and the variants in use: no movement sign (P7f, the GNU
// Shogi manual's sample game), 'X' for x, '\'' for a drop (SHOGI-L's preferred drop sign), an
// origin as a square, a file or a rank (G4a-5b, G45b, Pg7f), ranks as digits (P76, S72x83+),
// T/H/D for tokin/horse/dragon,
// lower-case letters, spaces between the parts ("P - 7f"), trailing ? and ! marks, and square
// forms (7g7f, 2d2c+). Without a suffix a move does not promote. Strict where it matters:
// 'x' needs a capture and '-' a non-capture, a move that must promote needs '+', an origin is
// needed when two pieces fit. Two tolerances decide only where one reading exists: '+' after
// a move that cannot promote is taken as a check mark if the move gives check (the GNU Shogi
// manual writes check so), and a plain letter (P5c) may name its promoted piece (a tokin)
// when no unpromoted piece fits, as GNU Shogi's own move letters do.
#pragma once

#include <string>
#include <string_view>

#include "notation/coordinate.h"

namespace hisha::notation {

/// Reads a Western move in `pos`; errors give `line` and the column of the offending
/// character, counted from `column` (the column of text[0]).
Result<core::Move, ParseError> parse_western(const core::Position& pos, std::string_view text, int line = 1,
                                             int column = 1);

/// Reads the notation into a MoveSpec without looking at a position.
Result<MoveSpec, ParseError> parse_western_spec(std::string_view text, int line = 1, int column = 1);

/// The canonical Western form of a legal move in `pos` (see the file comment). Specials
/// (resign, win, null) come out in their USI spelling.
std::string write_western(const core::Position& pos, core::Move m);

/// True when the text could begin a Western or coordinate move (a piece letter, '+' and a
/// letter, or a file digit followed by a rank letter); used by record readers to tell moves
/// from words.
bool looks_like_move(std::string_view text);

}  // namespace hisha::notation
