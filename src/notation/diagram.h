// Board diagrams as text: xshogi's position file (the "Save Position" / "Load Position"
// format), and the e-mail board diagram of SHOGI-L correspondence play (seed 002): a 9x9 ASCII board with
// cells "wL" / "bP" ("+bL" promoted), file numbers above, rank letters at the right, and the
// pieces in hand in boxes beside the board ("White in hand:" at the top, "Black in hand:" at
// the bottom). Written exactly in the seed's layout, plus one line for the side to move and
// the move number; read back tolerantly (any text before and after, a border missing its
// last '+', hand boxes anywhere to the right of the board).
//
// Hands are written in the order R B G S N L P, a count before a letter held more than once
// ("R 2G 5P"), wrapped over the two lines of a box. Reading also takes "P5", "Px5", "bP"/"wP"
// and commas; "-" or an empty box is an empty hand.
#pragma once

#include <string>
#include <string_view>

#include "notation/record.h"

namespace hisha::notation {

/// Reads xshogi's position file (nine board rows of two-character squares, two hand lines of
/// P L N S G B R K counts, "black to play" / "white to play") into an SFEN with move number 1
/// (the file has none). Leading `#` and blank lines are skipped, so gnushogi's three-line
/// header reads too.
Result<std::string, ParseError> read_xshogi_position(std::string_view text);
/// Which program's header a position file gets: xshogi's "Save Position" writes two lines
/// (`# xshogi position file -- <title>` and `#`), gnushogi's `xsave` the first and two empty
/// lines; each program skips its own count when reading.
enum class PositionFileHeader { Xshogi, Gnushogi };
/// The position file xshogi's "Save Position" (or gnushogi's `xsave`) writes.
std::string write_xshogi_position(const core::Position& pos, std::string_view title = "Hisha",
                                  PositionFileHeader header = PositionFileHeader::Xshogi);

/// The e-mail diagram of a position, ending with "Black to move (move N)" / "White to move (move N)".
std::string write_diagram(const core::Position& pos);

/// Reads a diagram into an SFEN. Without a "... to move" line the side is Black and the move
/// number 1 (the seed's diagram has none). Errors name the line and column of the bad cell,
/// token or rank.
Result<std::string, ParseError> read_diagram(std::string_view text);

}  // namespace hisha::notation
