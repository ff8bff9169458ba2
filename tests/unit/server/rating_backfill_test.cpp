// The rating history of games rated before it was kept (service/rating_backfill.cpp): a database
// of the schema before migration 7 gets, at its first start, the very points the games would have
// had (their rating updates replayed in the order the games ended), on SQLite and PostgreSQL;
// unrated games (a guest's) get none, and it runs once.
#include <gtest/gtest.h>

#include <array>

#include "pg_fixture.h"
#include "test_util.h"

namespace hisha::server {
namespace {

using test::Fixture;
using test::Postgres;

// A rated real-time game between two accounts: P-7f, P-3d, then `loser` resigns.
std::int64_t play(Fixture& f, const std::string& black, const std::string& white, const std::string& loser) {
    auto g = f.svc->create_game(black, white, *service::parse_time_control("600-10"), "web");
    EXPECT_TRUE(g.has_value());
    f.advance(2000);
    EXPECT_TRUE(f.svc->play(black, *g, "P-7f").has_value());
    f.advance(2000);
    EXPECT_TRUE(f.svc->play(white, *g, "P-3d").has_value());
    f.advance(1000);
    EXPECT_TRUE(f.svc->resign(loser, *g).has_value());
    return *g;
}

using Points = std::array<double, 4>;  // rating and deviation after the game, Black's then White's

Points points(Fixture& f, std::int64_t id) {
    auto row = f.store->load_game(id);
    EXPECT_TRUE(row.has_value()) << id;
    if (!row)
        return {};
    return {row->rating_after[0], row->deviation_after[0], row->rating_after[1], row->deviation_after[1]};
}

// Games among three players in an order where each result moves the next ones' ratings, and a
// guest's game against a bot (unrated) among them; their points as the server made them.
struct Played {
    std::vector<std::int64_t> rated;
    std::int64_t guest_game = 0;
    std::vector<Points> made;
};

Played play_games(Fixture& f) {
    f.add_users({"alice", "bob", "carol"});
    EXPECT_TRUE(f.svc->ensure_bot("hisha-bot", "skill 0").has_value());
    Played p;
    p.rated.push_back(play(f, "alice", "bob", "bob"));
    p.rated.push_back(play(f, "bob", "carol", "carol"));
    std::string guest = f.svc->create_guest("192.0.2.9").user.name;
    p.guest_game = play(f, guest, "hisha-bot", guest);
    p.rated.push_back(play(f, "carol", "alice", "alice"));
    p.rated.push_back(play(f, "alice", "bob", "alice"));
    for (std::int64_t id : p.rated)
        p.made.push_back(points(f, id));
    EXPECT_GT(p.made.back()[0], 0);
    EXPECT_EQ(points(f, p.guest_game), (Points{0, 0, 0, 0}));
    return p;
}

void expect_replayed(Fixture& f, const Played& p) {
    for (std::size_t i = 0; i < p.rated.size(); ++i) {
        Points now = points(f, p.rated[i]);
        for (std::size_t k = 0; k < 4; ++k)
            EXPECT_NEAR(now[k], p.made[i][k], 1e-9) << "game " << p.rated[i] << " value " << k;
    }
    EXPECT_EQ(points(f, p.guest_game), (Points{0, 0, 0, 0})) << "a guest's game is not rated";
}

// The schema before the rating history (version 6), and no backfill done yet.
constexpr const char* BEFORE_HISTORY =
    "DROP INDEX games_black; DROP INDEX games_white; ALTER TABLE games DROP COLUMN rating_black;"
    "ALTER TABLE games DROP COLUMN deviation_black; ALTER TABLE games DROP COLUMN rating_white;"
    "ALTER TABLE games DROP COLUMN deviation_white; DROP TABLE IF EXISTS backfills;"
    "UPDATE schema_version SET version=6;";

TEST(RatingBackfill, AnOldDatabaseGetsTheHistoryItsGamesWouldHaveHad) {
    Fixture f("rating_backfill");
    Played p = play_games(f);
    ASSERT_NO_FATAL_FAILURE(f.reopen_after_sql(BEFORE_HISTORY));
    expect_replayed(f, p);
    // Once only: a point cleared since stays cleared at the next start.
    ASSERT_NO_FATAL_FAILURE(f.reopen_after_sql(
        ("UPDATE games SET rating_black=0, deviation_black=0, rating_white=0, deviation_white=0 WHERE id="
         + std::to_string(p.rated[0]))
            .c_str()));
    EXPECT_EQ(points(f, p.rated[0]), (Points{0, 0, 0, 0}));
    // A game rated now continues from the players' ratings.
    std::int64_t next = play(f, "bob", "carol", "bob");
    EXPECT_DOUBLE_EQ(points(f, next)[2], f.svc->user("carol")->rating);
}

TEST(RatingBackfill, GamesRatedAfterTheFirstPointAreLeftAsTheyAre) {
    // An unrated game that ended after the history was kept (0 there: a guest's, say, whose
    // account was renamed since) is not taken for an old rated one.
    Fixture f("rating_backfill_after");
    f.add_users({"alice", "bob"});
    std::int64_t first = play(f, "alice", "bob", "bob");
    std::int64_t later = play(f, "bob", "alice", "bob");
    ASSERT_NO_FATAL_FAILURE(f.reopen_after_sql(
        ("UPDATE games SET rating_black=0, deviation_black=0, rating_white=0, deviation_white=0 WHERE id="
         + std::to_string(later) + "; DROP TABLE backfills;")
            .c_str()));
    EXPECT_GT(points(f, first)[0], 0);
    EXPECT_EQ(points(f, later), (Points{0, 0, 0, 0}));
}

TEST_F(Postgres, TheRatingHistoryOfOldGamesIsReplayedOnPostgresToo) {
    std::string url = fresh_db();
    Fixture f("pg_rating_backfill", false, url);
    Played p = play_games(f);
    f.svc.reset();
    f.store.reset();
    std::string out;
    std::string db = text::lower(::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_EQ(cluster_->client("psql",
                               {"-v", "ON_ERROR_STOP=1", "-d", db, "-c",
                                "UPDATE games SET rating_black=0, deviation_black=0, rating_white=0, "
                                "deviation_white=0; DROP TABLE backfills;"},
                               out),
              0)
        << out;
    f.reopen();
    expect_replayed(f, p);
}

}  // namespace
}  // namespace hisha::server
