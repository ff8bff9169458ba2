// The GNU Shogi manual's sample game (seed 000, "Sample game") typed in force mode exactly as
// printed there, then shown with bd: every move is accepted, the board is the expected one
// (golden file) and the position is the one the notation tests reach by replaying the game.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "play_driver.h"

namespace hisha::play {
namespace {

const std::string DATA = std::string(HISHA_TEST_DATA_LOCAL) + "/play/";

std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

TEST(SampleGame, PlayedThroughForceAndShownWithBd) {
    std::string input = "force\n";
    int moves = 0;
    for (const auto& line : testing::lines_of(slurp(DATA + "sample_game_moves.txt")))
        if (!line.empty() && line[0] != '#') {
            input += line + "\n";
            ++moves;
        }
    ASSERT_EQ(moves, 71);
    input += "bd\nsfen\nquit\n";
    std::vector<std::string> out = testing::lines_of(testing::run_script(input, {"-R", "30"}));
    for (const auto& l : out) {
        EXPECT_EQ(l.find("Illegal move"), std::string::npos) << l;
        EXPECT_EQ(l.find("Promote?"), std::string::npos) << l;
    }
    // The last board and the SFEN after it.
    std::size_t last = out.size();
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i].find("White in hand:") != std::string::npos)
            last = i;
    ASSERT_LT(last + 23, out.size());
    std::string board;
    for (std::size_t i = last; i < last + 23; ++i)
        board += out[i] + "\n";
    if (std::getenv("HISHA_UPDATE_GOLDEN"))
        std::ofstream(DATA + "sample_game_board.txt", std::ios::binary) << board;
    EXPECT_EQ(board, slurp(DATA + "sample_game_board.txt"));
    EXPECT_NE(out[last + 23].find("ln6l/1ks+N+R4/pppp5/4p1p1p/n8/1PP1P1P1P/P2P5/2KG5/LN6L w RB2G3S2Pbg2p 72"),
              std::string::npos)
        << out[last + 23];
}

}  // namespace
}  // namespace hisha::play
