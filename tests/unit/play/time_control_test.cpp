// GNU Shogi's time-control arguments and the game clocks.
#include <gtest/gtest.h>

#include "play/time_control.h"

namespace hisha::play {
namespace {

using Kind = TimeControl::Kind;
using core::BLACK;
using core::WHITE;

TimeControl tc(std::vector<std::string> args) {
    auto r = parse_time_args(args);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error());
    return r ? *r : TimeControl{};
}

TEST(TimeControl, DurationForms) {
    EXPECT_EQ(*parse_duration("30", false), 30000);
    EXPECT_EQ(*parse_duration("30", true), 30 * 60000);
    EXPECT_EQ(*parse_duration("5:00", false), 300000);
    EXPECT_EQ(*parse_duration("3:30", true), 210000);
    EXPECT_EQ(*parse_duration(":30", true), 30000);
    EXPECT_EQ(*parse_duration("1:00:00", true), 3600000);
    EXPECT_FALSE(parse_duration("", true));
    EXPECT_FALSE(parse_duration("5m", true));
    EXPECT_FALSE(parse_duration("1:2:3:4", true));
}

TEST(TimeControl, NoArgumentsAsksForALevel) { EXPECT_EQ(tc({}).kind, Kind::None); }

TEST(TimeControl, OneArgumentIsTimePerMove) {
    TimeControl a = tc({"30"});
    EXPECT_EQ(a.kind, Kind::PerMove);
    EXPECT_EQ(a.per_move_ms, 30000);
    TimeControl b = tc({"5:00"});
    EXPECT_EQ(b.per_move_ms, 300000);
    EXPECT_EQ(b.describe(), "5:00 per move");
}

TEST(TimeControl, PairsAreTournamentPeriods) {
    TimeControl a = tc({"60", "5"});
    ASSERT_EQ(a.kind, Kind::Tournament);
    ASSERT_EQ(a.periods.size(), 1u);
    EXPECT_EQ(a.periods[0].moves, 60);
    EXPECT_EQ(a.periods[0].ms, 300000);
    TimeControl b = tc({"30", "3:30"});
    EXPECT_EQ(b.periods[0].ms, 210000);
    TimeControl c = tc({"30", "5", "1", ":30"});
    ASSERT_EQ(c.periods.size(), 2u);
    EXPECT_EQ(c.periods[1].moves, 1);
    EXPECT_EQ(c.periods[1].ms, 30000);
    EXPECT_EQ(c.describe(), "30 moves in 5:00, then 1 move in 0:30");
    EXPECT_EQ(tc({"40", "5", "20", "2", "10", "1", "1", ":10"}).periods.size(), 4u);
}

TEST(TimeControl, BadArgumentsAreRefused) {
    EXPECT_FALSE(parse_time_args({"40", "5", "1"}));
    EXPECT_FALSE(parse_time_args({"1", "1", "1", "1", "1", "1", "1", "1", "1", "1"}));
    EXPECT_FALSE(parse_time_args({"0", "5"}));
    EXPECT_FALSE(parse_time_args({"x", "5"}));
    EXPECT_FALSE(parse_time_args({"0"}));
}

TEST(TimeControl, LevelForms) {
    auto per_move = parse_level({"0", "0:30"});
    ASSERT_TRUE(per_move);
    EXPECT_EQ(per_move->kind, Kind::PerMove);
    EXPECT_EQ(per_move->per_move_ms, 30000);
    auto fischer = parse_level({"f5", "10"});
    ASSERT_TRUE(fischer);
    EXPECT_EQ(fischer->kind, Kind::Fischer);
    EXPECT_EQ(fischer->fischer_ms, 300000);
    EXPECT_EQ(fischer->increment_ms, 10000);
    EXPECT_EQ(parse_level({"40", "5"})->kind, Kind::Tournament);
}

TEST(GameClocks, TournamentPeriodsRollOver) {
    GameClocks c;
    c.reset(tc({"2", "1", "1", ":10"}));
    ASSERT_TRUE(c.enabled());
    auto t0 = GameClocks::Clock::now();
    c.start(BLACK, t0);
    EXPECT_EQ(c.stop(t0 + std::chrono::seconds(5)), 5000);
    EXPECT_EQ(c.remaining(BLACK), 55000);
    EXPECT_EQ(c.moves_left(BLACK), 1);
    c.start(BLACK, t0);
    c.stop(t0 + std::chrono::seconds(5));
    // The second move ends the first period: the next (1 move in 10 s) is added.
    EXPECT_EQ(c.remaining(BLACK), 60000);
    EXPECT_EQ(c.moves_left(BLACK), 1);
    c.start(BLACK, t0);
    c.stop(t0 + std::chrono::seconds(2));
    EXPECT_EQ(c.remaining(BLACK), 68000);  // the last period repeats
    EXPECT_EQ(c.remaining(WHITE), 60000);
}

TEST(GameClocks, FischerAddsTheIncrement) {
    GameClocks c;
    c.reset(*parse_level({"f1", "5"}));
    auto t0 = GameClocks::Clock::now();
    c.start(WHITE, t0);
    c.stop(t0 + std::chrono::seconds(3));
    EXPECT_EQ(c.remaining(WHITE), 62000);
    engine::Limits l = c.limits(WHITE);
    EXPECT_EQ(l.inc[WHITE], 5000);
    EXPECT_EQ(l.moves_to_go, 0);
}

TEST(GameClocks, TimeCommandsAndLimits) {
    GameClocks c;
    c.reset(tc({"40", "5"}));
    c.set_remaining(WHITE, 12340, 7);
    EXPECT_EQ(c.remaining(WHITE), 12340);
    EXPECT_EQ(c.moves_left(WHITE), 7);
    engine::Limits l = c.limits(WHITE);
    EXPECT_EQ(l.time[WHITE], 12340);
    EXPECT_EQ(l.time[BLACK], 300000);
    EXPECT_EQ(l.moves_to_go, 7);
    c.reset(tc({"30"}));
    EXPECT_FALSE(c.enabled());
    EXPECT_EQ(c.limits(BLACK).movetime, 30000);
    EXPECT_EQ(c.remaining(BLACK), 0);
}

TEST(GameClocks, GameInIsSuddenDeath) {
    TimeControl t = tc({"60", "10"});
    t.game_in = true;
    GameClocks c;
    c.reset(t);
    EXPECT_EQ(c.limits(BLACK).moves_to_go, 0);
    EXPECT_EQ(c.remaining(BLACK), 600000);
}

TEST(GameClocks, Format) {
    EXPECT_EQ(format_clock(300000), "5:00");
    EXPECT_EQ(format_clock(7500), "0:07");
    EXPECT_EQ(format_clock(-3000), "-0:03");
    EXPECT_EQ(format_clock(3723000), "1:02:03");
}

}  // namespace
}  // namespace hisha::play
