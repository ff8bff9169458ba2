// The network's own limits over 127.0.0.1, as an operator sees them: WebSocket messages faster
// than --max-commands-per-second wait for their turn like text lines and HTTP requests (none is
// lost), connections past --max-per-address are refused, and each is counted in /metrics and
// logged.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "http_client.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server::test;

namespace {

// The value of the sample `name` in a /metrics page (-1: absent).
double sample(const std::string& page, const std::string& name) {
    auto at = page.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stod(page.substr(at + name.size() + 2));
}

std::string metrics_page(int http_port) {
    Http h(http_port);
    auto res = h.exchange(http::verb::get, "/metrics");
    EXPECT_EQ(res.result_int(), 200);
    return res.body();
}

// How many "limited" events of `limit` for `protocol` the log has.
int limited_events(const std::string& log, const std::string& limit, const std::string& protocol) {
    int n = 0;
    std::size_t start = 0;
    for (std::size_t nl; (nl = log.find('\n', start)) != std::string::npos; start = nl + 1) {
        std::string line = log.substr(start, nl - start);
        n += has(line, "\"event\":\"limited\"") && has(line, "\"limit\":\"" + limit + "\"")
          && has(line, "\"protocol\":\"" + protocol + "\"");
    }
    return n;
}

}  // namespace

// 5 messages a second, bursts of 15: a client that sends 25 pings at once gets 25 pongs, in
// order; the waits are counted and the connection is logged once. HTTP requests on one
// connection and a text paste alike.
TEST(ConnectionLimits, WebSocketMessagesFasterThanTheLimitWaitAndAreAnsweredInOrder) {
    ServerProcess srv(temp_db("ws_rate"), {"--max-commands-per-second", "5", "--bots", ""});
    int port = srv.ports.at("http");
    Http h(port);
    std::string token = h.post("/api/register", {{"name", "alice"}, {"password", "secret"}}).value("token", "");
    ASSERT_FALSE(token.empty());
    EXPECT_EQ(sample(metrics_page(port), "hisha_limited_total{limit=\"commands_per_connection\"}"), 0);

    Ws ws(port, token);
    const int messages = 25;
    for (int i = 0; i < messages; ++i)
        ws.send({{"type", "ping"}, {"id", i}});
    for (int i = 0; i < messages; ++i) {
        json j = ws.read(15);
        ASSERT_EQ(j.value("type", ""), "pong") << j.dump();
        EXPECT_EQ(j.value("id", -1), i) << "answered in order";
    }
    double waits = sample(metrics_page(port), "hisha_limited_total{limit=\"commands_per_connection\"}");
    EXPECT_GE(waits, 1) << "past the burst, messages waited";
    EXPECT_EQ(limited_events(srv.log_text(), "commands_per_connection", "websocket"), 1) << srv.log_text();

    // HTTP requests on one kept-alive connection alike.
    double before_http = sample(metrics_page(port), "hisha_limited_total{limit=\"commands_per_connection\"}");
    Http keep(port);
    for (int i = 0; i < messages; ++i)
        EXPECT_EQ(keep.exchange(http::verb::get, "/api/who").result_int(), 200) << i;
    EXPECT_GT(sample(metrics_page(port), "hisha_limited_total{limit=\"commands_per_connection\"}"), before_http);
    EXPECT_EQ(limited_events(srv.log_text(), "commands_per_connection", "http"), 1) << srv.log_text();
    waits = sample(metrics_page(port), "hisha_limited_total{limit=\"commands_per_connection\"}");

    LineClient t(srv.ports.at("text"));
    t.read_until("hisha> ");
    std::string paste;
    for (int i = 0; i < messages; ++i)
        paste += "cmd" + std::to_string(i) + "\n";
    t.send_raw(paste);
    t.read_until("unknown command 'cmd" + std::to_string(messages - 1) + "'", 20000);
    EXPECT_GT(sample(metrics_page(port), "hisha_limited_total{limit=\"commands_per_connection\"}"), waits);
    EXPECT_EQ(limited_events(srv.log_text(), "commands_per_connection", "text"), 1) << srv.log_text();
}

// --max-per-address 2: the third connection from 127.0.0.1 is refused with the reason, counted
// and logged; once one closes, a new one is served.
TEST(ConnectionLimits, ConnectionsPastTheLimitOfAnAddressAreRefusedAndCounted) {
    ServerProcess srv(temp_db("per_address"), {"--max-per-address", "2", "--bots", ""});
    auto first = std::make_unique<LineClient>(srv.ports.at("text"));
    first->read_until("hisha> ");
    LineClient second(srv.ports.at("csa"));
    second.send_line("LOGIN nobody secret", "\n");
    second.read_until("LOGIN:incorrect\n");  // (served: it counts)
    LineClient third(srv.ports.at("text"));
    EXPECT_TRUE(has(third.read_until("\n"), "too many connections from your address"));
    EXPECT_TRUE(third.closed_by_peer());
    EXPECT_EQ(sample(metrics_page(srv.ports.at("http")), "hisha_limited_total{limit=\"connections_per_address\"}"), 1);
    EXPECT_TRUE(has(srv.log_text(), "too many connections from this address")) << srv.log_text();
    // Once one closes, the address gets in again (it stayed locked out: the count of an
    // address was only brought up to date by a connection let in).
    first.reset();
    for (int attempt = 0;; ++attempt) {  // (the server sees the close when it next reads)
        LineClient again(srv.ports.at("text"));
        if (has(again.read_until("\n"), "too many connections") && attempt < 100) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            continue;
        }
        EXPECT_LT(attempt, 100) << "a closed connection frees its place";
        break;
    }
}

// The HTTP port counts its connections by address too, a WebSocket's for as long as it is open:
// at --max-per-address 2 the third of 127.0.0.5 gets 503 with the reason, counted; once one
// closes, the address is served again; another address is not held back.
TEST(ConnectionLimits, HttpConnectionsAndWebSocketsPastTheLimitOfAnAddressAreRefused) {
    ServerProcess srv(temp_db("http_per_address"), {"--max-per-address", "2", "--bots", ""});
    int port = srv.ports.at("http");
    std::string token =
        Http(port, 5, "127.0.0.6").post("/api/register", {{"name", "alice"}, {"password", "secret"}})["token"];
    auto first = std::make_unique<Http>(port, 5, "127.0.0.5");
    EXPECT_EQ(first->exchange(http::verb::get, "/api/who").result_int(), 200);  // (kept alive)
    Ws socket(port, Headers{{"Authorization", "Bearer " + token}}, "/api/ws", "127.0.0.5");
    ASSERT_EQ(socket.status, 101);
    Http third(port, 5, "127.0.0.5");
    auto refused = third.receive();  // (said at once, before any request is read)
    EXPECT_EQ(refused.result_int(), 503);
    EXPECT_TRUE(has(refused.body(), "too many connections from your address")) << refused.body();
    EXPECT_EQ(Http(port, 5, "127.0.0.7").exchange(http::verb::get, "/api/who").result_int(), 200);
    EXPECT_EQ(sample(metrics_page(port), "hisha_limited_total{limit=\"connections_per_address\"}"), 1);

    first.reset();
    auto status_of_new = [port] {  // (a refusal may also reset the request: 0)
        try {
            return Http(port, 5, "127.0.0.5").exchange(http::verb::get, "/api/who").result_int();
        } catch (const std::exception&) {
            return 0u;
        }
    };
    for (int attempt = 0;; ++attempt) {  // (the server sees the close when it next reads)
        if (status_of_new() != 200 && attempt < 100) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            continue;
        }
        EXPECT_LT(attempt, 100) << "a closed connection frees its place";
        break;
    }
}
