// The board displays: the GNU Shogi manual's opening diagram, reversal, coordinates, the
// letter and kanji styles, and hands.
#include <gtest/gtest.h>

#include "core/position.h"
#include "play/board_view.h"

namespace hisha::play {
namespace {

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}

std::unique_ptr<core::Position> start_ptr() {
    auto p = std::make_unique<core::Position>();
    p->set_startpos();
    return p;
}
#define start() (*start_ptr())

// The manual's "The opening setup" diagram (000), between the two hand lines.
const char* const MANUAL_SETUP =
    "   9    8    7    6    5    4    3    2    1\n"
    "+--------------------------------------------+\n"
    "| wL | wN | wS | wG | wK | wG | wS | wN | wL |  a\n"
    "+--------------------------------------------+\n"
    "|    | wR |    |    |    |    |    | wB |    |  b\n"
    "+--------------------------------------------+\n"
    "| wP | wP | wP | wP | wP | wP | wP | wP | wP |  c\n"
    "+--------------------------------------------+\n"
    "|    |    |    |    |    |    |    |    |    |  d\n"
    "+--------------------------------------------+\n"
    "|    |    |    |    |    |    |    |    |    |  e\n"
    "+--------------------------------------------+\n"
    "|    |    |    |    |    |    |    |    |    |  f\n"
    "+--------------------------------------------+\n"
    "| bP | bP | bP | bP | bP | bP | bP | bP | bP |  g\n"
    "+--------------------------------------------+\n"
    "|    | bB |    |    |    |    |    | bR |    |  h\n"
    "+--------------------------------------------+\n"
    "| bL | bN | bS | bG | bK | bG | bS | bN | bL |  i\n"
    "+--------------------------------------------+\n";

TEST(BoardView, AsciiIsTheManualsOpeningDiagram) {
    auto lines = board_lines(start(), BoardStyle{});
    ASSERT_GE(lines.size(), 3u);
    EXPECT_EQ(lines.front(), "White in hand: -");
    EXPECT_EQ(lines.back(), "Black in hand: -");
    std::vector<std::string> inner(lines.begin() + 1, lines.end() - 1);
    EXPECT_EQ(joined(inner), MANUAL_SETUP);
}

TEST(BoardView, ReverseTurnsTheBoardRound) {
    BoardStyle s;
    s.reverse = true;
    auto lines = board_lines(start(), s);
    EXPECT_EQ(lines.front(), "Black in hand: -");
    EXPECT_EQ(lines[1], "   1    2    3    4    5    6    7    8    9");
    EXPECT_EQ(lines[3], "| bL | bN | bS | bG | bK | bG | bS | bN | bL |  i");
    EXPECT_EQ(lines[5], "|    | bR |    |    |    |    |    | bB |    |  h");
    EXPECT_EQ(lines.back(), "White in hand: -");
}

TEST(BoardView, CoordinatesCanBeHidden) {
    BoardStyle s;
    s.coords = false;
    auto lines = board_lines(start(), s);
    EXPECT_EQ(lines[1], "+--------------------------------------------+");
    EXPECT_EQ(lines[2], "| wL | wN | wS | wG | wK | wG | wS | wN | wL |");
}

TEST(BoardView, PromotedPiecesAndHands) {
    core::Position p;
    ASSERT_TRUE(p.set("4k4/6+P2/9/9/9/9/9/1+b7/4K4 b 2RG5Pn 1"));
    auto lines = board_lines(p, BoardStyle{});
    EXPECT_EQ(lines.front(), "White in hand: N");
    EXPECT_EQ(lines[5], "|    |    |    |    |    |    |+bP |    |    |  b");
    EXPECT_EQ(lines[17], "|    |+wB |    |    |    |    |    |    |    |  h");
    EXPECT_EQ(lines.back(), "Black in hand: 2R G 5P");
}

TEST(BoardView, LettersAreUpperCaseForBlack) {
    BoardStyle s;
    s.pieces = PieceStyle::Letters;
    auto lines = board_lines(start(), s);
    EXPECT_EQ(lines[1], "    9  8  7  6  5  4  3  2  1");
    EXPECT_EQ(lines[2], "  +---------------------------+");
    EXPECT_EQ(lines[3], "  | l  n  s  g  k  g  s  n  l | a");
    EXPECT_EQ(lines[4], "  | .  r  .  .  .  .  .  b  . | b");
    EXPECT_EQ(lines[11], "  | L  N  S  G  K  G  S  N  L | i");
}

TEST(BoardView, KanjiUsesTwoKingsAndJapaneseHands) {
    core::Position p;
    ASSERT_TRUE(p.set("lnsgkgsnl/1r5b1/ppppppp2/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P2p 1", core::SfenRules::Relaxed));
    BoardStyle s;
    s.pieces = PieceStyle::Kanji;
    auto lines = board_lines(p, s);
    EXPECT_EQ(lines[0], "後手の持駒：歩二");
    EXPECT_EQ(lines[1], "  ９ ８ ７ ６ ５ ４ ３ ２ １");
    EXPECT_EQ(lines[3], "|v香v桂v銀v金v王v金v銀v桂v香|一");
    EXPECT_EQ(lines[4], "| ・v飛 ・ ・ ・ ・ ・v角 ・|二");
    EXPECT_EQ(lines[11], "| 香 桂 銀 金 玉 金 銀 桂 香|九");
    EXPECT_EQ(lines.back(), "先手の持駒：歩");
    EXPECT_EQ(text_width(lines[3]), text_width(lines[2]) + 2);
}

TEST(BoardView, HandText) {
    core::Hand h;
    EXPECT_EQ(hand_text(h, PieceStyle::Ascii), "-");
    EXPECT_EQ(hand_text(h, PieceStyle::Kanji), "なし");
    h.add(core::PAWN, 3);
    h.add(core::ROOK);
    EXPECT_EQ(hand_text(h, PieceStyle::Ascii), "R 3P");
    EXPECT_EQ(hand_text(h, PieceStyle::Kanji), "飛 歩三");
}

}  // namespace
}  // namespace hisha::play
