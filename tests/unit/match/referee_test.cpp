// Broken engines lose with the right reason and the match goes on: fake engines
// (tests/data/fake_engines/fake_usi.py, a relay to `hisha usi`) that play an illegal move,
// crash, never answer, answer too late, resign, or declare a win that does not hold, each on
// their third move of every game, against Hisha in-process.
#include <gtest/gtest.h>

#include "match_test_util.h"

using namespace hisha;
using namespace hisha::match;
using namespace hisha::match::test;

namespace {

struct Expect {
    Failure failure;
    core::EndReason reason;
};

// The fake answers at once (it searches to depth 1) except on its third move; its clock is
// one second a move with the default 100 ms margin, and a late answer is awaited 1.5 s more.
MatchResult play_fake(const std::string& mode, const std::string& delay = "2.0") {
    MatchConfig c;
    c.engines.push_back(engine_config("hisha", "internal", "depth=1"));
    c.engines.push_back(engine_config("fake", "python3 " + fake_usi() + " " + mode + " 3 " + delay + " -- " + hisha_binary() + " usi",
                               "st=1"));
    c.games = 2;
    c.verbose = false;
    c.settings.grace_ms = 1500;
    std::ostringstream out;
    Match m(c, out);
    return m.run();
}

void expect_fake_loses(const MatchResult& r, Expect e) {
    ASSERT_EQ(r.games.size(), 2u) << "the match must go on after the first failure";
    ASSERT_EQ(r.pairs.size(), 1u);
    EXPECT_EQ(r.pairs[0].score.wins, 2) << "hisha (the first engine) wins both games";
    for (const auto& g : r.games) {
        EXPECT_EQ(g.failure, e.failure) << g.detail;
        bool fake_black = g.task.black == 1;
        EXPECT_EQ(g.result, fake_black ? "0-1" : "1-0") << g.detail;
        EXPECT_NE(g.detail.find("fake"), std::string::npos) << "the detail names the culprit: " << g.detail;
        // The fake misbehaves on its third move: plies 4 or 5 have been played.
        EXPECT_EQ(g.plies, fake_black ? 4 : 5) << g.detail;
    }
}

}  // namespace

TEST(Referee, IllegalMoveLoses) {
    auto r = play_fake("illegal");
    expect_fake_loses(r, {Failure::IllegalMove, core::EndReason::IllegalMove});
    EXPECT_NE(r.games[0].detail.find("5i1a"), std::string::npos) << r.games[0].detail;
}

TEST(Referee, CrashLosesAndTheEngineIsRestarted) {
    auto r = play_fake("crash");
    expect_fake_loses(r, {Failure::Crash, core::EndReason::Abort});
    EXPECT_NE(r.games[1].detail.find("exit code 3"), std::string::npos) << r.games[1].detail;
}

TEST(Referee, SilentEngineLosesOnTimeAndIsKilled) {
    auto r = play_fake("silent");
    expect_fake_loses(r, {Failure::Hang, core::EndReason::TimeUp});
}

TEST(Referee, LateAnswerLosesOnTime) {
    auto r = play_fake("late", "2.0");
    expect_fake_loses(r, {Failure::Late, core::EndReason::TimeUp});
    EXPECT_NE(r.games[0].detail.find("allowed 1000 ms + 100 ms margin"), std::string::npos) << r.games[0].detail;
}

TEST(Referee, ResignationLoses) {
    auto r = play_fake("resign");
    expect_fake_loses(r, {Failure::None, core::EndReason::Resignation});
}

TEST(Referee, DeclarationThatDoesNotHoldLoses) {
    auto r = play_fake("win");
    expect_fake_loses(r, {Failure::IllegalMove, core::EndReason::IllegalMove});
    EXPECT_NE(r.games[0].detail.find("declared a win"), std::string::npos) << r.games[0].detail;
}

TEST(Referee, EngineThatCannotStartFailsTheCheck) {
    MatchConfig c;
    c.engines.push_back(engine_config("hisha", "internal", "depth=1"));
    c.engines.push_back(engine_config("nothing", "/nonexistent/engine --usi", "depth=1"));
    c.engines.push_back(engine_config("mute", "sleep 30", "depth=1"));
    c.engines[2].spec.startup_timeout_ms = 300;
    std::ostringstream out;
    Match m(c, out);
    auto r = m.check();
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().find("nothing"), std::string::npos) << r.error();
    EXPECT_NE(r.error().find("exited"), std::string::npos) << r.error();
    EXPECT_NE(r.error().find("no 'usiok' within 300 ms"), std::string::npos) << r.error();
}

TEST(Referee, StartFailureDuringTheMatchForfeitsTheGame) {
    // An engine that cannot be started at all forfeits; the match still plays every game.
    MatchConfig c;
    c.engines.push_back(engine_config("hisha", "internal", "depth=1"));
    c.engines.push_back(engine_config("nothing", "/nonexistent/engine", "depth=1"));
    c.games = 2;
    c.verbose = false;
    std::ostringstream out;
    auto r = Match(c, out).run();
    ASSERT_EQ(r.games.size(), 2u);
    EXPECT_EQ(r.pairs[0].score.wins, 2);
    for (const auto& g : r.games)
        EXPECT_EQ(g.failure, Failure::StartFailed);
}
