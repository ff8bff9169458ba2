// PSN and the game files of xshogi and GNU Shogi: game records (PSN tags + Western movetext,
// and xshogi's "Save Game" files with coordinate moves) read into and written from a
// GameRecord. (xshogi's "Save Position" files, a board diagram, are in diagram.h.)
//
// Reading (one reader for all game files, following xshogi's "Load Game" and PSN):
//   - `#` lines before the moves: the first is the title, `# A vs. B` names the players
//     (Black first), `# SFEN: <sfen>` / `# Handicap: <name>` set the start; the others are
//     kept as a start comment. Plain text lines before the first move (the GNU Shogi manual's
//     preamble) are kept the same way. "Black: A.  White: B." in either names the players.
//   - tags `[Key "value"]`: Sente/Black, Gote/White, Event, Site, Date, Opening, Title,
//     TimeControl, Handicap, SFEN/FEN, Result ("1-0", "0-1", "1/2-1/2", "*"); others are kept
//     under their own name. A tag or `#` line after moves starts the next game.
//   - movetext: move numbers (`12.`, `10...`, `1.P2f`) are skipped; `...` marks an empty slot;
//     moves in Western or GNU coordinate form (western.h); comments in `[ ]` (any `[` that is
//     not a tag), `( )` and `{ }`, attached to the move before them; the result words
//     Resigns, Mate, Black wins, White wins, Draw, Sennichite, Jishogi, 1-0, 0-1, 1/2-1/2, *.
//   - every move is checked by the core; an unknown word or an illegal move is an error with
//     its line and column, never skipped.
// Writing: write_psn gives tags, Western moves (canonical form) and `[ ]` comments; variations
// and move times have no place in PSN and are left out. write_xshogi_game gives the file xshogi
// saves (coordinate moves, five full moves a line, no comments).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "notation/record.h"

namespace hisha::notation {

/// Reads the first game of a PSN, xshogi or GNU Shogi game file.
Result<GameRecord, ParseError> read_psn(std::string_view text);
/// Reads every game of the file.
Result<std::vector<GameRecord>, ParseError> read_psn_games(std::string_view text);

/// PSN: `[Tag "value"]` lines, then numbered Western moves and `[ ]` comments, then the result.
std::string write_psn(const GameRecord& rec);
/// xshogi's game file: `# xshogi game file -- <title>`, `# <black> vs. <white>`, coordinate moves.
std::string write_xshogi_game(const GameRecord& rec);

}  // namespace hisha::notation
