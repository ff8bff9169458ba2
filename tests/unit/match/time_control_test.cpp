// Time controls: parsing every form, and the referee's clock under each.
#include "match/time_control.h"

#include <gtest/gtest.h>

using namespace hisha::match;
using hisha::core::BLACK;
using hisha::core::WHITE;
using Kind = TimeControl::Kind;

namespace {
TimeControl tc(const char* text) {
    auto r = parse_time_control(text);
    EXPECT_TRUE(r.has_value()) << text;
    return r ? *r : TimeControl{};
}
}  // namespace

TEST(TimeControl, ParsesEveryForm) {
    TimeControl st = tc("st=1.5");
    EXPECT_EQ(st.kind, Kind::PerMove);
    EXPECT_EQ(st.byoyomi_ms, 1500);
    TimeControl b = tc("600b10");
    EXPECT_EQ(b.kind, Kind::Byoyomi);
    EXPECT_EQ(b.main_ms, 600000);
    EXPECT_EQ(b.byoyomi_ms, 10000);
    TimeControl f = tc("300i5");
    EXPECT_EQ(f.kind, Kind::Fischer);
    EXPECT_EQ(f.main_ms, 300000);
    EXPECT_EQ(f.increment_ms, 5000);
    TimeControl m = tc("40/300");
    EXPECT_EQ(m.kind, Kind::MovesInTime);
    EXPECT_EQ(m.moves, 40);
    EXPECT_EQ(m.main_ms, 300000);
    EXPECT_EQ(tc("depth=6").depth, 6);
    EXPECT_EQ(tc("nodes=100000").nodes, 100000u);
    EXPECT_EQ(tc("0b0.25").byoyomi_ms, 250);
    EXPECT_FALSE(tc("depth=3").timed());
}

TEST(TimeControl, CanonicalTextReadsBack) {
    for (const char* text : {"st=0.2", "st=1", "600b10", "300i5", "40/300", "depth=6", "nodes=100000", "0.5b0.1"}) {
        TimeControl t = tc(text);
        EXPECT_EQ(t.to_string(), text);
        auto again = parse_time_control(t.to_string());
        ASSERT_TRUE(again.has_value());
        EXPECT_EQ(again->to_string(), text);
    }
}

TEST(TimeControl, RejectsNonsense) {
    for (const char* text : {"", "st=", "st=0", "st=-1", "st=x", "depth=0", "depth=abc", "nodes=", "40/", "/300",
                             "0/300", "0b0", "abc", "10b", "i5", "1e9999b1"})
        EXPECT_FALSE(parse_time_control(text).has_value()) << text;
    auto r = parse_time_control("60x");
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().find("st=S"), std::string::npos);  // the message says what is accepted
}

TEST(GameClock, PerMoveIsByoyomiWithNoMainTime) {
    GameClock c(tc("st=0.5"), tc("st=2"));
    EXPECT_EQ(c.allowed_ms(BLACK), 500);
    EXPECT_EQ(c.allowed_ms(WHITE), 2000);
    auto l = c.limits(BLACK);
    EXPECT_EQ(l.time[BLACK], 0);
    EXPECT_EQ(l.byoyomi, 500);
    EXPECT_TRUE(c.charge(BLACK, 590, 100));   // within the margin
    EXPECT_EQ(c.allowed_ms(BLACK), 500);      // unused time is not carried
    EXPECT_FALSE(c.charge(BLACK, 601, 100));  // past it: the flag falls
}

TEST(GameClock, ByoyomiAfterMainTime) {
    GameClock c(tc("10b3"), tc("10b3"));
    EXPECT_EQ(c.allowed_ms(BLACK), 13000);
    EXPECT_TRUE(c.charge(BLACK, 8000, 0));
    EXPECT_EQ(c.remaining_ms(BLACK), 2000);
    EXPECT_TRUE(c.charge(BLACK, 4000, 0));  // 2 s of main time, then 2 of the 3 s byoyomi
    EXPECT_EQ(c.remaining_ms(BLACK), 0);
    EXPECT_EQ(c.allowed_ms(BLACK), 3000);
    auto l = c.limits(BLACK);
    EXPECT_EQ(l.time[BLACK], 0);
    EXPECT_EQ(l.time[WHITE], 10000);
    EXPECT_EQ(l.byoyomi, 3000);
    EXPECT_FALSE(c.charge(BLACK, 3200, 100));
}

TEST(GameClock, FischerAddsTheIncrement) {
    GameClock c(tc("10i2"), tc("10i2"));
    EXPECT_EQ(c.allowed_ms(WHITE), 12000);
    EXPECT_TRUE(c.charge(WHITE, 1000, 0));
    EXPECT_EQ(c.remaining_ms(WHITE), 11000);
    auto l = c.limits(WHITE);
    EXPECT_EQ(l.time[WHITE], 11000);
    EXPECT_EQ(l.inc[WHITE], 2000);
    EXPECT_EQ(l.inc[BLACK], 2000);
    EXPECT_EQ(l.byoyomi, 0);
    EXPECT_TRUE(c.charge(WHITE, 13000, 0));  // all of it, increment included
    EXPECT_EQ(c.remaining_ms(WHITE), 0);
}

TEST(GameClock, MovesInTimeRefillsAfterThePeriod) {
    GameClock c(tc("2/10"), tc("2/10"));
    EXPECT_EQ(c.limits(BLACK).moves_to_go, 2);
    EXPECT_TRUE(c.charge(BLACK, 3000, 0));
    EXPECT_EQ(c.limits(BLACK).moves_to_go, 1);
    EXPECT_TRUE(c.charge(BLACK, 4000, 0));
    EXPECT_EQ(c.remaining_ms(BLACK), 13000);  // 3 s left, plus the next period's 10 s
    EXPECT_EQ(c.limits(BLACK).moves_to_go, 2);
}

TEST(GameClock, UntimedControls) {
    GameClock c(tc("depth=3"), tc("nodes=5000"));
    EXPECT_EQ(c.allowed_ms(BLACK), -1);
    EXPECT_EQ(c.limits(BLACK).depth, 3);
    EXPECT_EQ(c.limits(WHITE).nodes, 5000u);
    EXPECT_TRUE(c.charge(BLACK, 1000000, 0));  // never a flag: the move timeout guards them
}
