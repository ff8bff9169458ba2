// JSON API requests limited per address and per account, over 127.0.0.1 (clients of other
// addresses from 127.0.0.0/8): past the bucket, 429 with Retry-After and the reason; another
// address or account is still served; /healthz, /metrics and the page's files are not counted;
// a WebSocket's messages come from its account's bucket; each refusal is counted in /metrics
// and logged once. And the buckets themselves on a given clock.
#include <gtest/gtest.h>

#include "http_client.h"
#include "server/service/attempt_limits.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::test;

namespace {

int status_of(int port, const std::string& source, const std::string& target, const std::string& token = {}) {
    Http h(port, 5, source);
    return h.exchange(http::verb::get, target, {}, token).result_int();
}

}  // namespace

TEST(RequestLimits, ApiRequestsOfAnAddressAndOfAnAccountAreLimited) {
    ServerProcess srv(temp_db("request_limits"),
                      {"--requests-per-address", "5/1", "--requests-per-account", "8/1", "--bots", ""});
    int port = srv.ports.at("http");

    // An address: five requests, then 429 with Retry-After; /healthz and /metrics not counted.
    for (int i = 0; i < 5; ++i)
        EXPECT_EQ(status_of(port, "127.0.0.2", "/api/who"), 200) << i;
    Http h(port, 5, "127.0.0.2");
    auto res = h.exchange(http::verb::get, "/api/games");
    EXPECT_EQ(res.result_int(), 429) << res.body();
    EXPECT_EQ(res[http::field::retry_after], "60");
    EXPECT_TRUE(has(res.body(), "too many requests from your address: retry in 60 s")) << res.body();
    EXPECT_EQ(status_of(port, "127.0.0.2", "/healthz"), 200);
    EXPECT_EQ(status_of(port, "127.0.0.2", "/metrics"), 200);
    EXPECT_EQ(status_of(port, "127.0.0.3", "/api/who"), 200) << "another address";

    // An account, from several addresses: its eight, then 429; the WebSocket draws on it too.
    Http reg(port, 5, "127.0.0.4");
    std::string token = reg.post("/api/register", {{"name", "alice"}, {"password", "secret"}}).value("token", "");
    ASSERT_FALSE(token.empty());
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(status_of(port, "127.0.0." + std::to_string(10 + i), "/api/me", token), 200) << i;
    Ws ws(port, token);
    for (int i = 0; i < 4; ++i)
        ws.send({{"type", "ping"}, {"id", i}});
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(ws.read().value("type", ""), "pong") << i;
    ws.send({{"type", "ping"}, {"id", 4}});
    json refused = ws.read();
    EXPECT_EQ(refused.value("type", ""), "error") << refused.dump();
    EXPECT_EQ(refused.value("retry_after_s", 0), 60) << refused.dump();
    EXPECT_TRUE(has(refused.value("message", ""), "too many requests for this account")) << refused.dump();
    EXPECT_EQ(status_of(port, "127.0.0.20", "/api/me", token), 429);
    EXPECT_EQ(status_of(port, "127.0.0.20", "/api/who"), 200) << "the address itself is not spent";

    Http m(port);
    std::string page = m.exchange(http::verb::get, "/metrics").body();
    EXPECT_TRUE(has(page, "hisha_limited_total{limit=\"request_per_address\"} 1\n")) << page;
    EXPECT_TRUE(has(page, "hisha_limited_total{limit=\"request_per_account\"} 2\n")) << page;
    std::string log = srv.log_text();
    EXPECT_TRUE(has(log, R"("limit":"request_per_address","peer":"127.0.0.2")")) << log;
    EXPECT_TRUE(has(log, R"("limit":"request_per_account")")) << log;
}

// B at once, then M a minute, from each bucket; an account's bucket is shared by its addresses.
TEST(AttemptLimits, RequestsComeFromTheBucketsOfTheirAddressAndAccount) {
    service::AttemptPolicy p;
    p.request_per_address = {2, 60};  // a token a second
    p.request_per_account = {3, 60};
    service::AttemptLimits limits(p);
    EXPECT_EQ(limits.request("a", "", 0).limit, service::Limit::None);
    EXPECT_EQ(limits.request("a", "alice", 0).limit, service::Limit::None);
    auto v = limits.request("a", "alice", 0);
    EXPECT_EQ(v.limit, service::Limit::RequestAddress);
    EXPECT_EQ(v.retry_after_ms, 1000);
    EXPECT_EQ(limits.request("b", "alice", 0).limit, service::Limit::None);
    EXPECT_EQ(limits.request("c", "alice", 0).limit, service::Limit::None);
    EXPECT_EQ(limits.request("d", "alice", 0).limit, service::Limit::RequestAccount);
    EXPECT_EQ(limits.request("d", "", 0).limit, service::Limit::None) << "d's own bucket was not spent";
    EXPECT_EQ(limits.request("", "alice", 1000).limit, service::Limit::None) << "a second later";
    EXPECT_EQ(limits.counters().count(service::Limit::RequestAddress), 1u);
    EXPECT_EQ(limits.counters().count(service::Limit::RequestAccount), 1u);
}
