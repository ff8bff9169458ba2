// The HTTP + WebSocket JSON API over 127.0.0.1: accounts, a challenge accepted, a game played
// with WebSocket moves and HTTP moves, live events, a refused move in another player's game,
// record downloads, malformed input, and the same game seen through the text and CSA
// protocols.
#include <gtest/gtest.h>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include "http_client.h"
#include "notation/encoding.h"
#include "notation/formats.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server::test;  // (with Beast's names and json: http_client.h)
namespace notation = hisha::notation;

TEST(HttpLoopback, JsonWebSocketGameSeenThroughAllThreeProtocols) {
    ServerProcess srv(temp_db("http_game"));
    int port = srv.ports.at("http");
    Http h(port);
    std::string ta = h.post("/api/register", {{"name", "alice"}, {"password", "secret"}})["token"];
    std::string tb = h.post("/api/register", {{"name", "bob"}, {"password", "secret"}})["token"];
    std::string tc = h.post("/api/register", {{"name", "carol"}, {"password", "secret"}})["token"];
    h.post("/api/login", {{"name", "alice"}, {"password", "wrong"}}, {}, 401);
    EXPECT_EQ(h.get("/api/me", ta)["user"]["name"], "alice");

    json c = h.post("/api/challenges",
                    {{"pattern", "bob"}, {"color", "black"}, {"first_move", "P-7f"}, {"time_control", "600-10"}}, ta);
    ASSERT_TRUE(c.contains("id"));
    EXPECT_EQ(h.get("/api/challenges", tb).size(), 1u);
    EXPECT_EQ(h.get("/api/challenges", tc).size(), 0u);
    json g = h.post("/api/challenges/" + std::to_string(int(c["id"])) + "/accept", json::object(), tb);
    ASSERT_EQ(g["id"], 1);
    EXPECT_EQ(g["plies"], 1);
    EXPECT_EQ(g["to_move"], "white");

    Ws wa(port, ta), wb(port, tb);
    wb.send({{"type", "move"}, {"game", 1}, {"move", "3c3d"}, {"id", 7}});
    json ok = wb.read_type("ok");
    EXPECT_EQ(ok["id"], 7);
    json ev = wa.read_type("move");
    EXPECT_EQ(ev["usi"], "3c3d");
    EXPECT_EQ(ev["csa"], "-3334FU");
    EXPECT_EQ(ev["western"], "P-3d");
    EXPECT_EQ(ev["ply"], 2);
    EXPECT_TRUE(ev["clock"].contains("white_ms"));

    // HTTP moves in CSA notation work too; carol may not move in this game.
    Http hc(port);
    auto [status, text] = hc.request(http::verb::post, "/api/games/1/move", json{{"move", "2g2f"}}.dump(), tc);
    EXPECT_EQ(status, 403) << text;
    json p = h.post("/api/games/1/move", {{"move", "+2726FU"}}, ta);
    EXPECT_EQ(p["western"], "P-2f");
    EXPECT_EQ(wb.read_type("move")["usi"], "2g2f");
    wb.send({{"type", "move"}, {"game", 1}, {"move", "5a5c"}});
    EXPECT_EQ(wb.read_type("error")["type"], "error");
    wb.send(json("not an object"));
    EXPECT_EQ(wb.read_type("error")["type"], "error");
    wb.send({{"type", "ping"}});
    EXPECT_EQ(wb.read_type("pong")["type"], "pong");  // still open

    json full = h.get("/api/games/1");
    ASSERT_EQ(full["moves"].size(), 3u);
    EXPECT_EQ(full["moves"][2]["csa"], "+2726FU");
    auto [rs, csa_text] = h.request(http::verb::get, "/api/games/1/record?format=csa");
    EXPECT_EQ(rs, 200);
    EXPECT_TRUE(has(csa_text, "+7776FU")) << csa_text;
    EXPECT_TRUE(has(csa_text, "-3334FU"));
    // .kif and .ki2 in Shift_JIS as Japanese desktop programs read them; .kifu and .ki2u in UTF-8.
    auto [ks, kif_bytes] = h.request(http::verb::get, "/api/games/1/record?format=kif");
    EXPECT_EQ(ks, 200);
    EXPECT_FALSE(notation::is_valid_utf8(kif_bytes));
    std::string kif_text = notation::to_utf8(kif_bytes, notation::Encoding::ShiftJis).text;
    EXPECT_TRUE(has(kif_text, "alice"));
    EXPECT_TRUE(has(kif_text, "手合割")) << kif_text;
    auto [us, kifu_text] = h.request(http::verb::get, "/api/games/1/record?format=kifu");
    EXPECT_EQ(us, 200);
    EXPECT_TRUE(notation::is_valid_utf8(kifu_text));
    EXPECT_TRUE(has(kifu_text, "encoding=UTF-8")) << kifu_text;
    EXPECT_TRUE(has(kif_text, "encoding=Shift_JIS")) << kif_text;
    auto [k2s, ki2_bytes] = h.request(http::verb::get, "/api/games/1/record?format=ki2");
    EXPECT_EQ(k2s, 200);
    EXPECT_FALSE(notation::is_valid_utf8(ki2_bytes));
    auto ki2u = h.request(http::verb::get, "/api/games/1/record?format=ki2u");
    EXPECT_TRUE(notation::is_valid_utf8(ki2u.second));
    for (const std::string name : {"hisha-1.kifu", "hisha-1.ki2", "hisha-1.ki2u"}) {
        const std::string& bytes = name.ends_with("kifu") ? kifu_text : name.ends_with("ki2") ? ki2_bytes : ki2u.second;
        auto r = notation::read_record(bytes, name);
        ASSERT_TRUE(r.has_value()) << name << ": " << r.error().to_string();
        EXPECT_EQ(r->moves.size(), 3u) << name;
    }
    auto kif_read = notation::read_record(kif_bytes, "hisha-1.kif");
    ASSERT_TRUE(kif_read.has_value()) << kif_read.error().to_string();
    EXPECT_EQ(kif_read->moves.size(), 3u);
    EXPECT_EQ(h.request(http::verb::get, "/api/games/1/record?format=nope").first, 400);

    // The text protocol shows the board; the CSA x1 %%SHOW lists the moves.
    std::string board = board_seen_by(srv, "carol");
    EXPECT_TRUE(has(board, "alice (Black) vs bob (White), 600-10, 3 moves")) << board;
    EXPECT_TRUE(has(board, ": P:  : P:")) << board;
    LineClient x(srv.ports.at("csa"));
    x.send_line("LOGIN carol secret x1", "\n");
    x.read_until("+OK x1\n");
    x.send_line("%%SHOW 1", "\n");
    std::string show = x.read_until("##[SHOW] +OK\n");
    EXPECT_TRUE(has(show, "+7776FU,T0") && has(show, "-3334FU") && has(show, "+2726FU")) << show;

    // Resignation over HTTP ends it for the WebSocket clients.
    h.post("/api/games/1/resign", json::object(), tb);
    json end = wa.read_type("game_ended");
    EXPECT_EQ(end["winner"], "black");
    EXPECT_EQ(end["reason"], "resignation");
}

TEST(HttpLoopback, MalformedRequestsAreAnswered) {
    ServerProcess srv(temp_db("http_bad"));
    int port = srv.ports.at("http");
    Http h(port);
    auto [s1, t1] = h.request(http::verb::post, "/api/login", "this is not json");
    EXPECT_EQ(s1, 400);
    EXPECT_TRUE(has(t1, "not a JSON object"));
    auto [s2, t2] = h.request(http::verb::get, "/api/games/999");  // same connection: kept
    EXPECT_EQ(s2, 404);
    EXPECT_EQ(h.request(http::verb::get, "/api/me").first, 401);
    EXPECT_EQ(h.request(http::verb::get, "/").first, 200);
    EXPECT_EQ(h.request(http::verb::get, "/api/games/abc").first, 404);
    std::string big(100 * 1024, 'x');
    LineClient raw(port);
    raw.send_raw("GARBAGE\r\n\r\n");
    EXPECT_TRUE(has(raw.read_until("}"), "400 Bad Request"));
    EXPECT_TRUE(raw.closed_by_peer());
}

// kill -9 while many games are in play: every move a client saw echoed (acknowledged) is
// in the database after the restart, in order.
TEST(Durability, KillNineLosesNoAcknowledgedMove) {
    std::string db = temp_db("kill9");
    ServerProcess srv(db, open_csa());
    constexpr int GAMES = 12;
    play_then_kill_nine(srv, GAMES);

    srv.start();
    Http h(srv.ports.at("http"));
    int games_found = 0;
    for (int id = 1; id <= GAMES; ++id) {
        json g = h.get("/api/games/" + std::to_string(id));
        ASSERT_TRUE(g.contains("moves")) << g.dump();
        ++games_found;
        ASSERT_GE(g["moves"].size(), 10u) << "game " << id;
        ASSERT_LE(g["moves"].size(), 11u);
        for (int ply = 0; ply < 10; ++ply)
            EXPECT_EQ(g["moves"][std::size_t(ply)]["csa"], KILL_NINE_LINE[ply]) << "game " << id << " ply " << ply;
        EXPECT_EQ(g["status"], "active");
    }
    EXPECT_EQ(games_found, GAMES);
}
