// A reverse proxy in front of the HTTP port, over 127.0.0.1: with --trusted-proxy 127.0.0.1 a
// request is its X-Forwarded-For client's (the last entry, the one the proxy wrote) for the
// per-address limits, address bans and the log; without it the header is ignored, as any client
// may send one.
#include <gtest/gtest.h>

#include "http_client.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server::test;

namespace {

// A request to `port` as the proxy sends it for `client` (after an entry the client wrote itself).
http::response<http::string_body> via_proxy(int port, const std::string& client, http::verb verb,
                                            const std::string& target, const std::string& body = {}) {
    Http h(port);
    return h.call(verb, target, body, {{"X-Forwarded-For", "198.51.100.7, " + client}});
}

const std::string WRONG = R"({"name":"alice","password":"wrong"})";

}  // namespace

TEST(TrustedProxy, ARequestFromTheProxyIsItsForwardedClientsForLimitsBansAndTheLog) {
    std::string db = temp_db("trusted_proxy");
    ServerProcess srv(db, {"--trusted-proxy", "127.0.0.1", "--login-per-address", "1/1", "--bots", ""});
    int port = srv.ports.at("http");
    LineClient admin(srv.ports.at("text"));
    admin.read_until("hisha> ");
    EXPECT_TRUE(has(admin.cmd("REGISTER alice secret"), "Welcome"));
    auto [granted, status] = run_server_cli("admin grant alice --db " + db);
    ASSERT_EQ(status, 0) << granted;

    // The login limit of an address: 203.0.113.5 has used its one attempt; 203.0.113.6 has not.
    EXPECT_EQ(via_proxy(port, "203.0.113.5", http::verb::post, "/api/login", WRONG).result_int(), 401);
    EXPECT_EQ(via_proxy(port, "203.0.113.5", http::verb::post, "/api/login", WRONG).result_int(), 429);
    EXPECT_EQ(via_proxy(port, "203.0.113.6", http::verb::post, "/api/login", WRONG).result_int(), 401);

    // A ban of the client's address holds behind the proxy, and spares the proxy's other clients.
    EXPECT_TRUE(has(admin.cmd("ADMIN BAN ADDRESS 203.0.113.5"), "Banned address 203.0.113.5"));
    auto refused = via_proxy(port, "203.0.113.5", http::verb::get, "/api/who");
    EXPECT_EQ(refused.result_int(), 403);
    EXPECT_TRUE(has(refused.body(), "your address is banned")) << refused.body();
    EXPECT_EQ(via_proxy(port, "203.0.113.6", http::verb::get, "/api/who").result_int(), 200);
    Http direct(port);
    EXPECT_EQ(direct.exchange(http::verb::get, "/api/who").result_int(), 200) << "the proxy itself is not banned";
    // A header that is not an address: the proxy's own.
    EXPECT_EQ(via_proxy(port, "not-an-address", http::verb::get, "/api/who").result_int(), 200);
    EXPECT_TRUE(has(srv.log_text(), R"("peer":"203.0.113.5","reason":"banned address")")) << srv.log_text();
}

TEST(TrustedProxy, WithoutTheOptionTheHeaderIsIgnored) {
    ServerProcess srv(temp_db("untrusted_proxy"), {"--login-per-address", "1/1", "--bots", ""});
    int port = srv.ports.at("http");
    EXPECT_EQ(via_proxy(port, "203.0.113.5", http::verb::post, "/api/login", WRONG).result_int(), 401);
    EXPECT_EQ(via_proxy(port, "203.0.113.6", http::verb::post, "/api/login", WRONG).result_int(), 429)
        << "both are 127.0.0.1";
}

TEST(TrustedProxy, ABadAddressIsRefusedNamingTheOption) {
    auto [out, status] = run_server_cli("--trusted-proxy proxy.example.org --db sqlite::memory:");
    EXPECT_EQ(status, 2) << out;
    EXPECT_TRUE(has(out, "--trusted-proxy needs an IP address")) << out;
}
