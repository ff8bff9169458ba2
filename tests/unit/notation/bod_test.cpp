// BOD diagrams: reading the variants real files use, writing (golden files), the round trip
// over positions from random games, and every error with its line and column.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "core/movegen.h"
#include "notation/bod.h"
#include "test_files.h"

namespace hisha::notation {
namespace {

const std::string LOCAL = HISHA_TEST_DATA_LOCAL;

// Compares with a golden file; HISHA_UPDATE_GOLDEN=1 rewrites it instead.
void expect_golden(const std::string& text, const std::string& name) {
    std::string path = LOCAL + "/notation/bod/" + name;
    testing::expect_golden(text, path);
}

const char* SHOGIDOKORO = "# KIF形式棋譜ファイル\n"
                          "後手の持駒：飛　金三　銀三　桂二　香四　歩十三\n"
                          "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
                          "+---------------------------+\n"
                          "| ・ ・ ・ ・ 馬 ・ ・v桂 ・|一\n"
                          "| ・ ・ ・ ・ ・ ・ ・v玉 ・|二\n"
                          "| ・ ・ ・ ・ ・ ・v歩v歩 ・|三\n"
                          "| ・ ・ ・ ・ ・ ・ ・v金v歩|四\n"
                          "| ・ ・ ・ ・ 歩 ・ ・ ・ 歩|五\n"
                          "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
                          "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
                          "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
                          "| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n"
                          "+---------------------------+\n"
                          "先手の持駒：飛　角　銀　桂\n";

std::string startpos_bod(std::string black_hand, std::string white_hand, std::string trailer) {
    return "後手の持駒：" + white_hand
         + "\n"
           "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
           "+---------------------------+\n"
           "|v香v桂v銀v金v玉v金v銀v桂v香|一\n"
           "| ・v飛 ・ ・ ・ ・ ・v角 ・|二\n"
           "|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三\n"
           "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
           "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
           "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
           "| 歩 歩 歩 歩 歩 歩 歩 歩 歩|七\n"
           "| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八\n"
           "| 香 桂 銀 金 玉 金 銀 桂 香|九\n"
           "+---------------------------+\n"
           "先手の持駒："
         + black_hand + "\n" + trailer;
}

TEST(BodRead, ShogidokoroDiagram) {
    auto sfen = read_bod(SHOGIDOKORO);
    ASSERT_TRUE(sfen.has_value()) << sfen.error().to_string();
    EXPECT_EQ(*sfen, "4+B2n1/7k1/6pp1/7gp/4P3P/9/9/9/9 b RBSNr3g3s2n4l13p 1");
}

TEST(BodRead, StartPositionAndTrailers) {
    auto even = read_bod(startpos_bod("なし", "なし", ""));
    ASSERT_TRUE(even.has_value()) << even.error().to_string();
    EXPECT_EQ(*even, std::string(core::START_SFEN));
    auto white = read_bod(startpos_bod("なし", "なし", "手数＝12  ▲２六歩  まで\n後手番\n"));
    ASSERT_TRUE(white.has_value()) << white.error().to_string();
    EXPECT_EQ(*white, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 13");
    auto uwate = read_bod(startpos_bod("なし", "なし", "上手番\n"));
    ASSERT_TRUE(uwate.has_value());
    EXPECT_EQ(uwate->substr(uwate->find(' ')), " w - 1");
}

TEST(BodRead, HandVariants) {
    // Counts in kanji, half-width spaces, no separators at all (read by Kifu for Windows and
    // ShogiGUI, ShogiHome issue #572) and 下手/上手 names. The hands need not be a full set.
    const std::string empty_board = "| ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n"
                                    "| ・ ・ ・ ・v玉 ・ ・ ・ ・|二\n"
                                    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n"
                                    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
                                    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
                                    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
                                    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
                                    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
                                    "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n";
    auto a = read_bod("上手の持駒：歩十八 香 桂二\n" + empty_board + "下手の持駒：飛角金二\n");
    ASSERT_TRUE(a.has_value()) << a.error().to_string();
    EXPECT_EQ(*a, "9/4k4/9/9/9/9/9/9/4K4 b RB2G2nl18p 1");
    auto rest = read_bod("後手の持駒：残りの駒全部\n" + empty_board + "先手の持駒：金\n");
    ASSERT_TRUE(rest.has_value()) << rest.error().to_string();
    EXPECT_EQ(*rest, "9/4k4/9/9/9/9/9/9/4K4 b G2r2b3g4s4n4l18p 1");
}

TEST(BodWrite, GoldenFiles) {
    auto start = write_bod(core::START_SFEN);
    ASSERT_TRUE(start.has_value());
    expect_golden(*start, "startpos.bod");
    auto dokoro = write_bod("4+B2n1/7k1/6pp1/7gp/4P3P/9/9/9/9 b RBSNr3g3s2n4l13p 1");
    ASSERT_TRUE(dokoro.has_value());
    expect_golden(*dokoro, "shogidokoro.bod");
    auto matsuri = write_bod("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 37");
    ASSERT_TRUE(matsuri.has_value());
    expect_golden(*matsuri, "matsuri.bod");
}

TEST(BodWrite, RandomGamesRoundTrip) {
    std::mt19937 rng(7);
    for (int game = 0; game < 20; ++game) {
        core::Position pos;
        for (int ply = 0; ply < 150; ++ply) {
            auto sfen = read_bod(write_bod(pos));
            ASSERT_TRUE(sfen.has_value()) << pos.sfen() << ": " << sfen.error().to_string();
            EXPECT_EQ(*sfen, pos.sfen());
            core::MoveList<core::LEGAL, true> list(pos);
            if (list.size() == 0)
                break;
            pos.play(list.begin()[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(rng)].move);
        }
    }
}

TEST(BodErrors, MessagesWithLineAndColumn) {
    struct Case {
        std::string text;
        std::string message;
    };
    std::string good = startpos_bod("なし", "なし", "");
    auto with_line = [&](int line_index, std::string replacement) {
        std::string out;
        std::istringstream in(good);
        std::string l;
        for (int i = 0; std::getline(in, l); ++i)
            out += (i == line_index ? replacement : l) + "\n";
        return out;
    };
    const Case cases[] = {
        {with_line(4, "| ・v飛 ・ ・ ・ ・ ・v象 ・|二"), "line 5, col 17: BOD: unknown piece on the board"},
        {with_line(4, "| ・v飛 ・ ・ ・ ・ ・x角 ・|二"), "line 5, col 16: BOD: a square must start with ' ' or 'v'"},
        {with_line(4, "| ・v飛 ・ ・ ・ ・ ・v角|二"), "line 5, col 18: BOD: a square must start with ' ' or 'v'"},
        {with_line(4, "| ・v飛 ・ ・ ・ ・ ・v角 ・ ・|二"),
         "line 5, col 20: BOD: a row must hold 9 squares and end with '|'"},
        {with_line(4, "| ・v飛 ・ ・ ・ ・ ・v角 ・|一"), "line 5, col 21: BOD: rank 1 given twice"},
        {with_line(4, ""), "line 12, col 1: BOD: the board has 8 rows, not 9"},
        {with_line(0, "後手の持駒：象"), "line 1, col 7: BOD: unknown piece in hand"},
        {with_line(0, "後手の持駒：歩十九"), "line 1, col 7: BOD: too many 歩 in hand"},
        {with_line(0, "後手の持駒：龍"), "line 1, col 7: BOD: unknown piece in hand"},
        {with_line(6, "| 玉 ・ ・ ・ ・ ・ ・ ・ ・|四"), "line 1, col 1: BOD: two Black kings"},
        {"先手：羽生\n", "BOD: no board diagram"},
    };
    for (const auto& c : cases) {
        auto r = read_bod(c.text);
        ASSERT_FALSE(r.has_value()) << c.message;
        EXPECT_EQ(r.error().to_string(), c.message);
    }
    auto bad_sfen = write_bod("not an sfen");
    EXPECT_FALSE(bad_sfen.has_value());
}

}  // namespace
}  // namespace hisha::notation
