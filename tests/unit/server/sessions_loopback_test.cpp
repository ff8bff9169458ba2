// Web sessions over 127.0.0.1: the login that sets an HttpOnly SameSite cookie, the WebSocket
// opened with it (never a token in the URL), refused without credentials or with bad, expired
// or revoked ones or from another site's page; log out and log out everywhere; requests with
// the cookie that change something refused without the page's header or from another origin
// (CSRF), while a script's Bearer token needs neither.
#include <gtest/gtest.h>

#include <thread>

#include "http_client.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server::test;

namespace {

struct Browser {
    int port;
    std::string cookie;  // "hisha_session=..."
    std::string origin() const { return "http://127.0.0.1:" + std::to_string(port); }
    /// The page's headers: its cookie, its own Origin and the X-Hisha-Request header.
    Headers page() const { return {{"Cookie", cookie}, {"Origin", origin()}, {"X-Hisha-Request", "1"}}; }
};

// Registers `name` (by a script) and logs in as a browser does: the session in a cookie.
Browser browser_login(int port, const std::string& name, bool registered = false) {
    Http h(port);
    if (!registered)
        h.post("/api/register", {{"name", name}, {"password", "secret"}});
    auto res =
        h.call(http::verb::post, "/api/login", json{{"name", name}, {"password", "secret"}, {"cookie", true}}.dump(),
               {{"Origin", "http://127.0.0.1:" + std::to_string(port)}});
    EXPECT_EQ(res.result_int(), 200) << res.body();
    std::string sc = set_cookie(res);
    EXPECT_TRUE(has(sc, "hisha_session=")) << sc;
    EXPECT_TRUE(has(sc, "HttpOnly")) << sc;
    EXPECT_TRUE(has(sc, "SameSite=Strict")) << sc;
    EXPECT_TRUE(has(sc, "Path=/")) << sc;
    EXPECT_TRUE(has(sc, "Max-Age=")) << sc;
    EXPECT_FALSE(has(sc, "Secure")) << "plain HTTP: a Secure cookie would not come back";
    json body = json::parse(res.body());
    EXPECT_FALSE(body.contains("token")) << "the page never holds the token";
    EXPECT_EQ(body["user"]["name"], name);
    EXPECT_EQ(body["user"]["admin"], false);
    return {port, cookie_pair(sc)};
}

std::string script_login(int port, const std::string& name) {
    Http h(port);
    return h.post("/api/login", {{"name", name}, {"password", "secret"}})["token"];
}

int status_of(int port, http::verb verb, const std::string& target, const Headers& headers,
              const std::string& body = {}) {
    Http h(port);
    return h.call(verb, target, body, headers).result_int();
}

}  // namespace

TEST(SessionsLoopback, TheCookieOpensTheWebSocketWithoutATokenInTheUrl) {
    ServerProcess srv(temp_db("sess_cookie"));
    int port = srv.ports.at("http");
    Browser b = browser_login(port, "alice");
    Ws ws(port, Headers{{"Cookie", b.cookie}, {"Origin", b.origin()}});
    ASSERT_EQ(ws.status, 101);
    {
        Http again(port);
        auto res = again.call(http::verb::post, "/api/login",
                              json{{"name", "alice"}, {"password", "secret"}, {"cookie", true}}.dump(), {});
        EXPECT_TRUE(has(set_cookie(res), "Max-Age=2592000")) << set_cookie(res) << " (30 days by default)";
    }
    EXPECT_EQ(ws.read()["type"], "hello");
    ws.send({{"type", "ping"}, {"id", 1}});
    EXPECT_EQ(ws.read()["type"], "pong");
    // The cookie is a login for the API too; /api/me says who and whether an administrator.
    Http h(port);
    auto me = h.call(http::verb::get, "/api/me", {}, {{"Cookie", b.cookie}});
    ASSERT_EQ(me.result_int(), 200) << me.body();
    EXPECT_EQ(json::parse(me.body())["user"]["name"], "alice");
    // Over HTTPS (the page's Origin, or a proxy's X-Forwarded-Proto) the cookie is Secure.
    auto secure =
        h.call(http::verb::post, "/api/login", json{{"name", "alice"}, {"password", "secret"}, {"cookie", true}}.dump(),
               {{"X-Forwarded-Proto", "https"}});
    EXPECT_TRUE(has(set_cookie(secure), "; Secure")) << set_cookie(secure);
    // A script's login still answers the token, and no cookie.
    auto script = h.call(http::verb::post, "/api/login", json{{"name", "alice"}, {"password", "secret"}}.dump(), {});
    EXPECT_TRUE(json::parse(script.body()).contains("token"));
    EXPECT_EQ(set_cookie(script), "");
}

TEST(SessionsLoopback, TheWebSocketIsRefusedWithoutGoodCredentials) {
    ServerProcess srv(temp_db("sess_refused"));
    int port = srv.ports.at("http");
    Browser b = browser_login(port, "alice");
    std::string token = script_login(port, "alice");
    std::string origin = b.origin();
    EXPECT_EQ(Ws(port, Headers{{"Origin", origin}}).status, 401) << "no credentials";
    EXPECT_EQ(Ws(port, Headers{{"Cookie", "hisha_session=" + std::string(64, 'a')}, {"Origin", origin}}).status, 401)
        << "an unknown session";
    EXPECT_EQ(Ws(port, Headers{{"Cookie", "hisha_session=junk"}, {"Origin", origin}}).status, 401);
    EXPECT_EQ(Ws(port, Headers{{"Authorization", "Bearer nonsense"}}).status, 401);
    EXPECT_EQ(Ws(port, Headers{{"Origin", origin}}, "/api/ws?token=" + token).status, 401)
        << "a token in the URL is no longer read";
    // The cookie from another site's page (cross-site WebSocket hijacking), or with no Origin.
    EXPECT_EQ(Ws(port, Headers{{"Cookie", b.cookie}, {"Origin", "http://evil.example"}}).status, 403);
    EXPECT_EQ(Ws(port, Headers{{"Cookie", b.cookie}, {"Origin", "http://127.0.0.1:1"}}).status, 403);
    EXPECT_EQ(Ws(port, Headers{{"Cookie", b.cookie}}).status, 403);
    EXPECT_EQ(Ws(port, Headers{{"Cookie", b.cookie}, {"Origin", origin}}, "/api/other").status, 404);
    // The good ones, after all that.
    EXPECT_EQ(Ws(port, Headers{{"Cookie", b.cookie}, {"Origin", origin}}).status, 101);
    EXPECT_EQ(Ws(port, Headers{{"Authorization", "Bearer " + token}}).status, 101);
}

TEST(SessionsLoopback, AnExpiredSessionIsRefused) {
    ServerProcess srv(temp_db("sess_expiry"), {"--session-lifetime", "2s"});
    int port = srv.ports.at("http");
    Browser b = browser_login(port, "alice", false);
    std::string token = script_login(port, "alice");
    EXPECT_EQ(Ws(port, Headers{{"Cookie", b.cookie}, {"Origin", b.origin()}}).status, 101);
    std::this_thread::sleep_for(std::chrono::milliseconds(2300));
    EXPECT_EQ(Ws(port, Headers{{"Cookie", b.cookie}, {"Origin", b.origin()}}).status, 401);
    EXPECT_EQ(Ws(port, Headers{{"Authorization", "Bearer " + token}}).status, 401);
    Http h(port);
    auto me = h.call(http::verb::get, "/api/me", {}, {{"Cookie", b.cookie}});
    EXPECT_EQ(me.result_int(), 401);
    EXPECT_TRUE(has(set_cookie(me), "Max-Age=0")) << "the browser is told to forget it";
    // A new login is a new session.
    Browser again = browser_login(port, "alice", true);
    EXPECT_EQ(Ws(port, Headers{{"Cookie", again.cookie}, {"Origin", again.origin()}}).status, 101);
}

TEST(SessionsLoopback, BadSessionLifetimesAreRefused) {
    for (const char* bad : {"0s", "30", "forever", "-1d"}) {
        auto [out, status] = run_server_cli(std::string("--session-lifetime ") + bad);
        EXPECT_EQ(status, 2) << bad;
        EXPECT_TRUE(has(out, "--session-lifetime needs a duration")) << out;
    }
}

TEST(SessionsLoopback, LogOutEndsThisSessionAndItsSocketOnly) {
    ServerProcess srv(temp_db("sess_logout"));
    int port = srv.ports.at("http");
    Browser one = browser_login(port, "alice");
    Browser two = browser_login(port, "alice", true);
    Ws ws1(port, Headers{{"Cookie", one.cookie}, {"Origin", one.origin()}});
    Ws ws2(port, Headers{{"Cookie", two.cookie}, {"Origin", two.origin()}});
    ASSERT_EQ(ws1.status, 101);
    ASSERT_EQ(ws2.status, 101);
    ws1.read();
    ws2.read();
    Http h(port);
    auto out = h.call(http::verb::post, "/api/logout", "{}", one.page());
    ASSERT_EQ(out.result_int(), 200) << out.body();
    EXPECT_TRUE(has(set_cookie(out), "hisha_session=;")) << set_cookie(out);
    EXPECT_TRUE(has(set_cookie(out), "Max-Age=0")) << set_cookie(out);
    json ended = ws1.read_type("session_ended");
    EXPECT_EQ(ended["reason"], "logged out");
    EXPECT_THROW(ws1.read(), std::runtime_error);
    EXPECT_EQ(ws1.close_code(), 4401);
    EXPECT_EQ(Ws(port, Headers{{"Cookie", one.cookie}, {"Origin", one.origin()}}).status, 401);
    // The other session goes on.
    ws2.send({{"type", "ping"}, {"id", 7}});
    EXPECT_EQ(ws2.read_type("pong")["id"], 7);
    EXPECT_EQ(status_of(port, http::verb::get, "/api/me", {{"Cookie", two.cookie}}), 200);
}

TEST(SessionsLoopback, LogOutEverywhereRevokesTheOtherSessions) {
    ServerProcess srv(temp_db("sess_everywhere"));
    int port = srv.ports.at("http");
    Browser laptop = browser_login(port, "alice");
    Browser phone = browser_login(port, "alice", true);
    std::string script = script_login(port, "alice");
    browser_login(port, "bob");
    std::string bob = script_login(port, "bob");
    Ws phone_ws(port, Headers{{"Cookie", phone.cookie}, {"Origin", phone.origin()}});
    Ws script_ws(port, script);
    Ws bob_ws(port, bob);
    ASSERT_EQ(phone_ws.status, 101);
    phone_ws.read();
    LineClient text(srv.ports.at("text"));  // a password login of the text protocol: no session token
    text.read_until("hisha> ");
    EXPECT_TRUE(has(text.cmd("LOGIN alice secret"), "Welcome"));

    Http h(port);
    auto out = h.call(http::verb::post, "/api/logout/everywhere", "{}", laptop.page());
    ASSERT_EQ(out.result_int(), 200) << out.body();
    EXPECT_TRUE(has(set_cookie(out), "Max-Age=0"));
    EXPECT_EQ(phone_ws.read_type("session_ended")["reason"], "logged out everywhere");
    EXPECT_EQ(script_ws.read_type("session_ended")["reason"], "logged out everywhere");
    for (const Browser* b : {&laptop, &phone})
        EXPECT_EQ(status_of(port, http::verb::get, "/api/me", {{"Cookie", b->cookie}}), 401);
    EXPECT_EQ(status_of(port, http::verb::get, "/api/me", {{"Authorization", "Bearer " + script}}), 401);
    EXPECT_EQ(Ws(port, Headers{{"Authorization", "Bearer " + script}}).status, 401);
    // bob's session and alice's text connection are not touched.
    EXPECT_EQ(status_of(port, http::verb::get, "/api/me", {{"Authorization", "Bearer " + bob}}), 200);
    bob_ws.send({{"type", "ping"}, {"id", 3}});
    EXPECT_EQ(bob_ws.read_type("pong")["id"], 3);
    EXPECT_TRUE(has(text.cmd("WHO"), "alice"));
    // Without a session: 401.
    EXPECT_EQ(status_of(port, http::verb::post, "/api/logout/everywhere", laptop.page(), "{}"), 401);
}

TEST(SessionsLoopback, CrossSiteRequestsWithTheCookieAreRefused) {
    ServerProcess srv(temp_db("sess_csrf"));
    int port = srv.ports.at("http");
    Browser b = browser_login(port, "alice");
    std::string body = json{{"pattern", "*"}, {"color", "white"}, {"time_control", "corr-7"}}.dump();
    auto challenges = [&] {
        Http h(port);
        auto r = h.call(http::verb::get, "/api/challenges", {}, {{"Cookie", b.cookie}});
        return json::parse(r.body()).size();
    };
    // A form or fetch of another site: the cookie alone (SameSite keeps it home in a browser;
    // the server does not rely on it), or with a foreign Origin.
    Http h(port);
    auto forged = h.call(http::verb::post, "/api/challenges", body, {{"Cookie", b.cookie}});
    EXPECT_EQ(forged.result_int(), 403);
    EXPECT_TRUE(has(forged.body(), "cross-site request refused")) << forged.body();
    EXPECT_TRUE(has(forged.body(), "X-Hisha-Request")) << forged.body();
    auto foreign = h.call(http::verb::post, "/api/challenges", body,
                          {{"Cookie", b.cookie}, {"X-Hisha-Request", "1"}, {"Origin", "https://evil.example"}});
    EXPECT_EQ(foreign.result_int(), 403);
    EXPECT_TRUE(has(foreign.body(), "https://evil.example")) << foreign.body();
    EXPECT_EQ(status_of(port, http::verb::delete_, "/api/challenges/1", {{"Cookie", b.cookie}}), 403);
    EXPECT_EQ(status_of(port, http::verb::post, "/api/logout/everywhere", {{"Cookie", b.cookie}}, "{}"), 403);
    EXPECT_EQ(challenges(), 0u) << "nothing was done";
    EXPECT_EQ(status_of(port, http::verb::get, "/api/me", {{"Cookie", b.cookie}}), 200) << "still logged in";
    // The page itself.
    auto own = h.call(http::verb::post, "/api/challenges", body, b.page());
    EXPECT_EQ(own.result_int(), 200) << own.body();
    EXPECT_EQ(challenges(), 1u);
    // A script with its token needs neither the header nor an Origin.
    std::string token = script_login(port, "alice");
    EXPECT_EQ(status_of(port, http::verb::post, "/api/challenges", {{"Authorization", "Bearer " + token}}, body), 200);
    EXPECT_EQ(challenges(), 2u);
}

TEST(SessionsLoopback, APublicOriginReplacesTheHostCheck) {
    ServerProcess srv(temp_db("sess_origin"), {"--public-origin", "https://shogi.example.org"});
    int port = srv.ports.at("http");
    Browser b = browser_login(port, "alice");
    EXPECT_EQ(Ws(port, Headers{{"Cookie", b.cookie}, {"Origin", b.origin()}}).status, 403);
    EXPECT_EQ(Ws(port, Headers{{"Cookie", b.cookie}, {"Origin", "https://shogi.example.org"}}).status, 101);
    Headers page{{"Cookie", b.cookie}, {"Origin", "https://shogi.example.org"}, {"X-Hisha-Request", "1"}};
    EXPECT_EQ(status_of(port, http::verb::post, "/api/shout", page, R"({"text":"hi"})"), 200);
    page[1].second = b.origin();
    EXPECT_EQ(status_of(port, http::verb::post, "/api/shout", page, R"({"text":"hi"})"), 403);
    std::string cmd = std::string(HISHA_SERVER_BINARY) + " --public-origin https://x.org/path 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    char buf[512];
    std::string out;
    while (p && std::fgets(buf, sizeof buf, p))
        out += buf;
    EXPECT_EQ(WEXITSTATUS(pclose(p)), 2);
    EXPECT_TRUE(has(out, "--public-origin needs an origin")) << out;
}
