// The xshogi driver against a stand-in for GNU Shogi (tests/data/fake_engines/fake_gnushogi.py,
// which asks `hisha usi` for its moves), so that its quirks can be shown on demand: a draw
// claimed by its own count, giving up without a move, refusing a legal move, and swallowing a
// move in silence. Games it cannot go on with are aborted, not scored against anyone.
#include <gtest/gtest.h>

#include "match_test_util.h"

using namespace hisha;
using namespace hisha::match;
using namespace hisha::match::test;

namespace {

MatchResult play_fake_gnushogi(const std::string& mode) {
    MatchConfig c;
    c.engines.push_back(engine_config("hisha", "internal", "depth=1"));
    std::string fake = std::string(HISHA_TEST_DATA_LOCAL) + "/fake_engines/fake_gnushogi.py";
    c.engines.push_back(
        engine_config("gnu", "xshogi:python3 " + fake + " " + hisha_binary() + " " + mode + " 3", "depth=1"));
    c.engines[1].spec.options.emplace_back("book", "off");
    c.games = 2;
    c.verbose = false;
    c.settings.rules.max_plies = 30;
    c.settings.move_timeout_ms = 2000;
    c.settings.grace_ms = 300;
    std::ostringstream out;
    return Match(c, out).run();
}

// Both games of `r` were aborted for `failure`, with a detail that says `says`.
void expect_both_failed(const MatchResult& r, Failure failure, const std::string& says) {
    ASSERT_EQ(r.games.size(), 2u);
    for (const auto& g : r.games) {
        EXPECT_EQ(g.failure, failure) << g.detail;
        EXPECT_NE(g.detail.find(says), std::string::npos) << g.detail;
    }
}

}  // namespace

TEST(XshogiClient, PlaysWholeGamesInBothColours) {
    MatchResult r = play_fake_gnushogi("normal");
    ASSERT_EQ(r.games.size(), 2u);
    for (const auto& g : r.games) {
        EXPECT_EQ(g.failure, Failure::None) << g.detail;
        EXPECT_NE(g.result, "*") << g.detail;
    }
}

TEST(XshogiClient, DrawClaimAborts) {
    MatchResult r = play_fake_gnushogi("claim");
    ASSERT_NO_FATAL_FAILURE(expect_both_failed(r, Failure::Claim, "Drawn game!"));
    EXPECT_EQ(r.pairs[0].aborted, 2);
}

TEST(XshogiClient, MoveLineWithoutAMoveResigns) {
    MatchResult r = play_fake_gnushogi("giveup");
    ASSERT_EQ(r.games.size(), 2u);
    EXPECT_EQ(r.pairs[0].score.wins, 2);
    EXPECT_EQ(r.pairs[0].endings.count("resignation"), 1u);
}

TEST(XshogiClient, RefusedMoveAborts) {
    expect_both_failed(play_fake_gnushogi("refuse"), Failure::Refused, "Illegal move");
}

TEST(XshogiClient, SwallowedMoveAbortsRatherThanLosingOnTime) {
    MatchResult r = play_fake_gnushogi("swallow");
    ASSERT_NO_FATAL_FAILURE(expect_both_failed(r, Failure::Refused, "did not take the move"));
    EXPECT_EQ(r.pairs[0].aborted, 2);
}
