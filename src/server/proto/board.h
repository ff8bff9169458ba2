// Boards drawn as Shoogi Server draws them: ASCII (Black upper case, White lower case, '+'
// for promoted pieces), mixed kanji/romaji and kanji styles (SET BSTYLE), video attributes
// for Black's, White's and threatened pieces (SET BLACK/WHITE/THREATENED), and the board
// seen from either side.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace hisha::server::proto {

struct BoardStyle {
    int style = 0;              // 0 ASCII, 1 kanji for Black and romaji for White, 2 kanji
    bool old_dragon = false;    // SET DRAGON OLD: 龍 instead of 竜
    std::string black_attr, white_attr, threatened_attr;  // ANSI SGR parameters ("" none)
};

/// The 003 board diagram with both hands; `from_white` turns it round.
std::string draw_board(const core::Position& pos, const BoardStyle& style, bool from_white);

/// Video attribute names (SET BLACK ?): NONE BOLD U(NDERLINE) BLINK REV(ERSE) and colours.
/// Returns the SGR parameter ("" for NONE) or nullopt-like "?" for an unknown name.
std::string attribute_code(std::string_view name);
std::vector<std::string> attribute_names();

}  // namespace hisha::server::proto
