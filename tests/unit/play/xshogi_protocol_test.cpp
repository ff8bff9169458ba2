// The xshogi protocol lines (src/protocol/xshogi) and how xshogi classifies them.
#include <gtest/gtest.h>

#include "protocol/xshogi.h"

namespace hisha::protocol::xshogi {
namespace {

using core::Move;

TEST(XshogiProtocol, BannerSatisfiesXshogi) {
    EXPECT_NE(banner().find("GNU Shogi"), std::string::npos);
    EXPECT_EQ(classify(banner()), LineKind::Banner);
}

TEST(XshogiProtocol, MoveLines) {
    EXPECT_EQ(user_move_line(1, "7g7f", 300000), "1. 7g7f 300000");
    Move m = Move::make(core::SQ_11, core::SQ_12, core::W_LANCE);
    EXPECT_EQ(engine_move_line(1, m, 300000), "1. ... 1a1b 300000");
    EXPECT_EQ(classify(engine_move_line(1, m, 0)), LineKind::Move);
    EXPECT_EQ(classify(user_move_line(1, "7g7f", 0)), LineKind::Noise);
    Move drop = Move::make_drop(core::PAWN, core::SQ_55, core::BLACK);
    EXPECT_EQ(engine_move_line(3, drop, 12), "3. ... P*5e 12");
}

TEST(XshogiProtocol, Replies) {
    EXPECT_EQ(illegal_move_line("no match", "7g7e"), "Illegal move (no match) 7g7e");
    EXPECT_EQ(classify(illegal_move_line("two pawns on file 5", "P*5e")), LineKind::Illegal);
    EXPECT_EQ(hint_line(Move::none()), "I have no idea.");
    EXPECT_EQ(hint_line(Move::make(core::SQ_77, core::SQ_76, core::B_PAWN)), "Hint: 7g7f");
    EXPECT_EQ(clocks_line(300000, 0), "Clocks: 300000 0");
    EXPECT_EQ(time_ack(false, 30000, 0), "time 30000 0");
    EXPECT_EQ(time_ack(true, 22222, 5), "otime 22222 5");
}

TEST(XshogiProtocol, Results) {
    core::GameResult mate{core::Winner::Black, core::EndReason::Checkmate, ""};
    EXPECT_EQ(result_line(mate), "Black mates!");
    EXPECT_EQ(classify(result_line(mate)), LineKind::BlackWins);
    core::GameResult wmate{core::Winner::White, core::EndReason::Checkmate, ""};
    EXPECT_EQ(result_line(wmate), "White mates!");
    core::GameResult draw{core::Winner::Draw, core::EndReason::Sennichite, ""};
    EXPECT_EQ(result_line(draw), "Drawn game!");
    EXPECT_EQ(classify(result_line(draw)), LineKind::Draw);
    core::GameResult perpetual{core::Winner::White, core::EndReason::PerpetualCheck, ""};
    EXPECT_EQ(result_line(perpetual), "White wins (perpetual check by Black)");
    EXPECT_EQ(classify(result_line(perpetual)), LineKind::WhiteWins);
}

TEST(XshogiProtocol, NoiseIsNeverSignificant) {
    for (const char* line :
         {"Black 5:00  White 5:00", "White in hand: -", "Illegal move? no", "Hint: none", "Clocks: none",
          "debug [bP|wN|...]", "file not found", "No such file", "Permission denied", "unknown host x", "Drawn or not",
          "Repetition!", "warning: x", "opponent mates!", "No remote directory"}) {
        std::string n = noise(line);
        EXPECT_FALSE(significant(n)) << line << " -> " << n;
    }
    EXPECT_EQ(noise("plain text"), "plain text");
    EXPECT_EQ(noise("Black to move"), "# Black to move");
}

}  // namespace
}  // namespace hisha::protocol::xshogi
