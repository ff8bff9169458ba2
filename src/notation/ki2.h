// KI2 game records (newspaper style, kif.md §6): the headers, handicaps, comments and
// variations of KIF, with moves such as ▲７六歩 △５二金右 ▲同　銀 written several to a line,
// no ply numbers, no times, and the result only in the closing まで line.
#pragma once

#include <string>
#include <string_view>

#include "notation/encoding.h"
#include "notation/record.h"

namespace hisha::notation {

/// Reads a KI2 (.ki2 Shift_JIS, .ki2u UTF-8) file; 右/左/直/上/寄/引/打 are resolved against the
/// pieces that can reach the square, and every move is checked by the core as it is read.
Result<GameRecord, ParseError> read_ki2(std::string_view bytes);
/// Writes KI2 with exactly the modifiers the JSA rules require, six moves to a line.
std::string write_ki2(const GameRecord& rec, Encoding enc = Encoding::Utf8);

}  // namespace hisha::notation
