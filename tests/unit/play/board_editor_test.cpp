// GNU Shogi's edit tokens.
#include <gtest/gtest.h>

#include "core/position.h"
#include "play/board_editor.h"

namespace hisha::play {
namespace {

std::string edit(const std::vector<std::string>& tokens, core::Color side = core::BLACK) {
    core::Position p;
    p.set_startpos();
    BoardEditor ed(p);
    for (const auto& t : tokens) {
        auto r = ed.apply(t);
        EXPECT_TRUE(r.has_value()) << t << ": " << (r ? "" : r.error());
    }
    return ed.sfen(side);
}

TEST(BoardEditor, ClearPlaceAndHands) {
    EXPECT_EQ(edit({"#", "k5i", "p*", "P*", "c", "K5a", "p3b+", "r*"}), "4k4/6+p2/9/9/9/9/9/9/4K4 b 2Pr 1");
}

TEST(BoardEditor, XshogiSendsUpperCaseForBoth) {
    EXPECT_EQ(edit({"#", "K5i", "c", "K5a", "G4a"}, core::WHITE), "4kg3/9/9/9/9/9/9/9/4K4 w - 1");
}

TEST(BoardEditor, WithoutClearTheCurrentPositionIsEdited) {
    EXPECT_EQ(edit({"P7f"}), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
}

TEST(BoardEditor, ErrorsInGnuWords) {
    core::Position p;
    p.set_startpos();
    BoardEditor ed(p);
    EXPECT_EQ(ed.apply("x5e").error(), "# Invalid piece type 'x'");
    EXPECT_EQ(ed.apply("p0z").error(), "# Out-of-board position '0z'");
    EXPECT_FALSE(ed.apply("k*"));
    EXPECT_FALSE(ed.apply("g5e+"));
    EXPECT_EQ(*ed.apply("."), BoardEditor::Step::Done);
}

TEST(SetupRank, NineCharactersRawBoardRowsOrCellsApart) {
    EXPECT_EQ(*setup_rank("LNSGKGSNL"), "lnsgkgsnl");  // upper case White, as on GNU's raw board
    EXPECT_EQ(*setup_rank("..p......"), "2P6");
    EXPECT_EQ(*setup_rank("-R-----B"), "1r5b1");  // short: the rest is empty
    EXPECT_EQ(*setup_rank(" - R - - - - -+b -"), "1r5+B1");
    EXPECT_EQ(*setup_rank("- R - - - - -+b -"), "1r5+B1");  // its leading blank trimmed
    EXPECT_EQ(*setup_rank("L . . . +p . . . l"), "l3+P3L");
}

TEST(SetupRank, BadRanksSayWhy) {
    EXPECT_EQ(setup_rank("LNSGKGSNLL").error(), "'LNSGKGSNLL' is not nine squares");
    EXPECT_EQ(setup_rank("▲７").error(),
              "'▲' is no piece (P L N S G B R K: upper case White, lower case Black; - or . empty)");
    EXPECT_EQ(setup_rank("L . . . +g . . . l").error(), "'+g': that piece does not promote");
}

}  // namespace
}  // namespace hisha::play
