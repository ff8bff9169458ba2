// The spectators count pushed over the WebSocket (hisha-server on 127.0.0.1): a "spectators"
// event reaches a game's players and watchers whenever who watches it changes (a watch or an
// unwatch, a watcher's last connection closing, a watcher connecting), never when a player's own
// page watches; GET /api/games/N/spectators says the same.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "http_client.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server::test;

namespace {

std::vector<std::string> names_of(const json& e) { return e.value("names", std::vector<std::string>{}); }

}  // namespace

TEST(SpectatorsLoopback, TheCountReachesPlayersAndWatchersAsItChanges) {
    ServerProcess srv(temp_db("spectators_ws"));
    int port = srv.ports.at("http");
    Http h(port);
    std::map<std::string, std::string> token;
    for (const char* name : {"alice", "bob", "carol", "dave"})
        token[name] = h.post("/api/register", {{"name", name}, {"password", "secret"}})["token"];
    json c = h.post("/api/challenges",
                    {{"pattern", "bob"}, {"color", "black"}, {"first_move", "7g7f"}, {"time_control", "600-10"}},
                    token["alice"]);
    json g = h.post("/api/challenges/" + std::to_string(int(c["id"])) + "/accept", json::object(), token["bob"]);
    ASSERT_EQ(g["id"], 1);

    Ws wa(port, token["alice"]), wb(port, token["bob"]);
    // The players' own pages watch too: not a spectator, no event (the first one read below is carol's).
    wa.send({{"type", "watch"}, {"game", 1}, {"id", 1}});
    EXPECT_EQ(wa.read_type("ok")["id"], 1);
    {
        Ws wc(port, token["carol"]);
        wc.send({{"type", "watch"}, {"game", 1}});
        for (Ws* w : {&wa, &wb, &wc}) {
            json e = w->read_type("spectators");
            EXPECT_EQ(e["game"], 1);
            EXPECT_EQ(e["count"], 1);
            EXPECT_EQ(names_of(e), std::vector<std::string>{"carol"});
        }
        EXPECT_EQ(h.get("/api/games/1/spectators")["count"], 1);
        // dave watches over HTTP without a socket: not counted until he connects.
        h.post("/api/games/1/watch", {{"on", true}}, token["dave"]);
        EXPECT_EQ(h.get("/api/games/1/spectators")["count"], 1);
        Ws wd(port, token["dave"]);
        for (Ws* w : {&wa, &wb, &wc, &wd}) {
            json e = w->read_type("spectators");
            EXPECT_EQ(e["count"], 2);
            EXPECT_EQ(names_of(e), (std::vector<std::string>{"carol", "dave"}));
        }
        // carol's socket closes (her page went away without a word).
        wc.ws.close(websocket::close_code::normal);
        for (Ws* w : {&wa, &wb, &wd}) {
            json e = w->read_type("spectators");
            EXPECT_EQ(e["count"], 1);
            EXPECT_EQ(names_of(e), std::vector<std::string>{"dave"});
        }
        wd.send({{"type", "watch"}, {"game", 1}, {"on", false}});
        for (Ws* w : {&wa, &wb}) {
            json e = w->read_type("spectators");
            EXPECT_EQ(e["count"], 0);
            EXPECT_TRUE(names_of(e).empty());
        }
    }
    EXPECT_EQ(h.get("/api/games/1/spectators")["count"], 0);
    // A move still comes next: no stray count was queued before it.
    h.post("/api/games/1/move", {{"move", "3c3d"}}, token["bob"]);
    json next = wa.read();
    while (next["type"] == "ok")
        next = wa.read();
    EXPECT_EQ(next["type"], "move") << next.dump();
}
