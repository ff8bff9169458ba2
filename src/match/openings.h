// Openings of a match: start positions (with moves already played) that every pair of
// engines plays twice, once with each colour. Read from a text file of SFEN / USI position
// lines or handicap names, from game records in any format the notation module reads
// (KIF, KI2, CSA, PSN, xshogi game files), or from a directory of such records.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/move.h"
#include "core/result.h"

namespace hisha::match {

struct Opening {
    std::string name;              // where it came from: "book.sfen:12", "game1.kif"
    std::string start_sfen;        // the start position (a handicap's own position)
    std::vector<core::Move> moves; // played before the engines take over
};

/// One line of an openings text file: an SFEN, `position startpos|sfen ... [moves ...]`,
/// `startpos moves ...`, an SFEN followed by `moves ...`, or a handicap name ("2-piece",
/// "handicap lance", "香落ち"). Nothing for a blank or `#` comment line.
core::Result<std::vector<Opening>, std::string> parse_opening_line(std::string_view line, std::string name);

/// Reads openings from a file or a directory. Records are recognised by their extension
/// (.kif .kifu .ki2 .ki2u .csa .psn .pgn .game); any other file is read as lines, and if its
/// first line is no position, as a record in whichever format reads it. `max_plies` > 0 keeps
/// only the first moves of each opening.
core::Result<std::vector<Opening>, std::string> load_openings(const std::string& path, int max_plies = 0);

/// The even start position with no moves.
Opening startpos_opening();

}  // namespace hisha::match
