// Logins and registrations under attack, over 127.0.0.1: wrong passwords from one address are
// limited on the text, CSA and HTTP ports (429 with Retry-After) and the right password works
// once the delay has passed; registrations are limited per address; a full hashing queue
// answers "busy" (503) instead of waiting; and while a flood of logins is being checked, the
// moves of a game are still relayed. The limits themselves (AttemptLimits) on a given clock.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "server/service/attempt_limits.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::test;

namespace {

// The N of "retry in N s" in `text` (0 when absent).
int retry_in(const std::string& text) {
    auto at = text.find("retry in ");
    return at == std::string::npos ? 0 : std::atoi(text.c_str() + at + 9);
}

void wait_seconds(int s) { std::this_thread::sleep_for(std::chrono::milliseconds(s * 1000 + 250)); }

std::string http_request(const std::string& target, const std::string& body) {
    return "POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
         + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

// A POST over a connection of its own: the whole response (status line, headers, body).
std::string http_post(ServerProcess& srv, const std::string& target, const std::string& body) {
    LineClient c(srv.ports.at("http"));
    c.send_raw(http_request(target, body));
    c.closed_by_peer(10000);
    return c.pending();
}

std::string credentials(const std::string& name, const std::string& password) {
    return R"({"name":")" + name + R"(","password":")" + password + R"("})";
}

std::unique_ptr<LineClient> text_client(ServerProcess& srv) {
    auto c = std::make_unique<LineClient>(srv.ports.at("text"));
    c->read_until("hisha> ");
    return c;
}

// Every limit off but what a test turns on.
std::vector<std::string> no_limits(std::vector<std::string> extra) {
    std::vector<std::string> args = {"--login-per-address",    "0", "--login-per-account", "0",
                                     "--register-per-address", "0", "--login-backoff",     "0/0/0"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

}  // namespace

TEST(LoginLimits, FailedLoginsOfAnAccountWaitLongerEachTimeThenTheRightPasswordWorks) {
    ServerProcess srv(temp_db("limits_account"), no_limits({"--login-backoff", "100/2/8"}));
    auto t = text_client(srv);
    EXPECT_TRUE(has(t->cmd("REGISTER alice secret"), "Account alice created."));
    auto other = text_client(srv);
    EXPECT_TRUE(has(other->cmd("REGISTER bob secret"), "Account bob created."));
    t = text_client(srv);
    EXPECT_TRUE(has(t->cmd("LOGIN alice wrong1"), "Error: incorrect name or password"));
    EXPECT_TRUE(has(t->cmd("LOGIN alice wrong2"), "Error: incorrect name or password"));
    std::string limited = t->cmd("LOGIN alice secret");  // the right one, too soon
    EXPECT_TRUE(has(limited, "Error: too many failed logins for this account: retry in 1 s")) << limited;
    auto b = text_client(srv);
    EXPECT_TRUE(has(b->cmd("LOGIN bob secret"), "Welcome, bob.")) << "another account from the address";
    wait_seconds(retry_in(limited));
    EXPECT_TRUE(has(t->cmd("LOGIN alice wrong3"), "Error: incorrect name or password"));
    std::string longer = t->cmd("LOGIN alice secret");
    EXPECT_EQ(retry_in(longer), 2) << longer;  // doubled
    wait_seconds(retry_in(longer));
    EXPECT_TRUE(has(t->cmd("LOGIN alice secret"), "Welcome, alice."));
    auto again = text_client(srv);  // the success forgot the failures
    EXPECT_TRUE(has(again->cmd("LOGIN alice wrong4"), "Error: incorrect name or password"));
    EXPECT_TRUE(has(again->cmd("LOGIN alice secret"), "Welcome, alice."));
    srv.stop();
    EXPECT_TRUE(has(srv.log_text(), R"("event":"limited","limit":"login_backoff_account")")) << srv.log_text();
}

TEST(LoginLimits, CsaFailedLoginsOfAnAddressAreLimitedWithAReason) {
    ServerProcess srv(temp_db("limits_csa"), open_csa(no_limits({"--login-backoff", "3/100/2"})));
    LineClient c(srv.ports.at("csa"));
    c.send_line("LOGIN alice secret x1", "\n");  // registered (CSA auto-registration)
    c.read_until("##[LOGIN] +OK x1\n");
    LineClient d(srv.ports.at("csa"));
    for (int i = 0; i < 3; ++i) {
        d.send_line("LOGIN alice wrong" + std::to_string(i), "\n");
        EXPECT_EQ(d.read_until("\n"), "LOGIN:incorrect\n");
    }
    d.send_line("LOGIN alice secret", "\n");
    EXPECT_EQ(d.read_until("\n"), "LOGIN:incorrect\n");
    std::string why = d.read_until("\n");
    EXPECT_EQ(why, "##[ERROR] too many failed logins from your address: retry in 1 s\n");
    wait_seconds(retry_in(why));
    d.send_line("LOGIN alice secret", "\n");
    EXPECT_EQ(d.read_until("\n"), "LOGIN:alice OK\n");
}

TEST(LoginLimits, HttpLoginFloodOfAnAddressIsAnswered429WithRetryAfter) {
    ServerProcess srv(temp_db("limits_http"), no_limits({"--login-per-address", "5/20"}));  // then one in 3 s
    EXPECT_TRUE(has(http_post(srv, "/api/register", credentials("alice", "secret")), "HTTP/1.1 200"));
    int refused = 0, limited = 0;
    std::string last;
    for (int i = 0; i < 12; ++i) {
        last = http_post(srv, "/api/login", credentials("alice", "wrong" + std::to_string(i)));
        refused += has(last, "HTTP/1.1 401");
        limited += has(last, "HTTP/1.1 429");
    }
    EXPECT_GE(refused, 5);  // the burst (and a token that came back, on a very slow machine)
    EXPECT_GE(limited, 6);
    EXPECT_EQ(refused + limited, 12);
    EXPECT_TRUE(has(last, "Retry-After: ")) << last;
    EXPECT_TRUE(has(last, R"("retry_after_s":)")) << last;
    EXPECT_TRUE(has(last, "too many login attempts from your address: retry in ")) << last;
    std::string right = http_post(srv, "/api/login", credentials("alice", "secret"));
    EXPECT_TRUE(has(right, "HTTP/1.1 429")) << right;
    wait_seconds(retry_in(right));
    std::string later = http_post(srv, "/api/login", credentials("alice", "secret"));
    EXPECT_TRUE(has(later, "HTTP/1.1 200")) << later;
    EXPECT_TRUE(has(later, R"("token":")"));
}

TEST(LoginLimits, RegistrationsOfAnAddressAreLimitedOnEveryPort) {
    ServerProcess srv(temp_db("limits_register"), open_csa(no_limits({"--register-per-address", "3/60"})));
    auto t = text_client(srv);
    EXPECT_TRUE(has(t->cmd("REGISTER u1 secret"), "Account u1 created."));
    t = text_client(srv);
    EXPECT_TRUE(has(t->cmd("REGISTER u2 secret"), "Account u2 created."));
    EXPECT_TRUE(has(http_post(srv, "/api/register", credentials("u3", "secret")), "HTTP/1.1 200"));
    t = text_client(srv);
    std::string text = t->cmd("REGISTER u4 secret");
    EXPECT_TRUE(has(text, "Error: too many new accounts from your address: retry in 1 s")) << text;
    std::string http = http_post(srv, "/api/register", credentials("u5", "secret"));
    EXPECT_TRUE(has(http, "HTTP/1.1 429")) << http;
    EXPECT_TRUE(has(http, "Retry-After: ")) << http;
    LineClient c(srv.ports.at("csa"));
    c.send_line("LOGIN u6 secret", "\n");  // an auto-registration (open: --csa-auto-register on)
    EXPECT_EQ(c.read_until("\n"), "LOGIN:incorrect\n");
    EXPECT_TRUE(has(c.read_until("\n"), "too many new accounts"));
    wait_seconds(retry_in(text));
    EXPECT_TRUE(has(t->cmd("REGISTER u4 secret"), "Account u4 created."));
}

// One hashing thread, at most one hash waiting or running, the real argon2id cost: of logins
// sent at once on 30 connections most find the queue full and are told so at once.
TEST(LoginLimits, AFullHashingQueueAnswersBusyAtOnce) {
    ServerProcess srv(temp_db("limits_busy"),
                      no_limits({"--password-cost", "interactive", "--hash-threads", "1", "--hash-queue", "1"}));
    EXPECT_TRUE(has(text_client(srv)->cmd("REGISTER alice secret"), "Account alice created."));
    std::vector<std::unique_ptr<LineClient>> text, csa, http;
    for (int i = 0; i < 10; ++i) {
        text.push_back(text_client(srv));
        csa.push_back(std::make_unique<LineClient>(srv.ports.at("csa")));
        http.push_back(std::make_unique<LineClient>(srv.ports.at("http")));
    }
    for (int i = 0; i < 10; ++i) {
        text[std::size_t(i)]->send_line("LOGIN alice wrong");
        csa[std::size_t(i)]->send_line("LOGIN alice wrong", "\n");
        http[std::size_t(i)]->send_raw(http_request("/api/login", credentials("alice", "wrong")));
    }
    int busy = 0, incorrect = 0;
    for (auto& c : text) {
        std::string out = c->read_until("hisha> ", 30000);
        busy += has(out, "Error: server busy, retry in ");
        incorrect += has(out, "Error: incorrect name or password");
    }
    for (auto& c : csa) {
        EXPECT_EQ(c->read_until("\n", 30000), "LOGIN:incorrect\n");
        std::string why = c->drain(200);
        if (has(why, "##[ERROR] server busy, retry in "))
            ++busy;
        else
            incorrect += why.empty();
    }
    for (auto& c : http) {
        c->closed_by_peer(30000);
        std::string out = c->pending();
        if (has(out, "HTTP/1.1 503")) {
            ++busy;
            EXPECT_TRUE(has(out, "Retry-After: ")) << out;
            EXPECT_TRUE(has(out, "server busy, retry in ")) << out;
        } else {
            incorrect += has(out, "HTTP/1.1 401");
        }
    }
    EXPECT_GE(busy, 5) << "incorrect: " << incorrect;
    EXPECT_GE(incorrect, 1);
    EXPECT_EQ(busy + incorrect, 30);
    auto t = text_client(srv);  // once the queue is free the account is there as before
    EXPECT_TRUE(has(t->cmd("LOGIN alice secret"), "Welcome, alice."));
}

// The real argon2id cost on one hashing thread: 30 logins keep it busy for a while; a game's
// moves go back and forth meanwhile, before the logins are all answered. (The moves do not wait
// for the disk, whose syncs are slow when other work shares it.)
TEST(LoginLimits, MovesAreRelayedWhileAFloodOfLoginsIsChecked) {
    ServerProcess srv(
        "sqlite:" + temp_db("limits_moves") + "?sync=normal",
        open_csa(no_limits({"--password-cost", "interactive", "--hash-threads", "1", "--hash-queue", "100"})));
    EXPECT_TRUE(has(text_client(srv)->cmd("REGISTER alice secret"), "Account alice created."));
    LineClient black(srv.ports.at("csa")), white(srv.ports.at("csa"));
    start_csa_game(black, "b0", white, "w0", "flood-600-10");
    const int flood = 30;
    std::vector<std::unique_ptr<LineClient>> clients;
    for (int i = 0; i < flood; ++i)
        clients.push_back(text_client(srv));
    for (auto& c : clients)
        c->send_line("LOGIN alice wrong");
    csa_plies(black, white, {"+7776FU", "-3334FU"});
    std::vector<bool> answered;
    for (auto& c : clients)
        answered.push_back(has(c->drain(0), "incorrect"));
    int early = int(std::count(answered.begin(), answered.end(), true));
    EXPECT_LT(early, flood) << "every login was answered before the moves";
    for (std::size_t i = 0; i < clients.size(); ++i)
        if (!answered[i]) {
            EXPECT_TRUE(has(clients[i]->read_until("hisha> ", 60000), "Error: incorrect name or password"));
        }
}

TEST(AttemptLimits, BucketsRefillAndFailedLoginsDoubleTheWaitUntilASuccess) {
    service::AttemptPolicy p;
    p.login_per_address = {3, 60};  // one a second
    p.login_per_account = {};
    p.register_per_address = {2, 6};
    p.free_failures_address = 100;
    p.free_failures_account = 2;
    p.max_delay_ms = 4000;
    service::AttemptLimits limits(p);
    using service::Limit;
    service::Millis t = 1'000'000;
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(limits.login("10.0.0.1", "", t).limit, Limit::None);
    auto v = limits.login("10.0.0.1", "", t);
    EXPECT_EQ(v.limit, Limit::LoginAddress);
    EXPECT_EQ(v.retry_after_ms, 1000);
    EXPECT_TRUE(v.first);
    EXPECT_FALSE(limits.login("10.0.0.1", "", t + 500).first);
    EXPECT_EQ(limits.login("10.0.0.2", "", t).limit, Limit::None);
    EXPECT_EQ(limits.login("10.0.0.1", "", t + 1000).limit, Limit::None);
    EXPECT_EQ(limits.counters().login_address, 2u);

    t += 100'000;
    std::vector<service::Millis> waits;
    for (int i = 0; i < 6; ++i) {
        auto w = limits.login("10.0.0.3", "alice", t);
        if (w.limit != Limit::None) {
            EXPECT_EQ(w.limit, Limit::LoginBackoffAccount);
            waits.push_back(w.retry_after_ms);
            t += w.retry_after_ms;
            ASSERT_EQ(limits.login("10.0.0.3", "alice", t).limit, Limit::None);
        }
        limits.login_failed("10.0.0.3", "alice", t);
    }
    EXPECT_EQ(waits, (std::vector<service::Millis>{1000, 2000, 4000, 4000}));
    EXPECT_EQ(limits.login("10.0.0.4", "alice", t).limit, Limit::LoginBackoffAccount) << "from any address";
    t += 4000;
    ASSERT_EQ(limits.login("10.0.0.3", "alice", t).limit, Limit::None);
    limits.login_succeeded("10.0.0.3", "alice");
    limits.login_failed("10.0.0.3", "alice", t);
    EXPECT_EQ(limits.login("10.0.0.3", "alice", t).limit, Limit::None) << "the success forgot the failures";

    EXPECT_EQ(limits.registration("10.0.0.5", t).limit, Limit::None);
    EXPECT_EQ(limits.registration("10.0.0.5", t).limit, Limit::None);
    auto r = limits.registration("10.0.0.5", t);
    EXPECT_EQ(r.limit, Limit::RegisterAddress);
    EXPECT_EQ(r.retry_after_ms, 10'000);
    EXPECT_EQ(limits.counters().register_address, 1u);
}
