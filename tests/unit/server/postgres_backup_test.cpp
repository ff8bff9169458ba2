// The PostgreSQL backup procedure of the operator's guide, run as written on a real cluster
// (pg_cluster.h): while a hisha-server serves a game on a database, `pg_dump -Fc -f hisha.dump DB`;
// then `createdb` a new database, `pg_restore -d NEW hisha.dump`, and a server started on the new
// database serves the game with the moves acknowledged before the dump (its JSON and its CSA
// record), the account's password logs in, and play goes on there. Skipped without PostgreSQL.
#include <gtest/gtest.h>

#include <filesystem>

#include "http_client.h"
#include "pg_fixture.h"
#include "server_process.h"

using namespace hisha::server::test;

TEST_F(Postgres, TheOperatorGuidesDumpAndRestoreBringBackTheGames) {
    std::string url = fresh_db();  // postgresql:///NAME?host=...
    std::string name = url.substr(url.find("///") + 3, url.find('?') - url.find("///") - 3);
    ServerProcess srv(url, {"--bots", ""});
    Http h(srv.ports.at("http"));
    std::string dave = h.post("/api/register", {{"name", "dave"}, {"password", "secret"}})["token"];
    std::string erin = h.post("/api/register", {{"name", "erin"}, {"password", "secret"}})["token"];
    json g = h.post("/api/games", {{"opponent", "erin"}, {"color", "black"}, {"time_control", "600-10"}}, dave);
    std::int64_t id = g["id"];
    std::string moves = "/api/games/" + std::to_string(id) + "/move";
    const char* line[] = {"7g7f", "3c3d", "2g2f", "8c8d"};
    for (int i = 0; i < 4; ++i)
        h.post(moves, {{"move", line[i]}}, i % 2 == 0 ? dave : erin);

    // The guide's commands, with the cluster's connection options, while the server runs.
    std::string out;
    ASSERT_EQ(cluster_->client("pg_dump", {"-Fc", "-f", "hisha.dump", name}, out), 0) << out;
    ASSERT_TRUE(std::filesystem::exists(cluster_->dir() + "/hisha.dump"));
    h.post(moves, {{"move", "2f2e"}}, dave);  // the server goes on; this move is not in the dump
    ASSERT_EQ(cluster_->client("createdb", {"hisha_restored"}, out), 0) << out;
    ASSERT_EQ(cluster_->client("pg_restore", {"-d", "hisha_restored", "hisha.dump"}, out), 0) << out;

    ServerProcess back(cluster_->url("hisha_restored"), {"--bots", ""});
    Http r(back.ports.at("http"));
    json game = r.get("/api/games/" + std::to_string(id));
    ASSERT_EQ(game["moves"].size(), 4u) << "the moves acknowledged before the dump: " << game.dump();
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(game["moves"][i]["usi"], line[i]) << i;
    EXPECT_EQ(game["black"], "dave");
    EXPECT_EQ(game["status"], "active");
    auto [rs, record] = r.request(http::verb::get, "/api/games/" + std::to_string(id) + "/record?format=csa");
    EXPECT_EQ(rs, 200);
    EXPECT_TRUE(has(record, "+7776FU\n") && has(record, "-3334FU\n") && has(record, "+2726FU\n")
                && has(record, "-8384FU\n"))
        << record;
    EXPECT_FALSE(has(record, "+2625FU")) << record;
    std::string again_dave = r.post("/api/login", {{"name", "dave"}, {"password", "secret"}})["token"];
    EXPECT_EQ(r.post(moves, {{"move", "2f2e"}}, again_dave)["usi"], "2f2e");
    // The original database is untouched by the restore: it has the fifth move.
    EXPECT_EQ(h.get("/api/games/" + std::to_string(id))["moves"].size(), 5u);
}
