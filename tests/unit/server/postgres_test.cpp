// The PostgreSQL store on a throwaway cluster (Debian's initdb/pg_ctl in a temporary
// directory, unix socket only): migrations, every kind of row, the service's restart and
// group-commit checks shared with SQLite, and hisha-server --db postgresql://... serving a CSA
// game that is still there after a restart. Skipped, saying why, only when the PostgreSQL
// server programs are not installed.
#include <gtest/gtest.h>

#include <memory>

#include "pg_fixture.h"
#include "server/store/store.h"
#include "store_checks.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::test;


TEST_F(Postgres, MigrationsAndEveryKindOfRow) {
    std::string url = fresh_db();
    std::string err;
    auto s = store::open_store(url, err);
    ASSERT_TRUE(s) << err;
    // A second connection finds the schema in place (the migrations ran once).
    auto again = store::open_store(url, err);
    ASSERT_TRUE(again) << err;

    UserRow u;
    u.name = "Alice";
    u.password_hash = "$argon2id$x";
    u.rating = 1612.5;
    u.settings = "KANJI=utf-8;";
    ASSERT_TRUE(s->save_user(u)) << s->last_error();
    EXPECT_GT(u.id, 0);
    UserRow dup = u;
    dup.id = 0;
    dup.name = "ALICE";
    EXPECT_FALSE(s->save_user(dup));  // names are unique case-insensitively
    EXPECT_TRUE(has(s->last_error(), "duplicate")) << s->last_error();
    u.wins = 3;
    ASSERT_TRUE(s->save_user(u));
    auto found = again->find_user("aLiCe");
    ASSERT_TRUE(found);
    EXPECT_EQ(found->name, "Alice");
    EXPECT_EQ(found->wins, 3);
    EXPECT_DOUBLE_EQ(found->rating, 1612.5);
    EXPECT_EQ(found->settings, "KANJI=utf-8;");
    EXPECT_EQ(again->all_users().size(), 1u);

    ASSERT_TRUE(s->save_token("h1", "Alice", 1000));
    ASSERT_TRUE(s->save_token("h1", "Alice", 5000));  // replaced
    EXPECT_EQ(s->token_user("h1", 2000).value_or(""), "Alice");
    EXPECT_FALSE(s->token_user("h1", 6000));  // expired
    ASSERT_TRUE(s->delete_token("h1"));
    EXPECT_FALSE(s->token_user("h1", 2000));

    GameRow g;
    g.black = "Alice";
    g.white = "bob";
    g.start_sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    g.tc.main_ms = 600000;
    g.status = GameStatus::Active;
    g.origin = "csa";
    g.csa_game_name = "floodgate-600-10F";
    g.moves = {{0, "7g7f", 1000, 5, true, false, "* 30 -3334FU"}, {1, "3c3d", 2000, 6, false, false, {}}};
    ASSERT_TRUE(s->insert_game(g)) << s->last_error();
    EXPECT_EQ(again->open_game_ids_of("ALICE"), std::vector<std::int64_t>{g.id});  // names: any case
    EXPECT_TRUE(again->open_game_ids_of("carol").empty());
    g.moves.pop_back();
    g.moves.push_back({1, "8c8d", 3000, 7, false, true, "* -12 'quoted' +2726FU"});
    g.moves.push_back({2, "RESIGN:B", 0, 8, false, false, {}});
    g.status = GameStatus::Finished;
    g.winner = "white";
    g.reason = "resignation";
    found->losses = 1;
    ASSERT_TRUE(s->save_game(g, 1, {&*found})) << s->last_error();
    auto back = again->load_game(g.id);
    ASSERT_TRUE(back);
    ASSERT_EQ(back->moves.size(), 3u);
    EXPECT_TRUE(back->moves[0].forced);
    EXPECT_EQ(back->moves[1].text, "8c8d");
    EXPECT_TRUE(back->moves[1].locked);
    EXPECT_EQ(back->moves[1].spent_ms, 3000);
    EXPECT_EQ(back->moves[0].comment, "* 30 -3334FU");  // a move's comment (CSA '* ...), kept
    EXPECT_EQ(back->moves[1].comment, "* -12 'quoted' +2726FU");
    EXPECT_EQ(back->moves[2].comment, "");
    EXPECT_EQ(back->winner, "white");
    EXPECT_EQ(back->csa_game_name, "floodgate-600-10F");
    EXPECT_EQ(back->tc.main_ms, 600000);
    EXPECT_EQ(again->find_user("alice")->losses, 1);
    EXPECT_TRUE(again->open_games().empty());
    EXPECT_TRUE(again->open_game_ids_of("alice").empty());  // finished
    EXPECT_EQ(again->finished_games("ALICE", 10).size(), 1u);
    EXPECT_FALSE(again->load_game(g.id + 100));

    ChallengeRow c;
    c.challenger = "Alice";
    c.pattern = "b*";
    c.comment = "it's a 'quoted' comment; DROP TABLE users";
    ASSERT_TRUE(s->insert_challenge(c));
    ASSERT_EQ(again->challenges().size(), 1u);
    EXPECT_EQ(again->challenges()[0].comment, c.comment);
    ASSERT_TRUE(s->delete_challenge(c.id));
    EXPECT_TRUE(again->challenges().empty());

    MessageRow m{0, "Bob", "Alice", "hello", "tell", 42};
    ASSERT_TRUE(s->insert_message(m));
    auto msgs = again->messages_for("bob");
    ASSERT_EQ(msgs.size(), 1u);
    EXPECT_EQ(msgs[0].text, "hello");
    ASSERT_TRUE(s->delete_messages({m.id}));
    EXPECT_TRUE(again->messages_for("bob").empty());
}

TEST_F(Postgres, BadUrlsAreRefusedWithTheReason) {
    std::string err;
    auto s = store::open_store("postgresql:///nosuchdb?host=/nonexistent/dir&port=5432&user=hisha", err);
    EXPECT_FALSE(s);
    EXPECT_TRUE(has(err, "PostgreSQL:")) << err;
}

TEST_F(Postgres, GamesSurviveARestart) {
    Fixture f("pg_restart", false, fresh_db());
    check_games_survive_a_restart(f);
}

TEST_F(Postgres, GroupCommitMakesABatchDurableAtOnce) {
    Fixture f("pg_group", true, fresh_db());
    check_group_commit(f);
}

TEST_F(Postgres, AdministrationActionsBansAndTheAuditLog) {
    Fixture f("pg_admin", false, fresh_db());
    check_administration(f);
}

TEST_F(Postgres, ServerPlaysACsaGameAndKeepsItAcrossARestart) {
    ServerProcess srv(fresh_db(), open_csa());
    LineClient a(srv.ports.at("csa")), b(srv.ports.at("csa"));
    start_csa_game(a, "alice", b, "bob", "pg-600-10");
    csa_plies(a, b, {"+7776FU", "-3334FU"});
    a.send_line("%TORYO", "\n");
    EXPECT_TRUE(has(b.read_until("#WIN\n"), "#RESIGN"));
    srv.restart();
    std::string board = board_seen_by(srv, "bob");
    EXPECT_TRUE(has(board, "alice (Black) vs bob (White)")) << board;
    EXPECT_TRUE(has(board, "White wins by resignation")) << board;
}


// Two hisha-server processes on one database: a player on each side of a game, a spectator and
// a SHOUT; every move made on one server reaches the other through LISTEN/NOTIFY.
TEST_F(Postgres, TwoServersOnOneDatabaseSeeEachOthersLiveEvents) {
    auto [url, a, b] = TwoServers(fresh_db());
    auto alice = text_login(a, "alice", true);
    {
        auto bob_on_a = text_login(a, "bob", true);
        EXPECT_TRUE(has(alice->cmd("NEW bob W"), "Challenge 1 added"));
        EXPECT_TRUE(has(bob_on_a->cmd("N 1"), "game 1"));  // bob is Black
        alice->read_until("accepted");
        bob_on_a->cmd("QUIT", "\n");
    }
    alice->drain();
    auto bob = text_login(b, "bob", false);  // registered through the other server
    auto carol = text_login(b, "carol", true);
    EXPECT_TRUE(has(carol->cmd("WATCH 1"), "Watching game 1"));
    EXPECT_TRUE(has(bob->cmd("B 1"), "Black (bob) to move"));
    EXPECT_TRUE(has(alice->cmd("B 1"), "Black (bob) to move"));

    EXPECT_TRUE(has(play(*bob, "P-7f"), "you played P-7f"));  // on server B
    EXPECT_TRUE(has(alice->read_until("P-7f."), "Game 1: bob played P-7f.")) << alice->pending();
    EXPECT_TRUE(has(carol->read_until("P-7f."), "bob played P-7f."));
    alice->drain();
    EXPECT_TRUE(has(play(*alice, "P-3d"), "you played P-3d"));  // on server A
    EXPECT_TRUE(has(bob->read_until("P-3d."), "Game 1: alice played P-3d."));
    EXPECT_TRUE(has(carol->read_until("P-3d."), "alice played P-3d."));
    bob->drain();
    EXPECT_TRUE(has(bob->cmd("B 1"), "2 moves"));

    carol->drain();
    carol->cmd("SHOUT hello from B");
    EXPECT_TRUE(has(alice->read_until("hello from B"), "carol shouts: hello from B"));
    alice->drain();

    // The end crosses too: bob resigns on B, alice hears of it on A.
    resign(*bob, "1");
    EXPECT_TRUE(has(alice->read_until("is over"), "Game 1")) << alice->pending();
}

TEST_F(Postgres, TournamentRoundsPairRateAndListTheirGames) {
    Fixture f("pg_tournament", false, fresh_db());
    check_tournament_rounds(f);
}
