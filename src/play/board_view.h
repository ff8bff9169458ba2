// The board as text for the raw and curses displays: the seeds' diagram (files 9..1 above,
// ranks a..i at the right, cells "bP"/"wP" with "+" for a promoted piece, pieces in hand
// above and below), an upper/lower-case letter board (upper case Black, as in SFEN) and a
// kanji board (BOD style, "v" before White's pieces, 王 for White's king and 玉 for Black's).
// Coordinates can be hidden and the board turned round (Black at the top).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace hisha::play {

enum class PieceStyle { Ascii, Letters, Kanji };

struct BoardStyle {
    PieceStyle pieces = PieceStyle::Ascii;
    bool coords = true;
    bool reverse = false;  // Black's pieces at the top
    bool compact = false;  // ascii without the lines between the ranks (curses)
};

const char* piece_style_name(PieceStyle s);
/// The style `pieces` names ("ascii", "letters" or "case", "kanji").
std::optional<PieceStyle> piece_style_named(std::string_view name);

/// The board with both hands, one string per line (no newlines).
std::vector<std::string> board_lines(const core::Position& pos, const BoardStyle& style);
/// The pieces in hand: "R 2G 5P" (ascii and letters) or "飛 金二 歩五" (kanji); "-" / "なし" when empty.
std::string hand_text(core::Hand h, PieceStyle style);
/// "Black in hand: R 2P" / "先手の持駒：飛 歩二".
std::string hand_line(const core::Position& pos, core::Color c, PieceStyle style);
/// Terminal columns of a line (kanji count two).
int text_width(std::string_view s);

}  // namespace hisha::play
