// Finished games leave the service's memory (issue 17: a server that ran for months kept every
// game it had served): after many games played to their end, only the few most recently used
// finished games are held, and every one of the others is still shown, undone after its end by
// the rules, rated when seen and watched, read from the store (real SQLite) on demand. A game
// whose end may still be taken back stays while someone here watches it, and on a database
// shared by several servers (real PostgreSQL) until its end stands.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pg_fixture.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::service;
using hisha::server::test::Fixture;
using hisha::server::test::Postgres;
using hisha::server::test::Recorder;

namespace {

// Game i: alice plays P-7f, bob answers P-3d, alice resigns (a correspondence game).
std::int64_t play_to_resignation(Fixture& f) {
    auto g = f.svc->create_game("alice", "bob", TimeControl{}, "text");
    EXPECT_TRUE(g.has_value());
    EXPECT_TRUE(f.svc->play("alice", *g, "P-7f").has_value());
    EXPECT_TRUE(f.svc->play("bob", *g, "P-3d").has_value());
    EXPECT_TRUE(f.svc->resign("alice", *g).has_value());
    return *g;
}

}  // namespace

TEST(FinishedGames, OnlyTheMostRecentlyUsedAreKeptAndTheOthersAreReadFromTheStore) {
    Fixture f("finished_games");
    f.add_users({"alice", "bob", "carol"});
    f.svc->keep_finished_games(3);
    auto ra = std::make_shared<Recorder>(), rb = std::make_shared<Recorder>();
    f.svc->connect("alice", ra, "text");
    f.svc->connect("bob", rb, "text");
    std::vector<std::int64_t> ids;
    for (int i = 0; i < 40; ++i) {
        ids.push_back(play_to_resignation(f));
        f.svc->mark_seen("bob", ids.back());  // rated: the end cannot be undone any more
    }
    auto open = f.svc->create_game("bob", "alice", TimeControl{}, "text");  // in play: held
    ASSERT_TRUE(open.has_value());
    EXPECT_EQ(f.svc->live_games(), 4u);  // 3 finished + the open one
    EXPECT_EQ(f.svc->games_in_progress(), 1u);
    EXPECT_EQ(f.svc->user("bob")->wins, 40);
    EXPECT_EQ(f.svc->user("alice")->losses, 40);

    // Each finished game is shown as it ended: moves, result, position.
    for (std::int64_t id : ids) {
        const LiveGame* g = f.svc->game(id);
        ASSERT_NE(g, nullptr) << id;
        EXPECT_TRUE(g->finished());
        EXPECT_EQ(g->row.status, GameStatus::Finished);
        ASSERT_EQ(g->row.moves.size(), 3u);
        EXPECT_EQ(g->row.winner, "white");
        EXPECT_EQ(g->log.size(), 3u);
        EXPECT_TRUE(g->row.rated_applied);
    }
    // Read for a request, they leave memory when the next request (or operation) comes.
    ASSERT_TRUE(f.svc->admit_request("127.0.0.1", "carol").has_value());
    EXPECT_EQ(f.svc->live_games(), 4u);
    EXPECT_EQ(f.svc->game(9999), nullptr);

    // The result of an old game stands (its end seen), as when it was held.
    EXPECT_FALSE(f.svc->undo("alice", ids[0], false).has_value());
    EXPECT_FALSE(f.svc->undo("bob", ids[0], true).has_value());
    EXPECT_EQ(f.svc->user("bob")->wins, 40);
}

TEST(FinishedGames, AnOldEndNotYetSeenIsUndoneAndRatedFromTheStore) {
    Fixture f("finished_undo");
    f.add_users({"alice", "bob"});
    f.svc->keep_finished_games(1);
    std::int64_t first = play_to_resignation(f);  // bob has not seen alice's resignation
    for (int i = 0; i < 5; ++i)
        f.svc->mark_seen("bob", play_to_resignation(f));
    EXPECT_EQ(f.svc->live_games(), 1u);
    EXPECT_EQ(f.svc->user("bob")->wins, 5);                       // the first is not rated yet: bob has not seen it
    ASSERT_TRUE(f.svc->undo("alice", first, false).has_value());  // her resignation taken back
    EXPECT_TRUE(f.svc->game(first)->active());
    ASSERT_TRUE(f.svc->resign("alice", first).has_value());
    f.svc->mark_seen("bob", first);
    EXPECT_EQ(f.svc->user("bob")->wins, 6);
    EXPECT_FALSE(f.svc->undo("alice", first, false).has_value());
    f.reopen();  // what was written is what a restart reads
    EXPECT_EQ(f.svc->user("bob")->wins, 6);
    EXPECT_EQ(f.svc->game(first)->row.moves.size(), 3u);
}

TEST(FinishedGames, AWatchedFinishedGameStaysWhileItsSpectatorIsConnected) {
    Fixture f("finished_watch");
    f.add_users({"alice", "bob", "carol"});
    f.svc->keep_finished_games(1);
    auto rc = std::make_shared<Recorder>();
    f.svc->connect("carol", rc, "text");
    std::int64_t watched = play_to_resignation(f);
    f.svc->watch("carol", watched, true);
    for (int i = 0; i < 5; ++i)
        f.svc->mark_seen("bob", play_to_resignation(f));
    EXPECT_EQ(f.svc->live_games(), 2u);  // the watched one (bob has not seen its end), and the last
    // Carol still hears of it: alice takes back her resignation (bob has not seen it).
    std::size_t before = rc->events.size();
    ASSERT_TRUE(f.svc->undo("alice", watched, false).has_value());
    ASSERT_GT(rc->events.size(), before);
    EXPECT_EQ(rc->events.back().game_id, watched);
    EXPECT_EQ(rc->events.back().kind, EventKind::Undo);
    ASSERT_TRUE(f.svc->resign("alice", watched).has_value());
    EXPECT_EQ(rc->events.back().kind, EventKind::GameEnded);
    rc.reset();  // carol leaves: the game may go
    f.svc->mark_seen("bob", play_to_resignation(f));
    EXPECT_EQ(f.svc->live_games(), 1u);
    EXPECT_EQ(f.svc->game(watched)->row.moves.size(), 3u);
}

TEST(FinishedGames, AWatchedGameWhoseResultStandsIsNotHeldForItsSpectator) {
    // A spectator who stays connected (a CSA monitor, a web page left open) does not keep every
    // game they watched: once its end can no longer be taken back nothing more happens to it.
    Fixture f("finished_watch_rated");
    f.add_users({"alice", "bob", "carol"});
    f.svc->keep_finished_games(1);
    auto rc = std::make_shared<Recorder>();
    f.svc->connect("carol", rc, "text");
    auto g = f.svc->create_game("alice", "bob", TimeControl{}, "text");
    ASSERT_TRUE(g.has_value());
    f.svc->watch("carol", *g, true);
    ASSERT_TRUE(f.svc->play("alice", *g, "P-7f").has_value());
    ASSERT_TRUE(f.svc->resign("bob", *g).has_value());
    EXPECT_EQ(rc->events.back().kind, EventKind::GameEnded);
    f.svc->mark_seen("alice", *g);  // the resignation seen: it stands
    EXPECT_TRUE(f.svc->game(*g)->row.rated_applied);
    for (int i = 0; i < 3; ++i)
        f.svc->mark_seen("bob", play_to_resignation(f));
    EXPECT_EQ(f.svc->live_games(), 1u);  // the last game only
    EXPECT_EQ(f.svc->user("alice")->wins, 1);
    const LiveGame* again = f.svc->game(*g);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(again->row.winner, "black");
    EXPECT_EQ(again->row.moves.size(), 2u);
}

TEST_F(Postgres, AFinishedGameWhoseEndMayBeUndoneElsewhereStaysUntilItStands) {
    // Two servers on one database: here (a) bob hears of alice's undo made through the other
    // (b) as an undo. A copy of the game read again would have told him of his own last move
    // as new: the game stays while its end may be taken back, and leaves once it stands.
    std::string url = fresh_db();
    Fixture a("pg_finished_a", false, url), b("pg_finished_b", false, url);
    a.add_users({"alice", "bob"});
    a.svc->keep_finished_games(1);
    auto rb = std::make_shared<Recorder>();
    a.svc->connect("bob", rb, "text");
    std::int64_t first = play_to_resignation(a);  // bob has not seen alice's resignation
    for (int i = 0; i < 2; ++i)
        a.svc->mark_seen("bob", play_to_resignation(a));
    EXPECT_EQ(a.svc->live_games(), 2u);  // the first, and the last

    ASSERT_TRUE(b.svc->undo("alice", first, false).has_value());
    std::size_t before = rb->events.size();
    a.svc->on_remote("G " + std::to_string(first));  // what b published
    ASSERT_EQ(rb->events.size(), before + 1);
    EXPECT_EQ(rb->events.back().kind, EventKind::Undo);
    EXPECT_EQ(rb->events.back().ply, 2);
    EXPECT_TRUE(a.svc->game(first)->active());

    ASSERT_TRUE(a.svc->resign("alice", first).has_value());
    b.svc->on_remote("G " + std::to_string(first));
    b.svc->mark_seen("bob", first);  // through b: the end stands, b tells no one
    a.svc->mark_seen("bob", play_to_resignation(a));
    EXPECT_EQ(a.svc->live_games(), 1u);      // the last only
    EXPECT_EQ(a.svc->user("bob")->wins, 4);  // the first (rated through b) and three more
    EXPECT_TRUE(a.svc->game(first)->row.rated_applied);
}
