// Record formats by name: detection from a file name and the content, and reading/writing
// any of them through GameRecord. Used by `hisha convert`, the interactive program's
// load/save, the match runner and the server's record downloads.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "notation/encoding.h"
#include "notation/record.h"

namespace hisha::notation {

enum class Format {
    Sfen,     // "sfen <sfen> [moves ...]" (also a bare SFEN)
    Usi,      // "position startpos|sfen ... [moves ...]"
    Csa,      // CSA V3.0 (read: any version)
    Csa22,    // CSA V2.2 (write)
    Kif,      // KIF (Shift_JIS by default when written to a .kif file)
    Ki2,      // KI2
    Psn,      // PSN tags and Western moves
    Western,  // numbered Western moves with `#` header lines (the seeds' SHOGI-L style)
    Xshogi,   // xshogi's game file (coordinate moves)
};

const char* format_name(Format f);
/// "kif", "KIF", "csa", "ki2", "psn", "western", "sfen", "usi", "xshogi", "csa2.2", "kifu", "ki2u".
std::optional<Format> format_from_name(std::string_view name);
/// From a file name's extension (.kif .kifu .ki2 .ki2u .csa .psn .gam .sfen .usi), if known.
std::optional<Format> format_from_extension(std::string_view path);
/// From the content (the bytes may be Shift_JIS).
Format detect_format(std::string_view bytes);

/// Reads a record of any format; `path` (may be empty) helps detection.
Result<GameRecord, ParseError> read_record(std::string_view bytes, std::string_view path = {});
/// Writes a record; Japanese formats honour `enc`, the others are ASCII or UTF-8.
std::string write_record(const GameRecord& rec, Format f, Encoding enc = Encoding::Utf8);

}  // namespace hisha::notation
