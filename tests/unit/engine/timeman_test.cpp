// Time allocation for each kind of clock: within the hard limit, never past the time left.
#include <gtest/gtest.h>

#include "engine/timeman.h"

using namespace hisha::engine;
using hisha::core::BLACK;
using hisha::core::WHITE;

namespace {
TimeManager plan(const Limits& l, int ply = 20, int delay = 100, int minimum = 20) {
    TimeManager t;
    t.init(l, BLACK, ply, Clock::now(), delay, minimum);
    return t;
}
}  // namespace

TEST(TimeManager, FixedTimePerMove) {
    Limits l;
    l.movetime = 1000;
    TimeManager t = plan(l);
    EXPECT_EQ(t.optimum(), 938);  // the margin (100) takes at most a sixteenth
    EXPECT_EQ(t.maximum(), 938);
    EXPECT_TRUE(t.fixed());
    // A tenth of a second still leaves most of it for thinking.
    l.movetime = 100;
    TimeManager fast = plan(l);
    EXPECT_EQ(fast.maximum(), 94);
}

TEST(TimeManager, ByoyomiOnlyUsesNearlyAllOfIt) {
    Limits l;
    l.byoyomi = 10000;
    TimeManager t = plan(l);
    EXPECT_EQ(t.maximum(), 9900);
    EXPECT_EQ(t.optimum(), 9900);  // unused byoyomi is lost: search until the margin
    EXPECT_TRUE(t.fixed());
    l.byoyomi = 100;  // 0.1 s a move: the margin takes at most a sixteenth
    TimeManager fast = plan(l);
    EXPECT_EQ(fast.maximum(), 94);
    EXPECT_TRUE(fast.fixed());
}

TEST(TimeManager, MainTimePlusByoyomi) {
    Limits l;
    l.time[BLACK] = 600000;
    l.byoyomi = 10000;
    TimeManager t = plan(l);
    EXPECT_GT(t.optimum(), 10000);               // main time is spent too
    EXPECT_LE(t.maximum(), 600000 / 4 + 10000);  // never a large share of it at once
    EXPECT_LE(t.optimum(), t.maximum());
}

TEST(TimeManager, FischerNeverExceedsTimeLeft) {
    Limits l;
    l.time[BLACK] = 3000;
    l.inc[BLACK] = 1000;
    TimeManager t = plan(l);
    EXPECT_LT(t.maximum(), 3000 + 1000);
    EXPECT_GT(t.optimum(), 0);
    EXPECT_LE(t.optimum(), t.maximum());
}

TEST(TimeManager, SuddenDeathSpreadsTheTime) {
    Limits l;
    l.time[BLACK] = 300000;
    TimeManager t = plan(l, 0);
    EXPECT_LE(t.optimum(), 300000 / 20);
    EXPECT_GE(t.optimum(), 300000 / 60);
    EXPECT_LE(t.maximum(), 300000 / 4);
}

TEST(TimeManager, MovesInTimeAndTheLastMoveOfAControl) {
    Limits l;
    l.time[BLACK] = 300000;
    l.moves_to_go = 40;  // GNU Shogi's "40 moves in 5 minutes"
    TimeManager t = plan(l);
    EXPECT_NEAR(t.optimum(), 300000 / 40, 1000);
    l.moves_to_go = 1;
    TimeManager last = plan(l);
    EXPECT_GT(last.optimum(), 100000);
    EXPECT_LT(last.maximum(), 300000);
}

TEST(TimeManager, AlmostNoTimeLeftStillMovesInTime) {
    Limits l;
    l.time[BLACK] = 150;
    TimeManager t = plan(l);
    EXPECT_GE(t.maximum(), 1);
    EXPECT_LT(t.maximum(), 150);
}

TEST(TimeManager, InfiniteAndDepthAreUnlimited) {
    Limits l;
    l.infinite = true;
    EXPECT_FALSE(plan(l).limited());
    Limits d;
    d.depth = 5;
    EXPECT_FALSE(plan(d).limited());
}

// NetworkDelay2: the margin kept when a move may think to the very end of its time (the whole
// byoyomi, the maximum); the optimum keeps NetworkDelay's.
TEST(TimeManager, TheFinalDelayIsKeptAtTheEndOfTheTime) {
    Limits l;
    l.byoyomi = 10000;
    TimeManager t;
    t.init(l, BLACK, 20, Clock::now(), 100, 20, 600);
    EXPECT_EQ(t.maximum(), 9400);
    EXPECT_EQ(t.optimum(), 9400);
    Limits m;
    m.time[BLACK] = 60000;
    m.byoyomi = 10000;
    TimeManager a, b;
    a.init(m, BLACK, 20, Clock::now(), 100, 20);       // the same delay throughout
    b.init(m, BLACK, 20, Clock::now(), 100, 20, 600);  // 500 ms more kept at the end
    EXPECT_EQ(a.maximum() - b.maximum(), 500);
    EXPECT_EQ(a.optimum(), b.optimum());
}
