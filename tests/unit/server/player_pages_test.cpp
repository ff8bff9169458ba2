// The player page's and game page's reads of the JSON API (issue 20), on real SQLite: a
// player's profile (rating now, its history after each rated game, results by colour and by
// time control), their finished games filtered and paged, all of them as one KIF (Shift_JIS),
// KIFU or CSA file, who watches a game; bad input gets 400 or 404. A database of the schema
// before the rating history opens and goes on. Over HTTP, the embeddable board (/embed/N) is
// the one page other sites may frame.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "http_client.h"
#include "pg_fixture.h"
#include "server/proto/json_api.h"
#include "server_process.h"
#include "test_util.h"

namespace hisha::server {
namespace {

using nlohmann::json;
using test::Fixture;
using test::Postgres;

// Counts the occurrences of `what` in `text`.
int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

struct Players {
    Fixture f;
    proto::JsonApi api{*f.svc};
    explicit Players(const std::string& tag, std::string url = {}) : f(tag, false, std::move(url)) {
        f.add_users({"alice", "bob", "carol"});
    }

    json get(const std::string& target, int expect = 200) {
        proto::HttpReply r = api.handle("GET", target, "", "", "127.0.0.1");
        EXPECT_EQ(r.status, expect) << target << ": " << r.body;
        return r.content_type == "application/json" ? json::parse(r.body) : json{{"body", r.body}};
    }
    std::string file(const std::string& target, proto::HttpReply* out = nullptr) {
        proto::HttpReply r = api.handle("GET", target, "", "", "127.0.0.1");
        EXPECT_EQ(r.status, 200) << target << ": " << r.body;
        if (out)
            *out = r;
        return r.body;
    }
    // A rated real-time game: Black plays P-7f (after 3 s), White P-3d (after 5 s), then `loser`
    // resigns.
    std::int64_t play(const char* black, const char* white, const char* loser, const char* tc) {
        auto g = f.svc->create_game(black, white, *service::parse_time_control(tc), "web");
        EXPECT_TRUE(g.has_value());
        f.advance(3000);
        EXPECT_TRUE(f.svc->play(black, *g, "P-7f").has_value());
        f.advance(5000);
        EXPECT_TRUE(f.svc->play(white, *g, "P-3d").has_value());
        f.advance(1000);
        EXPECT_TRUE(f.svc->resign(loser, *g).has_value());
        return *g;
    }
};

TEST(PlayerPages, TheProfileHasTheRatingHistoryAndTheResultsByColourAndTimeControl) {
    Players p("player_profile");
    p.play("alice", "bob", "bob", "600-10");     // alice wins as Black
    p.play("bob", "alice", "bob", "600-10");     // alice wins as White
    p.play("alice", "carol", "alice", "300-0");  // alice loses as Black
    json u = p.get("/api/users/ALICE");          // names are case-insensitive
    EXPECT_EQ(u["name"], "alice");
    EXPECT_EQ(u["games"], 3);
    EXPECT_EQ(u["wins"], 2);
    EXPECT_EQ(u["losses"], 1);
    EXPECT_EQ(u["by_color"]["black"], json({{"wins", 1}, {"losses", 1}, {"draws", 0}}));
    EXPECT_EQ(u["by_color"]["white"], json({{"wins", 1}, {"losses", 0}, {"draws", 0}}));
    ASSERT_EQ(u["by_time_control"].size(), 2u);
    EXPECT_EQ(u["by_time_control"][0], json({{"time_control", "300-0"}, {"wins", 0}, {"losses", 1}, {"draws", 0}}));
    EXPECT_EQ(u["by_time_control"][1], json({{"time_control", "600-10"}, {"wins", 2}, {"losses", 0}, {"draws", 0}}));
    // One point after each rated game, oldest first: up, up, down; the last is the rating now.
    json h = u["history"];
    ASSERT_EQ(h.size(), 3u);
    EXPECT_GT(h[0]["rating"].get<int>(), 1500);
    EXPECT_GT(h[1]["rating"].get<int>(), h[0]["rating"].get<int>());
    EXPECT_LT(h[2]["rating"].get<int>(), h[1]["rating"].get<int>());
    EXPECT_LT(h[1]["deviation"].get<int>(), h[0]["deviation"].get<int>());
    EXPECT_EQ(h[2]["rating"], u["rating"]);
    EXPECT_LE(h[0]["time"].get<std::int64_t>(), h[1]["time"].get<std::int64_t>());
    EXPECT_EQ(p.get("/api/users/carol")["history"].size(), 1u);
    EXPECT_EQ(p.get("/api/users/nobody", 404)["error"], "no such player");
}

TEST(PlayerPages, TheGamesListIsFilteredAndPagedAndBadFiltersAreRefused) {
    Players p("player_games");
    std::int64_t g1 = p.play("alice", "bob", "bob", "600-10");
    std::int64_t g2 = p.play("carol", "alice", "carol", "300-0");
    std::int64_t g3 = p.play("alice", "carol", "alice", "300-0");
    auto open = p.f.svc->create_game("alice", "bob", *service::parse_time_control("600-10"), "web");  // not listed
    ASSERT_TRUE(open.has_value());
    json all = p.get("/api/users/alice/games");
    EXPECT_EQ(all["total"], 3);
    ASSERT_EQ(all["games"].size(), 3u);
    json newest = all["games"][0];  // the last ended first
    EXPECT_EQ(newest["id"], g3);
    EXPECT_EQ(newest["color"], "black");
    EXPECT_EQ(newest["opponent"], "carol");
    EXPECT_EQ(newest["result"], "loss");
    EXPECT_EQ(newest["reason"], "resignation");
    EXPECT_EQ(newest["time_control"], "300-0");
    EXPECT_EQ(newest["plies"], 2);  // the resignation is no ply
    EXPECT_LT(newest["started"].get<std::int64_t>(), newest["ended"].get<std::int64_t>());
    EXPECT_EQ(all["games"][2]["id"], g1);

    auto ids = [&](const std::string& query) {
        std::vector<std::int64_t> out;
        json list = p.get("/api/users/alice/games?" + query);
        for (auto& g : list["games"])
            out.push_back(g["id"]);
        return out;
    };
    EXPECT_EQ(ids("opponent=Car"), (std::vector<std::int64_t>{g3, g2}));  // a part of the name, any case
    EXPECT_EQ(ids("opponent=dave"), std::vector<std::int64_t>{});
    EXPECT_EQ(ids("result=win"), (std::vector<std::int64_t>{g2, g1}));
    EXPECT_EQ(ids("result=loss&opponent=carol"), std::vector<std::int64_t>{g3});
    EXPECT_EQ(ids("time_control=600-10"), std::vector<std::int64_t>{g1});
    EXPECT_EQ(ids("limit=1&offset=1"), std::vector<std::int64_t>{g2});
    Millis second_end = p.f.svc->game(g2)->row.updated;
    EXPECT_EQ(ids("from=" + std::to_string(second_end)), (std::vector<std::int64_t>{g3, g2}));
    EXPECT_EQ(ids("to=" + std::to_string(second_end)), (std::vector<std::int64_t>{g2, g1}));
    EXPECT_EQ(ids("from=2023-11-14&to=2023-11-14").size(), 3u);  // (the fake clock: 2023-11-14 22:13 UTC)
    EXPECT_EQ(ids("from=2023-11-15").size(), 0u);
    EXPECT_EQ(ids("to=2023-11-13").size(), 0u);
    EXPECT_EQ(p.get("/api/users/bob/games")["games"][0]["result"], "loss");

    for (const char* bad :
         {"result=won", "limit=0", "limit=501", "limit=x", "offset=-1", "from=2024-13-01", "to=yesterday", "from="})
        EXPECT_FALSE(p.get(std::string("/api/users/alice/games?") + bad, 400)["error"].get<std::string>().empty())
            << bad;
    p.get("/api/users/nobody/games", 404);
    p.get("/api/users/nobody/games/records?format=csa", 404);
}

TEST(PlayerPages, AllOfAPlayersGamesDownloadAsOneKifKifuOrCsaFile) {
    Players p("player_records");
    p.play("alice", "bob", "bob", "600-10");
    p.play("carol", "alice", "carol", "300-0");
    p.play("bob", "carol", "carol", "300-0");  // not alice's
    proto::HttpReply r;
    std::string csa = p.file("/api/users/alice/games/records?format=csa", &r);
    EXPECT_EQ(r.filename, "hisha-alice-games.csa");
    EXPECT_EQ(count(csa, "\n/\n"), 1) << csa;  // CSA: a '/' line between the two games
    EXPECT_EQ(count(csa, "+7776FU"), 2);       // Black's first move in both
    EXPECT_EQ(count(csa, "-3334FU"), 2);
    EXPECT_EQ(count(csa, "%TORYO"), 2);
    EXPECT_EQ(count(csa, "T3\n"), 2) << csa;  // Black's first move took 3 s in both
    EXPECT_EQ(count(csa, "T5\n"), 2);
    EXPECT_EQ(count(csa, "N+carol"), 1);

    std::string kifu = p.file("/api/users/alice/games/records?format=kifu", &r);
    EXPECT_EQ(r.content_type, "text/plain; charset=utf-8");
    EXPECT_EQ(count(kifu, "先手：alice"), 1) << kifu;
    EXPECT_EQ(count(kifu, "後手：alice"), 1);
    EXPECT_EQ(count(kifu, "７六歩"), 2);
    std::string kif = p.file("/api/users/alice/games/records?format=kif&opponent=bob", &r);
    EXPECT_EQ(r.content_type, "text/plain; charset=shift_jis");
    EXPECT_EQ(r.filename, "hisha-alice-games.kif");
    EXPECT_EQ(count(kif, "\x90\xe6\x8e\xe8"), 2) << "先手 in Shift_JIS, the header and the result";
    EXPECT_EQ(count(kif, "\xe5\x85\x88"), 0) << "no UTF-8";
    EXPECT_EQ(count(kif, "alice"), 1);

    EXPECT_EQ(p.file("/api/users/alice/games/records?format=csa&opponent=dave"), "");
    p.get("/api/users/alice/games/records?format=ki2", 400);
    p.get("/api/users/alice/games/records?format=csa&result=maybe", 400);
    // One game's record has KIFU too (UTF-8).
    std::string one = p.file("/api/games/1/record?format=kifu", &r);
    EXPECT_EQ(r.filename, "hisha-1.kifu");
    EXPECT_EQ(count(one, "７六歩"), 1);
}

TEST(PlayerPages, TheSpectatorsAreThoseConnectedWhoWatchAndDoNotPlay) {
    Players p("player_spectators");
    p.f.add_users({"dave"});
    auto g = p.f.svc->create_game("alice", "bob", *service::parse_time_control("600-10"), "web");
    ASSERT_TRUE(g.has_value());
    auto rc = std::make_shared<test::Recorder>(), rd = std::make_shared<test::Recorder>(),
         ra = std::make_shared<test::Recorder>();
    p.f.svc->connect("carol", rc, "web");
    p.f.svc->connect("alice", ra, "web");
    std::string path = "/api/games/" + std::to_string(*g) + "/spectators";
    EXPECT_EQ(p.get(path)["count"], 0);
    p.f.svc->watch("alice", *g, true);  // a player's own page watches too: not counted
    p.f.svc->watch("carol", *g, true);
    p.f.svc->watch("dave", *g, true);  // not connected: not counted
    json s = p.get(path);
    EXPECT_EQ(s["count"], 1);
    EXPECT_EQ(s["names"], json::array({"carol"}));
    p.f.svc->connect("dave", rd, "web");
    EXPECT_EQ(p.get(path)["count"], 2);
    p.f.svc->watch("carol", *g, false);
    EXPECT_EQ(p.get(path)["names"], json::array({"dave"}));
    p.get("/api/games/999/spectators", 404);
    p.get("/api/games/x/spectators", 404);
}

// Kibitz: a watcher's line reaches the players and the watchers connected here (its writer's
// page too, which leaves it out); an unknown game or an empty line is refused.
TEST(PlayerPages, AKibitzReachesThePlayersAndTheWatchers) {
    Players p("player_kibitz");
    p.f.add_users({"dave"});
    auto g = p.f.svc->create_game("alice", "bob", *service::parse_time_control("600-10"), "web");
    ASSERT_TRUE(g.has_value());
    std::map<std::string, std::shared_ptr<test::Recorder>> seen;
    for (const char* name : {"alice", "bob", "carol", "dave"}) {
        seen[name] = std::make_shared<test::Recorder>();
        p.f.svc->connect(name, seen[name], "web");
    }
    p.f.svc->watch("carol", *g, true);
    proto::HttpReply r = p.api.handle("POST", "/api/games/" + std::to_string(*g) + "/kibitz",
                                      R"({"text":"a fine move"})", *p.f.svc->create_token("CAROL"), "127.0.0.1");
    EXPECT_EQ(r.status, 200) << r.body;
    for (const char* name : {"alice", "bob", "carol"}) {
        ASSERT_EQ(seen[name]->count(service::EventKind::Say), 1) << name;
        EXPECT_EQ(seen[name]->events.back().from, "carol") << name;
        EXPECT_EQ(seen[name]->events.back().text, "a fine move") << name;
    }
    EXPECT_EQ(seen["dave"]->count(service::EventKind::Say), 0);  // not watching
    EXPECT_FALSE(p.f.svc->kibitz("carol", *g, "").has_value());
    EXPECT_FALSE(p.f.svc->kibitz("carol", 999, "hello").has_value());
    EXPECT_FALSE(p.f.svc->kibitz("carol", *g, std::string(5000, 'x')).has_value());
}

// A database of the schema before the rating history (version 6) opens: its rated games get
// their points by the replay of their ratings at the first start (rating_backfill_test.cpp has
// the details), the games after them theirs when rated.
TEST(PlayerPages, ADatabaseOfTheSchemaBeforeTheRatingHistoryOpens) {
    auto p = std::make_unique<Players>("player_migrate");
    std::int64_t old = p->play("alice", "bob", "bob", "600-10");
    double rated = p->f.svc->user("alice")->rating;
    ASSERT_NO_FATAL_FAILURE(p->f.reopen_after_sql(
        "DROP INDEX games_black; DROP INDEX games_white; ALTER TABLE games DROP COLUMN rating_black;"
        "ALTER TABLE games DROP COLUMN deviation_black; ALTER TABLE games DROP COLUMN rating_white;"
        "ALTER TABLE games DROP COLUMN deviation_white; DROP TABLE backfills; UPDATE schema_version SET version=6;"));
    proto::JsonApi api(*p->f.svc);
    auto get = [&](const std::string& target) { return json::parse(api.handle("GET", target, "", "", "").body); };
    ASSERT_EQ(get("/api/users/alice")["history"].size(), 1u);
    EXPECT_EQ(get("/api/users/alice")["history"][0]["game"], old);
    EXPECT_EQ(get("/api/users/alice")["history"][0]["rating"], std::lround(rated));
    EXPECT_EQ(get("/api/users/alice/games")["games"][0]["id"], old);
    auto g = p->f.svc->create_game("bob", "alice", *service::parse_time_control("600-10"), "web");
    ASSERT_TRUE(g.has_value());
    ASSERT_TRUE(p->f.svc->resign("alice", *g).has_value());
    json u = get("/api/users/alice");
    ASSERT_EQ(u["history"].size(), 2u);
    EXPECT_EQ(u["history"][1]["game"], *g);
    EXPECT_EQ(u["history"][1]["rating"], u["rating"]);
    EXPECT_EQ(u["by_color"]["black"]["wins"], 1);
    EXPECT_EQ(u["by_color"]["white"]["losses"], 1);
}

// The same reads on PostgreSQL (the shared store's SQL): history, the list with its plies, a download.
TEST_F(Postgres, ThePlayerPagesReadTheGamesOfPostgresToo) {
    Players p("pg_player_pages", fresh_db());
    std::int64_t g1 = p.play("alice", "bob", "bob", "600-10");
    std::int64_t g2 = p.play("carol", "alice", "alice", "300-0");
    json u = p.get("/api/users/alice");
    ASSERT_EQ(u["history"].size(), 2u);
    EXPECT_EQ(u["history"][1]["game"], g2);
    EXPECT_EQ(u["history"][1]["rating"], u["rating"]);
    json list = p.get("/api/users/alice/games?opponent=bo");
    ASSERT_EQ(list["games"].size(), 1u);
    EXPECT_EQ(list["games"][0]["id"], g1);
    EXPECT_EQ(list["games"][0]["plies"], 2);
    EXPECT_EQ(count(p.file("/api/users/alice/games/records?format=csa"), "\n/\n"), 1);
}

TEST(PlayerPages, OnlyTheEmbeddableBoardMayBeFramedByOtherSites) {
    auto dir = std::filesystem::path(test::temp_db("embed_static")).replace_extension("");
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "index.html") << "<!doctype html><title>hisha</title>";
    test::ServerProcess srv(test::temp_db("embed_db"), {"--static", dir.string()});
    test::Http h(srv.ports.at("http"));
    auto embed = h.exchange(boost::beast::http::verb::get, "/embed/12");
    EXPECT_EQ(embed.result_int(), 200);
    EXPECT_EQ(embed.body(), "<!doctype html><title>hisha</title>");
    std::string csp(embed["Content-Security-Policy"]);
    EXPECT_NE(csp.find("frame-ancestors *"), std::string::npos) << csp;
    EXPECT_NE(csp.find("default-src 'self'"), std::string::npos) << csp;
    EXPECT_EQ(embed["X-Frame-Options"], "");
    for (const char* other : {"/", "/embed/12/more", "/api/games/12", "/embedded"}) {
        auto res = h.exchange(boost::beast::http::verb::get, other);
        std::string c(res["Content-Security-Policy"]);
        EXPECT_NE(c.find("frame-ancestors 'none'"), std::string::npos) << other << ": " << c;
        EXPECT_EQ(res["X-Frame-Options"], "DENY") << other;
    }
}

}  // namespace
}  // namespace hisha::server
