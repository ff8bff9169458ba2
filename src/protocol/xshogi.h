// The text protocol that xshogi speaks with GNU Shogi (docs/protocols.md): the
// lines an engine writes in xshogi mode and how xshogi reads them. xshogi acts on line
// prefixes ("Illegal move", "Black", "White", "Draw", "Hint:", "Clocks:", "warning:") and
// on substrings ("..." is a machine move; "not found", "No such file", "Permission denied",
// "unknown host", "No remote directory" make it give up), so every other line an engine
// writes must avoid them: noise() makes any informational line harmless. The interactive
// program (src/play) drives the dialogue; this file only formats and classifies lines.
#pragma once

#include <string>
#include <string_view>

#include "core/game.h"
#include "core/move.h"

namespace hisha::protocol::xshogi {

/// The first line, "Hisha <version> (GNU Shogi compatible)": xshogi requires "GNU Shogi" in it.
std::string banner();

/// "<n>. <move as typed> <ms>": the echo of an accepted opponent move (xshogi syncs its clock).
std::string user_move_line(int n, std::string_view typed, int ms);
/// "<n>. ... <move> <ms>": the program's move (xshogi plays the third token).
std::string engine_move_line(int n, core::Move m, int ms);
/// "Illegal move (<reason>) <input>": xshogi takes its last move back.
std::string illegal_move_line(std::string_view reason, std::string_view input);
/// "Hint: 7g7f", or "I have no idea." when there is none.
std::string hint_line(core::Move m);
/// "Clocks: <black ms> <white ms>" (the answer to `level`).
std::string clocks_line(int black_ms, int white_ms);
/// "time <cs> <moves>" / "otime <cs> <moves>": tells xshogi that the command exists.
std::string time_ack(bool opponent, int centiseconds, int moves);
/// How a game ended, in words xshogi recognises: "Black mates!", "White mates!",
/// "Drawn game!", or "Black wins (...)" / "White wins (...)" for the other decisive ends.
std::string result_line(const core::GameResult& result);
/// An informational line made harmless: a dangerous first word is prefixed with "# ",
/// "..." becomes ". . ." and the words that make xshogi exit are reworded.
std::string noise(std::string_view line);
/// True when xshogi would act on the line (a test helper and a guard).
bool significant(std::string_view line);

/// What xshogi makes of a line (HandleMachineMove's order of tests).
enum class LineKind { Fatal, Warning, Illegal, Banner, Hint, Clocks, BlackWins, WhiteWins, Draw, Move, Noise };
LineKind classify(std::string_view line);

}  // namespace hisha::protocol::xshogi
