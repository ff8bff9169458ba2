// Game: results detected after moves and recorded from front ends, undo, handicaps.
#include <gtest/gtest.h>

#include "core/game.h"
#include "test_util.h"

using namespace hisha::core;
using hisha::test::usi;

namespace {
void play_all(Game& g, const std::vector<std::string>& moves) {
    for (const auto& m : moves) {
        auto r = g.play(usi(g.position(), m));
        ASSERT_TRUE(r.has_value()) << m << ": " << describe(r.error());
    }
}

// The game has ended for `reason`, with `winner`.
void expect_result(const Game& g, EndReason reason, Winner winner) {
    EXPECT_TRUE(g.over());
    EXPECT_EQ(g.result().reason, reason);
    EXPECT_EQ(g.result().winner, winner);
}
}  // namespace

TEST(Game, StartsEvenWithBlackToMove) {
    Game g;
    EXPECT_EQ(g.position().sfen(), START_SFEN);
    EXPECT_EQ(g.handicap(), Handicap::Even);
    EXPECT_FALSE(g.over());
    EXPECT_EQ(g.white_credit(), 0);
}

TEST(Game, CheckmateEndsTheGame) {
    Game g;
    ASSERT_TRUE(g.reset("3lkl3/9/3GPG3/9/9/9/9/9/4K4 b - 1").has_value());
    play_all(g, {"5c5b"});
    expect_result(g, EndReason::Checkmate, Winner::Black);
    auto r = g.play(usi(g.position(), "5a5b"));
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error(), IllegalMove::GameOver);
    // Undo takes the mating move back and reopens the game.
    EXPECT_TRUE(g.undo());
    EXPECT_FALSE(g.over());
    EXPECT_EQ(g.moves().size(), 0u);
}

TEST(Game, NoLegalMoveWithoutCheckIsALoss) {
    // White's king on 1a is boxed in but not in check; after Black's quiet move it has no move.
    Game g;
    ASSERT_TRUE(g.reset("8k/6G2/7G1/9/9/9/9/9/4K4 b - 1").has_value());
    play_all(g, {"5i5h"});
    expect_result(g, EndReason::NoLegalMoves, Winner::Black);
}

TEST(Game, IllegalMoveIsRefusedAndNothingChanges) {
    Game g;
    auto r = g.play(usi(g.position(), "7g7e"));
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error(), IllegalMove::CannotReach);
    EXPECT_TRUE(g.moves().empty());
    EXPECT_EQ(g.position().sfen(), START_SFEN);
}

TEST(Game, SennichiteAndPerpetualCheck) {
    Game draw;
    ASSERT_TRUE(draw.reset("4k4/9/9/9/9/9/9/9/4K4 b - 1").has_value());
    for (int i = 0; i < 3; ++i)
        play_all(draw, {"5i5h", "5a5b", "5h5i", "5b5a"});
    expect_result(draw, EndReason::Sennichite, Winner::Draw);

    Game perpetual;
    ASSERT_TRUE(perpetual.reset("9/8k/R8/9/9/9/9/9/4K4 b - 1").has_value());
    for (int i = 0; i < 3; ++i)
        play_all(perpetual, {"9c9b", "1b1c", "9b9c", "1c1b"});
    expect_result(perpetual, EndReason::PerpetualCheck, Winner::White);
}

TEST(Game, ResignationTimeUpIllegalMoveAbort) {
    Game a;
    a.resign(BLACK);
    expect_result(a, EndReason::Resignation, Winner::White);
    a.time_up(WHITE);  // a second result never overwrites the first
    EXPECT_EQ(a.result().reason, EndReason::Resignation);
    Game b;
    b.time_up(WHITE);
    expect_result(b, EndReason::TimeUp, Winner::Black);
    Game c;
    c.lose_by_illegal_move(BLACK, "P*5e: two pawns on the file");
    EXPECT_EQ(c.result().winner, Winner::White);
    EXPECT_EQ(c.result().detail, "P*5e: two pawns on the file");
    Game d;
    d.abort("connection lost");
    EXPECT_TRUE(d.over());
    EXPECT_EQ(d.result().winner, Winner::None);
}

TEST(Game, MoveLimitDrawOrCount) {
    Game g(GameRules{ImpasseRule::Csa27, 4, false});
    play_all(g, {"7g7f", "3c3d", "2g2f"});
    EXPECT_FALSE(g.over());
    play_all(g, {"4c4d"});
    expect_result(g, EndReason::MoveLimit, Winner::Draw);

    Game counted(GameRules{ImpasseRule::Csa27, 2, true});
    ASSERT_TRUE(counted.reset("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1").has_value());
    play_all(counted, {"7g7f", "3c3d"});
    expect_result(counted, EndReason::MoveLimit, Winner::Black);  // White has 22 points
}

TEST(Game, DeclarationUnderEachRule) {
    Game csa;
    ASSERT_TRUE(csa.reset("4K4/RRBB5/PPPPPP3/9/9/9/9/9/8k b 2P 1").has_value());
    ASSERT_TRUE(csa.declare().has_value());
    expect_result(csa, EndReason::Declaration, Winner::Black);

    Game refused;
    ASSERT_TRUE(refused.reset("4K4/RRBB5/PPPPPP3/9/9/9/9/9/8k b P 1").has_value());
    auto r = refused.declare();
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error(), DeclarationFailure::TooFewPoints);
    EXPECT_FALSE(refused.over());

    // The seeds' 24-point rule: both kings must have entered, then count.
    Game count(GameRules{ImpasseRule::Count24, 0, false});
    ASSERT_TRUE(count.reset("4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L9Prb2g2s2n2l9p 1").has_value());
    ASSERT_TRUE(count.declare().has_value());
    expect_result(count, EndReason::ImpasseCount, Winner::Draw);
    Game not_entered(GameRules{ImpasseRule::Count24, 0, false});
    ASSERT_TRUE(not_entered.reset("9/9/9/4K4/9/9/9/9/4k4 b RB2G2S2N2L9Prb2g2s2n2l9p 1").has_value());
    EXPECT_EQ(not_entered.declare().error(), DeclarationFailure::KingNotInZone);
}

TEST(Game, HandicapGamesCreditWhiteInTheCount) {
    Game g;
    g.reset(Handicap::TwoPiece);
    EXPECT_EQ(g.position().side_to_move(), WHITE);
    EXPECT_EQ(g.handicap(), Handicap::TwoPiece);
    EXPECT_EQ(g.white_credit(), 10);
    g.count_impasse_now();
    EXPECT_EQ(g.result().winner, Winner::Draw);  // 27 against 17 + 10
}
