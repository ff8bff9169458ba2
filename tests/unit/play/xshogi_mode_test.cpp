// xshogi mode (-X) in-process: the banner, GNU Shogi's inverted black/white + go, the edit
// sub-protocol with the side to move given by white/black, the program mating, results,
// and lines that xshogi must never misread (a "GNU Shogi" in noise is harmless: it only
// tells xshogi that the program is recent enough).
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "core/position.h"
#include "notation/usi.h"
#include "play_driver.h"
#include "protocol/xshogi.h"

namespace hisha::play {
namespace {

namespace xs = protocol::xshogi;
using testing::lines_of;
using testing::run_script;

std::vector<std::string> xrun(const std::string& input) { return lines_of(run_script(input, {"-X", "40", "5"})); }

// The machine moves of a conversation ("n. ... move ms").
std::vector<std::string> machine_moves(const std::vector<std::string>& lines) {
    std::vector<std::string> out;
    std::regex re(R"(^\d+\. \.\.\. (\S+) -?\d+$)");
    for (const auto& l : lines) {
        std::smatch m;
        if (std::regex_match(l, m, re))
            out.push_back(m[1]);
    }
    return out;
}

void expect_nothing_misread(const std::vector<std::string>& lines) {
    for (std::size_t i = 1; i < lines.size(); ++i) {
        xs::LineKind k = xs::classify(lines[i]);
        EXPECT_NE(k, xs::LineKind::Fatal) << lines[i];
        EXPECT_NE(k, xs::LineKind::Warning) << lines[i];
    }
}

TEST(XshogiMode, BannerFirstAndSilentInitString) {
    auto lines = xrun("beep\neasy\nrandom\nnew\n");
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0], xs::banner());
}

TEST(XshogiMode, BlackGoMakesTheProgramPlayBlackNow) {
    auto lines = xrun("depth 2\nblack\ngo\n");
    auto moves = machine_moves(lines);
    ASSERT_EQ(moves.size(), 1u);
    core::Position p;
    p.set_startpos();
    EXPECT_TRUE(notation::parse_usi_move(p, moves[0]).has_value()) << moves[0];
    expect_nothing_misread(lines);
}

TEST(XshogiMode, DefaultProgramIsWhiteAndAnswersAMove) {
    auto lines = xrun("depth 2\ntime 30000\notime 30000\n7g7f\n");
    EXPECT_EQ(lines[1], "time 30000 0");
    EXPECT_EQ(lines[2], "otime 30000 0");
    EXPECT_TRUE(std::regex_match(lines[3], std::regex(R"(1\. 7g7f \d+)"))) << lines[3];
    ASSERT_EQ(machine_moves(lines).size(), 1u);
    expect_nothing_misread(lines);
}

TEST(XshogiMode, EditThenWhiteGoAndTheProgramMates) {
    // xshogi's Load Position for White to move sends white and force, then the board.
    auto lines = xrun("depth 3\nwhite\nforce\nedit\n#\nK5i\nc\nK5a\nG5g\nG*\n.\nwhite\ngo\n");
    auto moves = machine_moves(lines);
    ASSERT_EQ(moves.size(), 1u);
    EXPECT_EQ(moves[0], "G*5h");
    EXPECT_EQ(lines.back(), "White mates!");
    expect_nothing_misread(lines);
}

TEST(XshogiMode, TheFirstMoveOfASetUpPositionTellsWhoMoves) {
    // After Edit Position with White to play xshogi sends no white: the move itself says it.
    auto lines = xrun("force\nedit\n#\nK5i\nc\nK5a\n.\nforce\n5a4a\n");
    ASSERT_GE(lines.size(), 2u);
    EXPECT_TRUE(std::regex_match(lines.back(), std::regex(R"(1\. 5a4a \d+)"))) << lines.back();
}

TEST(XshogiMode, LevelAnswersClocksAndHintAnswersAMove) {
    auto lines = xrun("depth 2\nlevel 40 5\nhint\nlevel 0 0:30\n");
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[1], "Clocks: 300000 300000");
    EXPECT_TRUE(std::regex_match(lines[2], std::regex(R"(Hint: \S+)"))) << lines[2];
    EXPECT_EQ(lines[3], "Clocks: 0 0");
}

TEST(XshogiMode, IllegalMovesAndUnknownWords) {
    auto lines = xrun("7g7e\nbogus\nP*5e\n");
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[1], "Illegal move (the piece on 7g cannot move to 7e) 7g7e");
    EXPECT_EQ(lines[2], "Illegal move (no match) bogus");
    EXPECT_EQ(xs::classify(lines[3]), xs::LineKind::Illegal);
}

TEST(XshogiMode, NoPromotionQuestion) {
    auto lines = xrun("force\n7g7f\n3c3d\n8h2b\nsfen\n");
    // Without '+' the move does not promote (xshogi adds '+' itself).
    EXPECT_NE(lines.back().find("/1r5B1/"), std::string::npos) << lines.back();
}

TEST(XshogiMode, BoardAndHelpAreHarmless) {
    auto lines = xrun("bd\nhelp\nrules\nundo\nremove\n");
    expect_nothing_misread(lines);
    for (const auto& l : lines)
        EXPECT_FALSE(xs::significant(l)) << l;
}

// Started on pipes without -X (xshogi's way), the program prints the banner before it reads;
// a first line `usi` (a USI GUI's) makes it the USI engine, anything else stays xshogi's.
TEST(XshogiMode, FirstLineUsiStartsTheUsiEngine) {
    auto usi = lines_of(run_script("usi\nisready\nquit\n", {}));
    ASSERT_GE(usi.size(), 3u);
    EXPECT_NE(usi[0].find("GNU Shogi"), std::string::npos);
    EXPECT_NE(std::find(usi.begin(), usi.end(), "usiok"), usi.end());
    EXPECT_NE(std::find(usi.begin(), usi.end(), "readyok"), usi.end());
    auto x = lines_of(run_script("beep\nusi\n", {"40", "5"}));
    ASSERT_FALSE(x.empty());
    EXPECT_NE(x[0].find("GNU Shogi"), std::string::npos);
    EXPECT_EQ(std::count(x.begin(), x.end(), xs::banner()), 1);  // once, before the first line was read
    EXPECT_EQ(std::find(x.begin(), x.end(), "usiok"), x.end());
    auto forced = lines_of(run_script("usi\n", {"-X"}));
    EXPECT_EQ(std::find(forced.begin(), forced.end(), "usiok"), forced.end());
}

}  // namespace
}  // namespace hisha::play
