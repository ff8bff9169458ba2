// The CSA record format (.csa): reading V1 (no version line), V2, V2.1, V2.2 and V3.0 into a
// GameRecord, writing V2.2 and V3.0, and the CSA move form `+7776FU` on its own, which the CSA
// client and server protocols share with the files.
#pragma once

#include <string>
#include <string_view>

#include "record.h"

namespace hisha::notation {

enum class CsaVersion { V2_2, V3_0 };

/// Reads a CSA record from raw file bytes (Shift_JIS or UTF-8, detected; CR LF, `\r\r\n`,
/// blank lines and trailing spaces are accepted).
///
/// - `N+`/`N-` become key::BLACK/WHITE; `$EVENT`, `$SITE`, `$START_TIME`, `$END_TIME`,
///   `$OPENING`, `$NOTE` and `$TIME_LIMIT` (V2.2) / `$TIME` (V3.0) become the common keys;
///   every other `$KEY` is kept under its own name, dollar sign included ("$MAX_MOVES").
/// - The start (`PI` with removed pieces, `P1`..`P9`, `P+`/`P-` with `00AL`) ends at the
///   `+`/`-` line; a standard handicap is recognised and set in `handicap`.
/// - Every move is checked by the core as it is read; a move that names another piece than
///   the one on its square is refused, except the promoted name, which means "promotes".
///   The first bad move is an error with its line and column: the reader never drops moves.
/// - `T` times (also fractional, V3.0) go to the move, or to the result after a `%` line.
/// - Comments keep their text after the apostrophe verbatim (`'*` and `'**` marks
///   included): before the first move they go to start_comments, later to the move they
///   follow (after the special move, to the last move).
/// - The first `%` special ends the game and becomes the result; a repeated special after it
///   (Floodgate logs repeat `%KACHI`) is ignored, a move after it is an error. %FUZUMI,
///   %ERROR and %MATTA have no counterpart in RecordResult and read as an abort.
/// - A file holding several records separated by `/` lines yields the first one only.
/// Nothing is judged: a record without a special move has no result, even if its last
/// move repeats a position for the fourth time (replay() it through a core::Game to judge).
Result<GameRecord, ParseError> read_csa(std::string_view bytes);

/// Writes a record as CSA text (UTF-8; V3.0 opens with `'CSA encoding=UTF-8`, V2.2 with
/// `'encoding=UTF-8` only when the text is not plain ASCII). The start is `PI` (with the
/// removed pieces for a standard handicap) or `P1`..`P9` and `P+`/`P-`; times are whole
/// seconds in V2.2 (rounded down) and seconds with up to three decimals in V3.0. Headers
/// CSA has no field for are left out. The output is deterministic.
std::string write_csa(const GameRecord& rec, CsaVersion version = CsaVersion::V3_0);

/// The CSA form of a move: `+7776FU`, `-0034KA`, `+2822RY` (the piece after the move).
std::string format_csa_move(core::Move m);
/// Parses and checks one CSA move (`+7776FU`) in a position; the error's column is 1-based
/// within `text` and its line is 0.
Result<core::Move, ParseError> parse_csa_move(const core::Position& pos, std::string_view text);

}  // namespace hisha::notation
