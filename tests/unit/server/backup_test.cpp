// hisha-server backup --to FILE while the server runs and a game is being played: the copy
// opens as a store of its own and holds the game with the moves acknowledged before the
// backup, and a server started on it (restored) serves the game and plays on; the server goes
// on; an existing file, a missing --to and PostgreSQL are refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sys/wait.h>

#include "http_client.h"
#include "server/store/store.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::test;

namespace {

// Runs hisha-server with `args`: its exit status and what it printed (both streams).
std::pair<int, std::string> run_server_command(const std::string& args) {
    auto [out, status] = run_server_cli(args);
    return {status, out};
}

}  // namespace

TEST(Backup, ARunningServersDatabaseIsCopiedAndReadsBack) {
    std::string db = temp_db("backup_live");
    std::string copy = temp_db("backup_copy");
    ServerProcess srv(db, {"--bots", ""});
    Http h(srv.ports.at("http"));
    std::string dave = h.post("/api/register", {{"name", "dave"}, {"password", "secret"}})["token"];
    std::string erin = h.post("/api/register", {{"name", "erin"}, {"password", "secret"}})["token"];
    json g = h.post("/api/games", {{"opponent", "erin"}, {"color", "black"}, {"time_control", "600-10"}}, dave);
    std::int64_t id = g["id"];
    std::string moves = "/api/games/" + std::to_string(id) + "/move";
    const char* line[] = {"7g7f", "3c3d", "2g2f", "8c8d"};
    for (int i = 0; i < 4; ++i)
        h.post(moves, {{"move", line[i]}}, i % 2 == 0 ? dave : erin);

    auto [status, out] = run_server_command("backup --db sqlite:" + db + " --to " + copy);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("1 games, 2 users"), std::string::npos) << out;
    h.post(moves, {{"move", "2f2e"}}, dave);  // the server goes on
    EXPECT_FALSE(std::filesystem::exists(copy + "-wal")) << "a file that stands alone";

    std::string err;
    auto store = store::open_store("sqlite:" + copy, err);
    ASSERT_TRUE(store) << err;
    auto row = store->load_game(id);
    ASSERT_TRUE(row);
    EXPECT_EQ(row->black, "dave");
    ASSERT_EQ(row->moves.size(), 4u) << "the moves acknowledged before the backup, not the one after";
    EXPECT_EQ(row->moves[3].text, "8c8d");
    EXPECT_TRUE(store->find_user("erin"));

    // Restored (the copy put in place of a database), it is served with its games: the game with
    // its four moves, its CSA record, the accounts' passwords, and play goes on.
    store.reset();
    std::string restored = temp_db("backup_restored");
    std::filesystem::copy_file(copy, restored, std::filesystem::copy_options::overwrite_existing);
    {
        ServerProcess back(restored, {"--bots", ""});
        Http r(back.ports.at("http"));
        json game = r.get("/api/games/" + std::to_string(id));
        ASSERT_EQ(game["moves"].size(), 4u) << game.dump();
        EXPECT_EQ(game["moves"][3]["usi"], "8c8d");
        EXPECT_EQ(game["status"], "active");
        auto [rs, record] = r.request(http::verb::get, "/api/games/" + std::to_string(id) + "/record?format=csa");
        EXPECT_EQ(rs, 200);
        EXPECT_TRUE(has(record, "+7776FU\n") && has(record, "-8384FU\n")) << record;
        std::string again_dave = r.post("/api/login", {{"name", "dave"}, {"password", "secret"}})["token"];
        EXPECT_EQ(r.post(moves, {{"move", "2f2e"}}, again_dave)["usi"], "2f2e");
    }

    auto again = run_server_command("backup --db sqlite:" + db + " --to " + copy);
    EXPECT_EQ(again.first, 1);
    EXPECT_NE(again.second.find("exists already"), std::string::npos) << again.second;
    EXPECT_EQ(run_server_command("backup --db sqlite:" + db).first, 2);
    auto pg = run_server_command("backup --db postgresql://nobody@127.0.0.1:1/x --to " + copy + ".pg");
    EXPECT_EQ(pg.first, 1);
    EXPECT_NE(pg.second.find("pg_dump"), std::string::npos) << pg.second;
    EXPECT_EQ(run_server_command("backup --help").first, 0);
}
