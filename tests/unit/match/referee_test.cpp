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

// A fake that misbehaves one way, and how it must lose.
struct FakeCase {
    const char* name;  // of the test
    const char* mode;  // fake_usi.py's misbehaviour
    Failure failure;
    core::EndReason reason;
    const char* says = nullptr;  // what the detail of game `game` says, when it names more than the culprit
    int game = 0;
};

// The fake answers at once (it searches to depth 1) except on its third move; its clock is
// one second a move with the default 100 ms margin, and a late answer is awaited 1.5 s more.
MatchResult play_fake(const std::string& mode, const std::string& delay = "2.0") {
    MatchConfig c;
    c.engines.push_back(engine_config("hisha", "internal", "depth=1"));
    c.engines.push_back(engine_config(
        "fake", "python3 " + fake_usi() + " " + mode + " 3 " + delay + " -- " + hisha_binary() + " usi", "st=1"));
    c.games = 2;
    c.verbose = false;
    c.settings.grace_ms = 1500;
    std::ostringstream out;
    Match m(c, out);
    return m.run();
}

void expect_fake_loses(const MatchResult& r, const FakeCase& e) {
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
    if (e.says) {
        const std::string& detail = r.games[std::size_t(e.game)].detail;
        EXPECT_NE(detail.find(e.says), std::string::npos) << detail;
    }
}

}  // namespace

class RefereeFake : public ::testing::TestWithParam<FakeCase> {};

TEST_P(RefereeFake, Loses) {
    const FakeCase& c = GetParam();
    expect_fake_loses(play_fake(c.mode), c);
}

using core::EndReason;
const FakeCase FAKE_CASES[] = {
    {"IllegalMoveLoses", "illegal", Failure::IllegalMove, EndReason::IllegalMove, "5i1a"},
    {"CrashLosesAndTheEngineIsRestarted", "crash", Failure::Crash, EndReason::Abort, "exit code 3", 1},
    {"SilentEngineLosesOnTimeAndIsKilled", "silent", Failure::Hang, EndReason::TimeUp},
    {"LateAnswerLosesOnTime", "late", Failure::Late, EndReason::TimeUp, "allowed 1000 ms + 100 ms margin"},
    {"ResignationLoses", "resign", Failure::None, EndReason::Resignation},
    {"DeclarationThatDoesNotHoldLoses", "win", Failure::IllegalMove, EndReason::IllegalMove, "declared a win"},
};
INSTANTIATE_TEST_SUITE_P(Referee, RefereeFake, ::testing::ValuesIn(FAKE_CASES),
                         [](const ::testing::TestParamInfo<FakeCase>& info) { return std::string(info.param.name); });

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
