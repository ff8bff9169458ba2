// `hisha puzzles --database`: the finished games of a hisha-server database as the source of
// puzzles. A game played on the server (the moves of tests/data/vectors/records/csa/uchifuzume.csa)
// gives the very puzzles of the committed file made from that record (source "game N"), from
// SQLite and from PostgreSQL; the database is left as it was; a missing file, a database of
// another program, a newer schema and a refused connection are errors that say so (exit 1).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "notation/formats.h"
#include "pg_fixture.h"
#include "server_process.h"
#include "test_util.h"

namespace hisha::server {
namespace {

using test::Fixture;
using test::Postgres;

const std::filesystem::path DATA = std::filesystem::path(__FILE__).parent_path() / "../../data";

// The bytes of a file; a missing or empty one fails the test.
std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_FALSE(ss.str().empty()) << path << " is missing or empty";
    return ss.str();
}

// Runs `hisha ARGS`: what it printed (standard error with standard output) and its exit status.
std::pair<std::string, int> hisha(const std::string& args) { return test::run_cli(HISHA_BINARY, args); }

// Plays the record's moves as a game of two accounts on the server, resigned at the end; its id.
std::int64_t play_record(Fixture& f) {
    f.add_users({"sente", "gote"});
    std::string bytes = slurp(DATA / "vectors/records/csa/uchifuzume.csa");
    auto rec = notation::read_record(bytes, "uchifuzume.csa");
    EXPECT_TRUE(rec.has_value());
    if (!rec)
        return 0;
    auto g = f.svc->create_game("sente", "gote", service::TimeControl{}, "csa");
    EXPECT_TRUE(g.has_value());
    if (!g)
        return 0;
    for (core::Move m : rec->main_line()) {
        const char* mover = f.svc->game(*g)->to_move() == core::BLACK ? "sente" : "gote";
        auto played = f.svc->play(mover, *g, m);
        EXPECT_TRUE(played.has_value()) << played.error();
        if (!played)
            return 0;
    }
    if (!f.svc->game(*g)->finished())
        EXPECT_TRUE(f.svc->resign(f.svc->game(*g)->to_move() == core::BLACK ? "sente" : "gote", *g).has_value());
    return *g;
}

// The committed puzzles of the record, their source now "game N".
std::string expected(std::int64_t id) {
    std::istringstream in(slurp(DATA / "puzzles/uchifuzume.tsv"));
    std::string out, line;
    while (std::getline(in, line)) {
        std::string from = "\tcsa/uchifuzume.csa\t";
        auto at = line.find(from);
        EXPECT_NE(at, std::string::npos) << line;
        if (at != std::string::npos)
            line.replace(at, from.size(), "\tgame " + std::to_string(id) + "\t");
        out += line + "\n";
    }
    return out;
}

std::string puzzles_of(const std::string& url, const std::string& tag) {
    std::string file = test::temp_db(tag) + ".tsv";
    // 20,000 nodes a solve give the same two puzzles as the default 100,000 (the solver counts
    // nodes, so on every build) in a quarter of the time: the sanitizer builds ran the test
    // into ctest's 120 s limit (ASan 112 s, TSan over 120).
    auto [log, code] = hisha("puzzles --max-plies 5 --nodes 20000 --database '" + url + "' --out " + file);
    EXPECT_EQ(code, 0) << log;
    EXPECT_NE(log.find("records=1 "), std::string::npos) << log;
    return slurp(file);
}

TEST(PuzzlesDatabase, TheFinishedGamesOfASqliteDatabaseGiveTheirPuzzles) {
    Fixture f("puzzles_db");
    std::int64_t id = play_record(f);
    ASSERT_GT(id, 0);
    auto open = f.svc->create_game("sente", "gote", service::TimeControl{}, "web");  // not finished: not read
    ASSERT_TRUE(open.has_value());
    f.svc.reset();
    f.store.reset();
    auto before = std::filesystem::last_write_time(f.path);
    EXPECT_EQ(puzzles_of("sqlite:" + f.path, "puzzles_db_out"), expected(id));
    EXPECT_EQ(puzzles_of(f.path, "puzzles_db_bare"), expected(id)) << "a bare path";
    EXPECT_EQ(std::filesystem::last_write_time(f.path), before) << "read without a write";
}

TEST(PuzzlesDatabase, WhatIsNoHishaServerDatabaseIsRefusedSayingWhy) {
    auto [missing, c1] = hisha("puzzles --database /nonexistent/hisha.db");
    EXPECT_EQ(c1, 1);
    EXPECT_NE(missing.find("/nonexistent/hisha.db: no such database file"), std::string::npos) << missing;

    std::string other = test::temp_db("puzzles_other");
    ASSERT_NO_FATAL_FAILURE(test::raw_sql(other, "CREATE TABLE notes (text TEXT)"));
    auto [foreign, c2] = hisha("puzzles --database " + other);
    EXPECT_EQ(c2, 1);
    EXPECT_NE(foreign.find("not a hisha-server database"), std::string::npos) << foreign;
    ASSERT_NO_FATAL_FAILURE(test::raw_sql(other, "DROP TABLE notes"));  // no table was added to it

    std::string text = test::temp_db("puzzles_text");
    std::FILE* t = std::fopen(text.c_str(), "w");
    ASSERT_NE(t, nullptr);
    std::fputs("not a database at all\n", t);
    std::fclose(t);
    auto [garbage, c3] = hisha("puzzles --database " + text);
    EXPECT_EQ(c3, 1);
    EXPECT_NE(garbage.find("not a hisha-server database"), std::string::npos) << garbage;

    Fixture f("puzzles_newer");
    f.svc.reset();
    f.store.reset();
    ASSERT_NO_FATAL_FAILURE(test::raw_sql(f.path, "UPDATE schema_version SET version=999"));
    auto [newer, c4] = hisha("puzzles --database sqlite:" + f.path);
    EXPECT_EQ(c4, 1);
    EXPECT_NE(newer.find("is newer than this program"), std::string::npos) << newer;

    auto [refused, c5] = hisha("puzzles --database 'postgresql:///nodb?host=/nonexistent&port=1'");
    EXPECT_EQ(c5, 1);
    EXPECT_NE(refused.find("the PostgreSQL database: cannot connect"), std::string::npos) << refused;
}

TEST_F(Postgres, PuzzlesAreReadFromTheGamesOfAPostgresDatabaseToo) {
    std::string url = fresh_db();
    Fixture f("pg_puzzles_db", false, url);
    std::int64_t id = play_record(f);
    ASSERT_GT(id, 0);
    f.svc.reset();
    f.store.reset();
    EXPECT_EQ(puzzles_of(url, "pg_puzzles_db_out"), expected(id));
}

}  // namespace
}  // namespace hisha::server
