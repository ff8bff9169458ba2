// New games and challenges per account over 127.0.0.1 (--new-games-per-account): past its
// bucket an account's NEW (text), POST /api/challenges and /api/games (HTTP 429 with
// Retry-After) and CSA %%GAME waits are refused with "retry in N s"; other accounts are not;
// the refusal is logged once and counted in /metrics. The bucket itself on a given clock.
#include <gtest/gtest.h>

#include "http_client.h"
#include "server/service/attempt_limits.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::test;

namespace {

std::unique_ptr<LineClient> text_user(ServerProcess& srv, const std::string& name) {
    auto c = std::make_unique<LineClient>(srv.ports.at("text"));
    c->read_until("hisha> ");
    EXPECT_TRUE(has(c->cmd("REGISTER " + name + " secret"), "Account " + name + " created."));
    return c;
}

}  // namespace

TEST(NewGameLimits, ChallengesAndGamesOfAnAccountAreLimitedOnEveryProtocol) {
    ServerProcess srv(temp_db("new_game_limits"), open_csa({"--new-games-per-account", "2/1", "--bots", ""}));
    const std::string refused = "too many new games and challenges: retry in ";

    // Text: two challenges, then the third is refused; another account still may.
    auto alice = text_user(srv, "alice");
    EXPECT_TRUE(has(alice->cmd("NEW * P-7f"), "Challenge 1 added"));
    EXPECT_TRUE(has(alice->cmd("NEW * W"), "Challenge 2 added"));
    std::string third = alice->cmd("NEW * W");
    EXPECT_TRUE(has(third, "Error: " + refused + "60 s")) << third;
    auto bob = text_user(srv, "bob");
    EXPECT_TRUE(has(bob->cmd("NEW * W"), "Challenge 3 added"));

    // HTTP: a challenge, a game, then 429 with Retry-After; accepting a challenge counts too.
    Http h(srv.ports.at("http"));
    auto login = h.post("/api/register", {{"name", "carol"}, {"password", "secret"}});
    std::string token = login.value("token", "");
    ASSERT_FALSE(token.empty()) << login.dump();
    h.post("/api/challenges", {{"pattern", "*"}, {"color", "white"}}, token);
    h.post("/api/games", {{"opponent", "bob"}, {"time_control", "600-10"}}, token);
    auto res = h.exchange(http::verb::post, "/api/challenges/1/accept", "{}", token);
    EXPECT_EQ(res.result_int(), 429) << res.body();
    EXPECT_EQ(res[http::field::retry_after], "60");
    EXPECT_TRUE(has(res.body(), refused)) << res.body();
    res = h.exchange(http::verb::post, "/api/games", R"({"opponent":"bob"})", token);
    EXPECT_EQ(res.result_int(), 429) << res.body();
    res = h.exchange(http::verb::post, "/api/challenges", R"({"pattern":"*","color":"white"})", token);
    EXPECT_EQ(res.result_int(), 429) << res.body();
    // A refusal for another reason is not a 429.
    std::string erin = h.post("/api/register", {{"name", "erin"}, {"password", "secret"}}).value("token", "");
    res = h.exchange(http::verb::post, "/api/challenges/999/accept", "{}", erin);
    EXPECT_EQ(res.result_int(), 400) << res.body();

    // CSA: each %%GAME wait is a new game asked for.
    LineClient dave(srv.ports.at("csa"));
    dave.send_line("LOGIN dave secret x1", "\n");
    dave.read_until("##[LOGIN] +OK x1\n");
    dave.send_line("%%GAME one-600-0 +", "\n");
    EXPECT_EQ(dave.read_until("\n"), "##[GAME] +OK\n");
    dave.send_line("%%GAME two-600-0 +", "\n");
    EXPECT_EQ(dave.read_until("\n"), "##[GAME] +OK\n");
    dave.send_line("%%GAME three-600-0 +", "\n");
    EXPECT_EQ(dave.read_until("\n"), "##[ERROR] " + refused + "60 s\n");

    // Logged once an account, counted each time.
    Http m(srv.ports.at("http"));
    auto metrics = m.exchange(http::verb::get, "/metrics");
    EXPECT_TRUE(has(metrics.body(), "hisha_limited_total{limit=\"new_game_per_account\"} 5")) << metrics.body();
    std::string log = srv.log_text();
    std::size_t logged = 0;
    for (auto at = log.find("\"limit\":\"new_game_per_account\""); at != std::string::npos;
         at = log.find("\"limit\":\"new_game_per_account\"", at + 1))
        ++logged;
    EXPECT_EQ(logged, 3u) << log;  // alice, carol, dave
}

// The bucket: B at once, then M a minute; refused with the wait until the next token; off at 0.
TEST(AttemptLimits, NewGamesOfAnAccountComeFromItsOwnBucket) {
    service::AttemptPolicy p;
    p.new_game_per_account = {2, 6};  // a token every 10 s
    service::AttemptLimits limits(p);
    EXPECT_EQ(limits.new_game("alice", 0).limit, service::Limit::None);
    EXPECT_EQ(limits.new_game("alice", 0).limit, service::Limit::None);
    auto v = limits.new_game("alice", 1000);
    EXPECT_EQ(v.limit, service::Limit::NewGameAccount);
    EXPECT_EQ(v.retry_after_ms, 9000);
    EXPECT_TRUE(v.first);
    EXPECT_FALSE(limits.new_game("alice", 2000).first);  // logged once
    EXPECT_EQ(limits.new_game("bob", 2000).limit, service::Limit::None);
    EXPECT_EQ(limits.new_game("alice", 12'000).limit, service::Limit::None);
    EXPECT_EQ(limits.counters().count(service::Limit::NewGameAccount), 2u);
    service::AttemptPolicy off;
    off.new_game_per_account = {0, 0};
    service::AttemptLimits unlimited(off);
    for (int i = 0; i < 100; ++i)
        EXPECT_EQ(unlimited.new_game("alice", 0).limit, service::Limit::None);
}
