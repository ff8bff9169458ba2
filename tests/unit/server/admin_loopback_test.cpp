// Administration over 127.0.0.1: an account made administrator with `hisha-server admin grant`
// while the server runs; each ADMIN command of the text protocol (BAN and UNBAN of accounts and
// addresses, BANS, KICK, ABORT, ADJUDICATE, ANNOUNCE, RESETPASSWORD, CONNECTIONS, QUEUES, AUDIT)
// and the web API's; bans enforced at login on the text, CSA and HTTP ports and by address at
// accept; refusals for everyone else; the log and the audit log.
#include <gtest/gtest.h>

#include "csa_players.h"
#include "http_client.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server::test;

namespace {

// `hisha-server admin ARGS`: its output and exit status.
std::pair<std::string, int> admin_cli(const std::string& args) { return run_server_cli("admin " + args); }

// A text-protocol client logged in (registered first when `fresh`).
std::unique_ptr<LineClient> text_login(int port, const std::string& name, bool fresh = true,
                                       const std::string& password = "secret") {
    auto c = std::make_unique<LineClient>(port);
    c->read_until("hisha> ");
    std::string r = c->cmd((fresh ? "REGISTER " : "LOGIN ") + name + " " + password);
    EXPECT_TRUE(has(r, "Welcome, " + name)) << r;
    return c;
}

// A text client from the source address `source` (127.0.0.0/8): its first line.
std::string first_line_from(int port, const std::string& source) {
    asio::io_context ioc;
    tcp::socket s(ioc);
    connect_from(s, port, source);
    bound(s);
    std::string out;
    char buf[512];
    boost::system::error_code ec;
    while (out.find('\n') == std::string::npos) {
        std::size_t n = s.read_some(asio::buffer(buf), ec);
        if (ec)
            break;
        out.append(buf, n);
    }
    return out;
}

// A server with alice as its administrator (granted on the database while it runs).
struct AdminServer {
    std::string db;
    ServerProcess srv;
    std::unique_ptr<LineClient> admin;
    explicit AdminServer(const std::string& tag, std::vector<std::string> extra = {})
        : db(temp_db(tag)), srv(db, std::move(extra)) {
        admin = text_login(srv.ports.at("text"), "alice");
        auto [out, status] = admin_cli("grant alice --db " + db);
        EXPECT_EQ(status, 0) << out;
        EXPECT_TRUE(has(out, "alice is an administrator")) << out;
    }
    int port(const char* p) const { return srv.ports.at(p); }
    std::string cmd(const std::string& line) { return admin->cmd(line); }
};

}  // namespace

TEST(AdminLoopback, GrantedOnTheCommandLineWhileTheServerRuns) {
    std::string db = temp_db("admin_grant");
    ServerProcess srv(db);
    auto alice = text_login(srv.ports.at("text"), "alice");
    auto bob = text_login(srv.ports.at("text"), "bob");
    // Not yet: a clear refusal, logged.
    EXPECT_TRUE(has(alice->cmd("ADMIN HELP"), "Error: you are not an administrator"));
    EXPECT_TRUE(has(alice->cmd("ADMIN KICK bob"), "Error: you are not an administrator"));
    EXPECT_TRUE(has(srv.log_text(), R"("event":"admin_refused")")) << srv.log_text();
    // Granted on the database: it counts at once.
    auto [out, status] = admin_cli("grant Alice --db " + db);
    EXPECT_EQ(status, 0) << out;
    std::string help = alice->cmd("ADMIN");
    EXPECT_TRUE(has(help, "ADMIN BAN USER <name> [FOR <duration>] [reason]")) << help;
    EXPECT_TRUE(has(help, "ADMIN RESETPASSWORD")) << help;
    EXPECT_TRUE(has(bob->cmd("ADMIN HELP"), "Error: you are not an administrator"));
    EXPECT_EQ(admin_cli("list --db " + db).first, "alice\n");
    // Mistakes on the command line.
    EXPECT_EQ(admin_cli("grant nobody --db " + db).second, 1);
    EXPECT_TRUE(has(admin_cli("grant nobody --db " + db).first, "no account named nobody"));
    EXPECT_EQ(admin_cli("grant --db " + db).second, 2);
    EXPECT_EQ(admin_cli("promote alice --db " + db).second, 2);
    EXPECT_EQ(admin_cli("grant alice --frobnicate").second, 2);
    EXPECT_EQ(admin_cli("grant hisha-max --db " + db).second, 1) << "a bot cannot administer";
    // Revoked: refused again. Unknown subcommands are named.
    EXPECT_TRUE(has(alice->cmd("ADMIN FROB"), "unknown ADMIN command 'FROB'"));
    EXPECT_EQ(admin_cli("revoke alice --db " + db).second, 0);
    EXPECT_TRUE(has(alice->cmd("ADMIN BANS"), "Error: you are not an administrator"));
    EXPECT_EQ(admin_cli("list --db " + db).first, "");
}

TEST(AdminLoopback, ABanOfAnAccountHoldsOnEveryProtocol) {
    AdminServer s("admin_ban_user");
    auto carol = text_login(s.port("text"), "carol");
    Http h(s.port("http"));
    std::string token = h.post("/api/login", {{"name", "carol"}, {"password", "secret"}})["token"];
    Ws ws(s.port("http"), token);
    auto csa = csa_x1_login(s.port("csa"), "carol");

    EXPECT_TRUE(has(s.cmd("ADMIN BAN USER carol FOR 7x"), "'7x' is not a duration"));
    EXPECT_TRUE(has(s.cmd("ADMIN BAN USER nobody"), "no account named nobody"));
    EXPECT_TRUE(has(s.cmd("ADMIN BAN USER alice"), "you cannot ban yourself"));
    EXPECT_TRUE(has(s.cmd("ADMIN BAN carol"), "usage: ADMIN BAN USER"));
    std::string r = s.cmd("ADMIN BAN USER carol FOR 1h spamming the lobby");
    EXPECT_TRUE(has(r, "Banned user carol until ")) << r;
    EXPECT_TRUE(has(r, ": spamming the lobby.")) << r;
    // Her connections are closed with the reason.
    EXPECT_TRUE(has(carol->read_until("spamming the lobby"), "*** banned by an administrator until"));
    EXPECT_TRUE(carol->closed_by_peer());
    EXPECT_TRUE(has(csa->read_until("spamming the lobby\n"), "##[ERROR] banned by an administrator"));
    EXPECT_TRUE(csa->closed_by_peer());
    EXPECT_TRUE(has(ws.read_type("session_ended")["reason"].get<std::string>(), "spamming"));
    // Her logins are refused on each port, with the reason, and her token is gone.
    LineClient t(s.port("text"));
    t.read_until("hisha> ");
    std::string refused = t.cmd("LOGIN carol secret");
    EXPECT_TRUE(has(refused, "Error: the account carol is banned until")) << refused;
    EXPECT_TRUE(has(refused, "spamming the lobby")) << refused;
    LineClient c(s.port("csa"));
    c.send_line("LOGIN carol secret", "\n");
    EXPECT_TRUE(has(c.read_until("lobby\n"), "LOGIN:incorrect\n##[ERROR] the account carol is banned"));
    auto [status, body] =
        Http(s.port("http"))
            .request(http::verb::post, "/api/login", json{{"name", "carol"}, {"password", "secret"}}.dump());
    EXPECT_EQ(status, 403);
    EXPECT_TRUE(has(body, "the account carol is banned")) << body;
    EXPECT_EQ(Http(s.port("http")).request(http::verb::get, "/api/me", {}, token).first, 401);
    // Listed, lifted, and she is back.
    std::string bans = s.cmd("ADMIN BANS");
    EXPECT_TRUE(has(bans, "user    carol")) << bans;
    EXPECT_TRUE(has(bans, "by alice")) << bans;
    EXPECT_TRUE(has(s.cmd("ADMIN UNBAN USER bob"), "no ban of the user bob"));
    EXPECT_TRUE(has(s.cmd("ADMIN UNBAN USER Carol"), "Lifted the ban of Carol."));
    EXPECT_TRUE(has(s.cmd("ADMIN BANS"), "No bans."));
    text_login(s.port("text"), "carol", false);
    EXPECT_TRUE(has(s.srv.log_text(), R"("event":"banned")"));
}

TEST(AdminLoopback, ABanOfAnAddressRefusesItsConnections) {
    AdminServer s("admin_ban_addr");
    // A logged-in client of 127.0.0.3 is closed by the ban of its network.
    LineClient dave_conn(s.port("text"));  // (127.0.0.1: stays)
    dave_conn.read_until("hisha> ");
    EXPECT_TRUE(has(dave_conn.cmd("REGISTER dave secret"), "Welcome"));
    Http erin_http(s.port("http"), 5, "127.0.0.3");
    erin_http.post("/api/register", {{"name", "erin"}, {"password", "secret"}});
    std::string erin = erin_http.post("/api/login", {{"name", "erin"}, {"password", "secret"}})["token"];
    Ws erin_ws(s.port("http"), Headers{{"Authorization", "Bearer " + erin}}, "/api/ws", "127.0.0.3");
    ASSERT_EQ(erin_ws.status, 101);
    erin_ws.read();

    EXPECT_TRUE(has(s.cmd("ADMIN BAN ADDRESS 127.0.0.0/8"), "your own address 127.0.0.1 is in 127.0.0.0/8"));
    EXPECT_TRUE(has(s.cmd("ADMIN BAN ADDRESS 300.1.1.1"), "is not an address or network"));
    EXPECT_TRUE(has(s.cmd("ADMIN BAN ADDRESS 127.0.0.3 FOR 2h"), "Banned address 127.0.0.3 until"));
    EXPECT_TRUE(has(erin_ws.read_type("session_ended")["reason"].get<std::string>(), "banned"));
    // New connections from it are refused at accept, on every port; others are served.
    EXPECT_EQ(first_line_from(s.port("text"), "127.0.0.3"), "Error: your address is banned\r\n");
    EXPECT_EQ(first_line_from(s.port("csa"), "127.0.0.3"), "##[ERROR] your address is banned\n");
    EXPECT_TRUE(has(first_line_from(s.port("http"), "127.0.0.3"), "HTTP/1.1 403 Forbidden"));
    EXPECT_TRUE(has(first_line_from(s.port("text"), "127.0.0.4"), "Hisha shogi server"));
    EXPECT_TRUE(has(dave_conn.cmd("WHO"), "dave"));
    EXPECT_TRUE(has(s.srv.log_text(), R"("reason":"banned address")"));
    // A network; then lifted.
    EXPECT_TRUE(has(s.cmd("ADMIN BAN ADDRESS 127.0.1.9/24 proxies"), "Banned address 127.0.1.0/24 until lifted"));
    EXPECT_EQ(first_line_from(s.port("text"), "127.0.1.200"), "Error: your address is banned\r\n");
    EXPECT_TRUE(has(s.cmd("ADMIN UNBAN ADDRESS 127.0.0.3"), "Lifted"));
    EXPECT_TRUE(has(s.cmd("ADMIN UNBAN ADDRESS 127.0.1.0/24"), "Lifted"));
    EXPECT_TRUE(has(first_line_from(s.port("text"), "127.0.0.3"), "Hisha shogi server"));
    EXPECT_TRUE(has(first_line_from(s.port("text"), "127.0.1.200"), "Hisha shogi server"));
}

TEST(AdminLoopback, KickClosesEveryConnectionOfAnAccount) {
    AdminServer s("admin_kick");
    auto bob1 = text_login(s.port("text"), "bob");
    auto bob2 = text_login(s.port("text"), "bob", false);
    auto csa = csa_x1_login(s.port("csa"), "bob");
    EXPECT_TRUE(has(s.cmd("ADMIN KICK"), "usage: ADMIN KICK <name> [reason]"));
    EXPECT_TRUE(has(s.cmd("ADMIN KICK nobody"), "no account named nobody"));
    EXPECT_TRUE(has(s.cmd("ADMIN KICK bob go to sleep"), "Closed 3 connections of bob."));
    EXPECT_TRUE(has(bob1->read_until("sleep"), "*** disconnected by an administrator: go to sleep"));
    EXPECT_TRUE(bob1->closed_by_peer());
    EXPECT_TRUE(bob2->closed_by_peer());
    EXPECT_TRUE(has(csa->read_until("sleep\n"), "##[ERROR] disconnected by an administrator"));
    EXPECT_TRUE(has(s.cmd("ADMIN KICK bob"), "bob is not connected to this server"));
    text_login(s.port("text"), "bob", false);  // a kick is no ban
}

TEST(AdminLoopback, AbortAndAdjudicateGames) {
    AdminServer s("admin_games");
    auto bob = text_login(s.port("text"), "bob");
    auto carol = text_login(s.port("text"), "carol");
    Http h(s.port("http"));
    std::string bt = h.post("/api/login", {{"name", "bob"}, {"password", "secret"}})["token"];
    auto game = [&] {
        return h.post("/api/games", {{"opponent", "carol"}, {"color", "black"}, {"time_control", "corr-7"}}, bt)["id"]
            .get<long long>();
    };
    long long g1 = game(), g2 = game();
    bob->drain();
    carol->drain();
    EXPECT_TRUE(has(s.cmd("ADMIN ABORT x"), "'x' is not a game number"));
    EXPECT_TRUE(has(s.cmd("ADMIN ABORT 9999"), "no game number 9999"));
    EXPECT_TRUE(
        has(s.cmd("ADMIN ABORT " + std::to_string(g1) + " test game"), "Game " + std::to_string(g1) + " aborted."));
    EXPECT_TRUE(has(bob->read_until("aborted."), "Game " + std::to_string(g1) + " is over: No result by aborted."));
    EXPECT_EQ(h.get("/api/games/" + std::to_string(g1))["status"], "aborted");
    EXPECT_TRUE(has(s.cmd("ADMIN ABORT " + std::to_string(g1)), "is over already"));
    EXPECT_TRUE(has(s.cmd("ADMIN ADJUDICATE " + std::to_string(g2) + " MAYBE"), "BLACK, WHITE or DRAW, not 'MAYBE'"));
    EXPECT_TRUE(has(s.cmd("ADMIN ADJUDICATE " + std::to_string(g2)), "usage: ADMIN ADJUDICATE"));
    EXPECT_TRUE(
        has(s.cmd("ADMIN ADJUDICATE " + std::to_string(g2) + " white carol was winning"), "adjudicated: White wins."));
    EXPECT_TRUE(has(carol->read_until("adjudication."), "is over: White wins by adjudication."));
    json g = h.get("/api/games/" + std::to_string(g2));
    EXPECT_EQ(g["status"], "finished");
    EXPECT_EQ(g["winner"], "white");
    EXPECT_EQ(g["reason"], "adjudication");
    json users = h.get("/api/users?pattern=carol");
    EXPECT_EQ(users[0]["wins"], 1) << "an adjudicated game is rated";
    // The record says so too (CSA: the play stopped, the result is the summary's).
    auto [status, record] = h.request(http::verb::get, "/api/games/" + std::to_string(g2) + "/record?format=csa");
    EXPECT_EQ(status, 200);
    EXPECT_TRUE(has(record, "%CHUDAN")) << record;
}

TEST(AdminLoopback, AnnounceReachesEveryProtocol) {
    AdminServer s("admin_announce");
    auto bob = text_login(s.port("text"), "bob");
    text_login(s.port("text"), "carol");  // (registered; this connection ends here)
    auto csa2 = csa_x1_login(s.port("csa"), "carol");
    Http h(s.port("http"));
    h.post("/api/register", {{"name", "dave"}, {"password", "secret"}});
    Ws ws(s.port("http"), h.post("/api/login", {{"name", "dave"}, {"password", "secret"}})["token"].get<std::string>());
    EXPECT_TRUE(has(s.cmd("ADMIN ANNOUNCE"), "usage: ADMIN ANNOUNCE <text>"));
    std::string r = s.cmd("ADMIN ANNOUNCE The server restarts at 10:00 UTC.");
    EXPECT_TRUE(has(r, "Announced to 4 players.")) << r;  // alice, bob, carol, dave
    EXPECT_TRUE(has(bob->read_until("UTC."), "*** Announcement from alice: The server restarts at 10:00 UTC."));
    EXPECT_TRUE(has(csa2->read_until("UTC.\n"), "##[ANNOUNCE][alice] The server restarts at 10:00 UTC."));
    json a = ws.read_type("announce");
    EXPECT_EQ(a["from"], "alice");
    EXPECT_EQ(a["text"], "The server restarts at 10:00 UTC.");
}

TEST(AdminLoopback, ResetPasswordRevokesTheSessions) {
    AdminServer s("admin_reset");
    text_login(s.port("text"), "bob");
    Http h(s.port("http"));
    std::string token = h.post("/api/login", {{"name", "bob"}, {"password", "secret"}})["token"];
    EXPECT_TRUE(has(s.cmd("ADMIN RESETPASSWORD bob"), "usage: ADMIN RESETPASSWORD <name> <new password>"));
    EXPECT_TRUE(has(s.cmd("ADMIN RESETPASSWORD bob abc"), "the password must have 4 to 128 characters"));
    EXPECT_TRUE(has(s.cmd("ADMIN RESETPASSWORD nobody abcdef"), "no account named nobody"));
    EXPECT_TRUE(has(s.cmd("ADMIN RESETPASSWORD hisha-max abcdef"), "is an engine bot"));
    EXPECT_TRUE(has(s.cmd("ADMIN RESETPASSWORD bob n3w-secret"), "The password of bob is reset"));
    EXPECT_EQ(Http(s.port("http")).request(http::verb::get, "/api/me", {}, token).first, 401);
    LineClient t(s.port("text"));
    t.read_until("hisha> ");
    EXPECT_TRUE(has(t.cmd("LOGIN bob secret"), "incorrect name or password"));
    text_login(s.port("text"), "bob", false, "n3w-secret");
}

TEST(AdminLoopback, ConnectionsQueuesAndTheAuditLog) {
    AdminServer s("admin_lists");
    auto bob = text_login(s.port("text"), "bob");
    std::string conns = s.cmd("ADMIN CONNECTIONS");
    EXPECT_TRUE(has(conns, "alice")) << conns;
    EXPECT_TRUE(has(conns, "bob                 text  127.0.0.1")) << conns;
    std::string queues = s.cmd("ADMIN QUEUES");
    for (const char* row : {"players_online", "games_in_progress", "password_hashes_pending", "solver_jobs_running",
                            "solver_jobs_waiting", "connections_text", "connections_websocket", "bans"})
        EXPECT_TRUE(has(queues, row)) << row << " in " << queues;
    EXPECT_TRUE(has(s.cmd("ADMIN CONNECTIONS now"), "usage: ADMIN CONNECTIONS"));
    std::string before = s.cmd("ADMIN AUDIT");
    EXPECT_TRUE(has(before, "hisha-server admin: grant alice")) << before;
    EXPECT_FALSE(has(before, "CONNECTIONS") || has(before, "connections")) << "listings are logged, not audited";
    s.cmd("ADMIN BAN USER bob FOR 1d testing");
    s.cmd("ADMIN UNBAN USER bob");
    EXPECT_TRUE(has(s.cmd("ADMIN AUDIT x"), "usage: ADMIN AUDIT [n]"));
    std::string audit = s.cmd("ADMIN AUDIT");
    EXPECT_TRUE(has(audit, "alice (127.0.0.1): unban user bob")) << audit;
    EXPECT_TRUE(has(audit, "alice (127.0.0.1): ban user bob -- until ")) << audit;
    EXPECT_LT(audit.find("unban"), audit.find(": ban")) << "newest first";
    EXPECT_FALSE(has(s.cmd("ADMIN AUDIT 1"), ": ban user"));
    // In the server's log as well, and kept across a restart (with the grant of the command line).
    std::string log = s.srv.log_text();
    EXPECT_TRUE(has(log, R"("event":"admin_action")")) << log;
    EXPECT_TRUE(has(log, R"("action":"ban")")) << log;
    s.srv.restart();
    auto again = text_login(s.srv.ports.at("text"), "alice", false);
    audit = again->cmd("ADMIN AUDIT");
    EXPECT_TRUE(has(audit, "hisha-server admin: grant alice")) << audit;
    EXPECT_TRUE(has(audit, "unban user bob")) << audit;
}

TEST(AdminLoopback, TheWebAdminApi) {
    AdminServer s("admin_web");
    int port = s.port("http");
    std::string origin = "http://127.0.0.1:" + std::to_string(port);
    Http h(port);
    auto login = h.call(http::verb::post, "/api/login",
                        json{{"name", "alice"}, {"password", "secret"}, {"cookie", true}}.dump(), {});
    EXPECT_EQ(json::parse(login.body())["user"]["admin"], true);
    Headers page{{"Cookie", cookie_pair(set_cookie(login))}, {"Origin", origin}, {"X-Hisha-Request", "1"}};
    auto bob = text_login(s.port("text"), "bob");
    h.post("/api/register", {{"name", "carol"}, {"password", "secret"}});
    std::string carol = h.post("/api/login", {{"name", "carol"}, {"password", "secret"}})["token"];
    auto call = [&](http::verb v, const std::string& target, const json& body, const Headers& hs) {
        Http c(port);
        auto r = c.call(v, target, body.is_null() ? std::string() : body.dump(), hs);
        return std::pair<int, json>(r.result_int(), json::parse(r.body(), nullptr, false));
    };
    // Not for carol; not without the page's header (CSRF).
    EXPECT_EQ(call(http::verb::get, "/api/admin/status", {}, {{"Authorization", "Bearer " + carol}}).first, 403);
    EXPECT_EQ(
        call(http::verb::post, "/api/admin/announce", {{"text", "x"}}, {{"Authorization", "Bearer " + carol}}).first,
        403);
    EXPECT_EQ(call(http::verb::post, "/api/admin/kick", {{"name", "bob"}}, {page[0], page[1]}).first, 403);

    auto [st, status] = call(http::verb::get, "/api/admin/status", {}, page);
    ASSERT_EQ(st, 200) << status;
    EXPECT_TRUE(status["status"].contains("password_hashes_pending")) << status;
    bool bob_listed = false;
    for (auto& c : status["connections"])
        bob_listed |= c["name"] == "bob" && c["protocol"] == "text" && c["peer"] == "127.0.0.1";
    EXPECT_TRUE(bob_listed) << status;

    EXPECT_EQ(call(http::verb::post, "/api/admin/ban", {{"kind", "robot"}, {"target", "bob"}}, page).first, 400);
    EXPECT_EQ(
        call(http::verb::post, "/api/admin/ban", {{"kind", "user"}, {"target", "bob"}, {"duration", "soon"}}, page)
            .first,
        400);
    auto [bs, ban] = call(http::verb::post, "/api/admin/ban",
                          {{"kind", "user"}, {"target", "carol"}, {"duration", "1d"}, {"reason", "web"}}, page);
    EXPECT_EQ(bs, 200) << ban;
    EXPECT_EQ(call(http::verb::get, "/api/me", {}, {{"Authorization", "Bearer " + carol}}).first, 401);
    EXPECT_EQ(call(http::verb::post, "/api/admin/unban", {{"kind", "user"}, {"target", "carol"}}, page).first, 200);
    EXPECT_EQ(call(http::verb::post, "/api/admin/kick", {{"name", "bob"}, {"reason", "web"}}, page).second["closed"],
              1);
    EXPECT_EQ(call(http::verb::post, "/api/admin/announce", {{"text", "hello"}}, page).first, 200);
    long long gid =
        call(http::verb::post, "/api/games", {{"opponent", "alice"}, {"color", "black"}, {"time_control", "corr-7"}},
             {{"Authorization",
               "Bearer "
                   + h.post("/api/login", {{"name", "carol"}, {"password", "secret"}})["token"].get<std::string>()}})
            .second["id"];
    EXPECT_EQ(
        call(http::verb::post, "/api/admin/games/" + std::to_string(gid) + "/adjudicate", {{"winner", "maybe"}}, page)
            .first,
        400);
    auto [as, adj] = call(http::verb::post, "/api/admin/games/" + std::to_string(gid) + "/adjudicate",
                          {{"winner", "draw"}, {"reason", "agreed"}}, page);
    EXPECT_EQ(as, 200) << adj;
    EXPECT_EQ(adj["game"]["winner"], "draw");
    EXPECT_EQ(call(http::verb::post, "/api/admin/games/" + std::to_string(gid) + "/abort", {}, page).first, 400)
        << "over already";
    EXPECT_EQ(
        call(http::verb::post, "/api/admin/reset-password", {{"name", "carol"}, {"password", "abcdef"}}, page).first,
        200);
    EXPECT_EQ(call(http::verb::post, "/api/admin/reset-password", {{"name", "carol"}, {"password", "abcdef"}},
                   {{"Authorization", "Bearer " + carol}})
                  .first,
              401);
    EXPECT_EQ(call(http::verb::post, "/api/admin/frobnicate", {}, page).first, 404);
    json audit = call(http::verb::get, "/api/admin/status", {}, page).second["audit"];
    std::vector<std::string> actions;
    for (auto& a : audit)
        actions.push_back(a["action"]);
    EXPECT_EQ(actions,
              (std::vector<std::string>{"resetpassword", "adjudicate", "announce", "kick", "unban", "ban", "grant"}));
}
