// Static exchange evaluation: exact values in hand-built positions.
#include <gtest/gtest.h>

#include "core/position.h"
#include "engine/see.h"
#include "test_positions.h"

using namespace hisha::core;
using namespace hisha::engine;

namespace {
std::unique_ptr<Position> pos(const std::string& sfen) { return hisha::testing::pos_of(sfen); }
Move mv(const Position& p, Square from, Square to, bool promote = false) { return p.make_move(from, to, promote); }
}  // namespace

TEST(See, UndefendedCaptureWinsThePiece) {
    // Black rook on 5h takes an undefended white gold on 5c.
    auto p = pos("4k4/9/4g4/9/9/9/9/4R4/K8 b - 1");
    Move m = mv(*p, SQ_58, SQ_53);
    EXPECT_TRUE(see_ge(*p, m, see_value(GOLD)));
    EXPECT_FALSE(see_ge(*p, m, see_value(GOLD) + 1));
}

TEST(See, DefendedPieceTakenByARookLosesTheExchange) {
    // The gold on 5c is defended by the silver on 4b: RxG, SxR loses 990 - 540.
    auto p = pos("4k4/5s3/4g4/9/9/9/9/4R4/K8 b - 1");
    Move m = mv(*p, SQ_58, SQ_53);
    EXPECT_TRUE(see_ge(*p, m, see_value(GOLD) - see_value(ROOK)));
    EXPECT_FALSE(see_ge(*p, m, 0));
}

TEST(See, XRayThroughTheFirstCapturer) {
    // Two black rooks on the file against one defender: RxG SxR RxS = 540 - 990 + 495 = 45.
    auto p = pos("4k4/5s3/4g4/9/9/9/4R4/4R4/K8 b - 1");
    Move m = mv(*p, SQ_57, SQ_53);
    EXPECT_TRUE(see_ge(*p, m, 45));
    EXPECT_FALSE(see_ge(*p, m, 46));
}

TEST(See, DropsRiskTheDroppedPiece) {
    // A gold dropped where a white pawn takes it loses the gold.
    auto p = pos("4k4/9/4p4/9/9/9/9/9/K8 b G 1");
    Move safe = p->make_drop(GOLD, SQ_75);
    Move hanging = p->make_drop(GOLD, SQ_54);
    EXPECT_TRUE(see_ge(*p, safe, 0));
    EXPECT_FALSE(see_ge(*p, hanging, 0));
    EXPECT_TRUE(see_ge(*p, hanging, -see_value(GOLD)));
}

TEST(See, PromotionGainCounts) {
    // An undefended pawn push to the zone promotes: gain 540 - 90.
    auto p = pos("k8/9/9/4P4/9/9/9/9/K8 b - 1");
    Move m = mv(*p, SQ_54, SQ_53, true);
    EXPECT_TRUE(see_ge(*p, m, see_value(PRO_PAWN) - see_value(PAWN)));
    EXPECT_FALSE(see_ge(*p, m, see_value(PRO_PAWN) - see_value(PAWN) + 1));
}
