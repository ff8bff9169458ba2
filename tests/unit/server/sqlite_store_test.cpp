// The SQLite store on its own: the schema migration of the moves table, the write-ahead log
// kept to its bound under a stream of batches, a move's narrow row update, database options.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <utility>

#include "server/store/schema.h"
#include "server/store/store.h"
#include "test_util.h"

using namespace hisha::server;

namespace {

GameRow new_game() {
    GameRow g;
    g.black = "alice";
    g.white = "bob";
    g.start_sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    g.tc.kind = service::TimeKind::Fischer;
    g.tc.main_ms = 600000;
    g.tc.increment_ms = 10000;
    g.remaining[0] = g.remaining[1] = 600000;
    g.origin = "csa";
    return g;
}

MoveRow move_at(int ply) {
    MoveRow m;
    m.ply = ply;
    m.text = ply % 2 == 0 ? "5i4h" : "5a4b";  // any text: the store does not judge moves
    m.spent_ms = 100 + ply;
    m.at = 1000000 + ply;
    return m;
}

}  // namespace

TEST(SqliteStore, MovesOfADatabaseOfTheFirstSchemaAreKeptByTheMigration) {
    std::string path = test::temp_db("migrate");
    std::int64_t id = 0;
    {
        std::string err;
        auto s = store::open_store("sqlite:" + path, err);
        ASSERT_TRUE(s) << err;
        GameRow g = new_game();
        for (int i = 0; i < 5; ++i)
            g.moves.push_back(move_at(i));
        ASSERT_TRUE(s->insert_game(g));
        id = g.id;
    }
    // Back to the first schema: the moves in a rowid table beside its key index.
    test::raw_sql(path, "BEGIN;"
                        "CREATE TABLE old_moves AS SELECT * FROM moves;"
                        "DROP TABLE moves;"
                        "CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
                        " text TEXT NOT NULL, spent_ms INTEGER NOT NULL, at INTEGER NOT NULL,"
                        " forced INTEGER NOT NULL, locked INTEGER NOT NULL, PRIMARY KEY (game_id, ply));"
                        "INSERT INTO moves SELECT game_id, ply, text, spent_ms, at, forced, locked FROM old_moves;"
                        "DROP TABLE old_moves;"
                        "DROP TABLE admins; DROP TABLE bans; DROP TABLE audit; DROP INDEX tokens_user;"
                        "DROP INDEX games_tournament; ALTER TABLE games DROP COLUMN tournament;"
                        "ALTER TABLE users DROP COLUMN last_game;"
                        "DROP INDEX games_black; DROP INDEX games_white; ALTER TABLE games DROP COLUMN rating_black;"
                        "ALTER TABLE games DROP COLUMN deviation_black; ALTER TABLE games DROP COLUMN rating_white;"
                        "ALTER TABLE games DROP COLUMN deviation_white; DROP TABLE IF EXISTS conditional_moves;"
                        "UPDATE schema_version SET version=1;"
                        "COMMIT;");
    std::string err;
    auto s = store::open_store("sqlite:" + path, err);
    ASSERT_TRUE(s) << err;
    auto g = s->load_game(id);
    ASSERT_TRUE(g.has_value());
    ASSERT_EQ(g->moves.size(), 5u);
    EXPECT_EQ(g->moves[3].text, "5a4b");
    EXPECT_EQ(g->moves[3].spent_ms, 103);
    EXPECT_EQ(g->moves[3].comment, "");  // (migration 4: moves without a comment)
    s.reset();
    // Now one B-tree without rowids.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    EXPECT_NE(sqlite3_exec(db, "SELECT rowid FROM moves", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT version FROM schema_version", -1, &st, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
    // (and on through the later migrations)
    EXPECT_EQ(sqlite3_column_int(st, 0), int(store::schema::migrations(store::schema::SQLITE, "").size()));
    sqlite3_finalize(st);
    sqlite3_close(db);
}

namespace {

// Under a steady stream of commits the checkpoint thread never catches up with the writer by
// itself, and the log grew without end (about 60 MB a second at 18,000 moves a second). The
// writer's catch-up brings it back once it reaches its bound: here 1 MB, 256 frames. Commits
// of batches (the server's group commit), or one a write.
void check_wal_bound(bool batched) {
    std::string path = test::temp_db(batched ? "walbound" : "walbound1");
    std::string err;
    auto s = store::open_store("sqlite:" + path + "?wal_mb=1", err);
    ASSERT_TRUE(s) << err;
    // Some games, so that a batch dirties several pages, as at a server's load.
    std::vector<GameRow> games(20);
    for (auto& g : games) {
        g = new_game();
        ASSERT_TRUE(s->insert_game(g));
    }
    std::uintmax_t largest = 0;
    const int batches = 1500;  // about 4,000 frames at 1 MB: the log without a bound would reach 16 MB
    for (int b = 0; b < batches; ++b) {
        if (batched) {
            ASSERT_TRUE(s->batch_begin());
        }
        for (int k = 0; k < 2; ++k) {
            GameRow& g = games[std::size_t((2 * b + k) % 20)];
            int ply = int(g.moves.size());
            g.moves.push_back(move_at(ply));
            g.remaining[ply % 2] -= 100;
            g.turn_started = 2000000 + ply;
            g.seen[ply % 2] = ply + 1;
            ASSERT_TRUE(s->save_game(g, ply)) << s->last_error();
        }
        if (batched) {
            ASSERT_TRUE(s->batch_write()) << s->last_error();
            ASSERT_TRUE(s->sync()) << s->sync_error();
        }
        std::error_code ec;
        largest = std::max(largest, std::filesystem::file_size(path + "-wal", ec));
    }
    EXPECT_LT(largest, std::uintmax_t(3) << 20) << "the log was not brought back";
    EXPECT_GT(largest, std::uintmax_t(1) << 19);  // it did grow to near its bound
    // Everything is there, the narrow updates of the rows too.
    s.reset();
    s = store::open_store("sqlite:" + path, err);
    ASSERT_TRUE(s) << err;
    for (const GameRow& g : games) {
        auto r = s->load_game(g.id);
        ASSERT_TRUE(r.has_value());
        ASSERT_EQ(r->moves.size(), g.moves.size());
        EXPECT_EQ(r->moves.back().spent_ms, g.moves.back().spent_ms);
        EXPECT_EQ(r->remaining[0], g.remaining[0]);
        EXPECT_EQ(r->remaining[1], g.remaining[1]);
        EXPECT_EQ(r->turn_started, g.turn_started);
        EXPECT_EQ(r->seen[0], g.seen[0]);
        EXPECT_EQ(r->seen[1], g.seen[1]);
    }
}

}  // namespace

TEST(SqliteStore, TheWriteAheadLogIsBroughtBackToItsStartOnceItReachesItsBound) { check_wal_bound(true); }

TEST(SqliteStore, TheWriteAheadLogIsBroughtBackWithoutBatchesToo) { check_wal_bound(false); }

// The log file stays, at its size, when the store is closed: the next run's frames overwrite
// blocks the file has (a sync then commits no new size to the file system's journal). Closing
// has copied everything into the database; reopened, the store reads and writes as before.
TEST(SqliteStore, TheWriteAheadLogFileIsKeptAtItsSizeWhenClosed) {
    std::string path = test::temp_db("persist");
    std::string err;
    GameRow g = new_game();
    std::uintmax_t size = 0;
    {
        auto s = store::open_store("sqlite:" + path, err);
        ASSERT_TRUE(s) << err;
        ASSERT_TRUE(s->insert_game(g));
        for (int ply = 0; ply < 200; ++ply) {
            g.moves.push_back(move_at(ply));
            ASSERT_TRUE(s->save_game(g, ply));
        }
        size = std::filesystem::file_size(path + "-wal");
    }
    ASSERT_TRUE(std::filesystem::exists(path + "-wal"));
    EXPECT_EQ(std::filesystem::file_size(path + "-wal"), size);
    EXPECT_GT(size, std::uintmax_t(100) << 10);
    auto s = store::open_store("sqlite:" + path, err);
    ASSERT_TRUE(s) << err;
    auto r = s->load_game(g.id);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->moves.size(), 200u);
    g.moves.push_back(move_at(200));
    ASSERT_TRUE(s->save_game(g, 200));
    s.reset();
    // The database file alone holds everything once closed (a copy of it is a backup).
    std::filesystem::copy_file(path, path + ".copy", std::filesystem::copy_options::overwrite_existing);
    auto copy = store::open_store("sqlite:" + path + ".copy", err);
    ASSERT_TRUE(copy) << err;
    EXPECT_EQ(copy->load_game(g.id)->moves.size(), 201u);
}

// A move changes only the clocks and the seen counts: the store writes just those. When
// anything else changes (an undo, the end), the whole row is written again.
TEST(SqliteStore, ARowChangedBeyondAMoveIsWrittenWhole) {
    std::string path = test::temp_db("narrow");
    std::string err;
    auto s = store::open_store("sqlite:" + path, err);
    ASSERT_TRUE(s) << err;
    GameRow g = new_game();
    ASSERT_TRUE(s->insert_game(g));
    for (int ply = 0; ply < 3; ++ply) {
        g.moves.push_back(move_at(ply));
        g.seen[ply % 2] = ply + 1;
        ASSERT_TRUE(s->save_game(g, ply));
    }
    g.undone_ply = 2;  // an undo: a row field a move leaves alone
    g.undone_text = g.moves.back().text;
    g.moves.pop_back();
    ASSERT_TRUE(s->save_game(g, 2));
    g.moves.push_back(move_at(2));
    g.undone_ply = -1;
    g.undone_text.clear();
    ASSERT_TRUE(s->save_game(g, 2));
    g.moves.push_back(move_at(3));
    g.status = GameStatus::Finished;
    g.winner = "white";
    g.reason = "resignation";
    ASSERT_TRUE(s->save_game(g, 3));
    s.reset();
    s = store::open_store("sqlite:" + path, err);
    ASSERT_TRUE(s) << err;
    auto r = s->load_game(g.id);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->moves.size(), 4u);
    EXPECT_EQ(r->status, GameStatus::Finished);
    EXPECT_EQ(r->winner, "white");
    EXPECT_EQ(r->reason, "resignation");
    EXPECT_EQ(r->undone_ply, -1);
    EXPECT_EQ(r->undone_text, "");
    EXPECT_TRUE(s->open_games().empty());  // the index on status followed
}

TEST(SqliteStore, DatabaseOptionsAreCheckedWithAReason) {
    std::string path = test::temp_db("options");
    std::string err;
    EXPECT_TRUE(store::open_store("sqlite:" + path + "?sync=normal&wal_mb=2", err)) << err;
    EXPECT_TRUE(store::open_store("sqlite:" + path + "?wal_mb=8", err)) << err;
    // Refused, with the error naming what is wrong.
    const std::pair<const char*, const char*> bad[] = {{"?wal_mb=0", "wal_mb"},
                                                       {"?wal_mb=12x", "12x"},
                                                       {"?cache=big", "unknown database option 'cache'"},
                                                       {"?sync=sometimes", "sync"}};
    for (auto [options, reason] : bad) {
        err.clear();
        EXPECT_FALSE(store::open_store("sqlite:" + path + options, err)) << options;
        EXPECT_NE(err.find(reason), std::string::npos) << options << ": " << err;
    }
}
