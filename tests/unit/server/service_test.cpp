// The service's rules without sockets: accounts, challenges (NEW/REMOVE), UNDO by every rule
// of 003, seen tracking, messages (offline TELL), clocks judged by the timer, ratings and
// persistence across a reopened database.
#include <gtest/gtest.h>

#include "store_checks.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::service;
using hisha::server::test::Fixture;
using hisha::server::test::Recorder;

namespace {

std::int64_t corr_game(Fixture& f, const char* black = "alice", const char* white = "bob") {
    auto g = f.svc->create_game(black, white, TimeControl{}, "text");
    EXPECT_TRUE(g.has_value());
    return *g;
}

}  // namespace

TEST(ServiceAccounts, RegisterLoginAndTokens) {
    Fixture f("accounts");
    auto u = f.svc->register_user("Antti.Karttunen", "secret");
    ASSERT_TRUE(u.has_value());
    EXPECT_TRUE(u->password_hash.starts_with("$argon2id$"));
    EXPECT_FALSE(f.svc->register_user("antti.karttunen", "other").has_value());  // names are case-insensitive
    EXPECT_FALSE(f.svc->register_user("bad name", "secret").has_value());
    EXPECT_FALSE(f.svc->register_user("*star", "secret").has_value());
    EXPECT_FALSE(f.svc->register_user("shorty", "pw").has_value());
    EXPECT_TRUE(f.svc->login("ANTTI.KARTTUNEN", "secret").has_value());
    EXPECT_FALSE(f.svc->login("antti.karttunen", "wrong").has_value());
    EXPECT_FALSE(f.svc->login("nobody", "secret").has_value());
    auto tok = f.svc->create_token("antti.karttunen");
    ASSERT_TRUE(tok.has_value());
    EXPECT_EQ(f.svc->token_user(*tok), "Antti.Karttunen");
    f.svc->revoke_token(*tok);
    EXPECT_FALSE(f.svc->token_user(*tok).has_value());
    ASSERT_TRUE(f.svc->change_password("antti.karttunen", "secret", "newsecret").has_value());
    EXPECT_TRUE(f.svc->login("antti.karttunen", "newsecret").has_value());
    f.reopen();
    EXPECT_TRUE(f.svc->login("antti.karttunen", "newsecret").has_value());
}

TEST(ServiceAccounts, UserAndWhoPatterns) {
    Fixture f("who");
    f.add_users({"FOO.BAR", "FU.BAR", "ANTTI.KARTTUNEN"});
    EXPECT_EQ(f.svc->users("*.BAR").size(), 2u);
    EXPECT_EQ(f.svc->users("*NEN").size(), 1u);
    EXPECT_EQ(f.svc->users("!FOO.BAR").size(), 2u);
    auto r = std::make_shared<Recorder>();
    f.svc->connect("fu.bar", r, "text");
    auto who = f.svc->who("*");
    ASSERT_EQ(who.size(), 1u);
    EXPECT_EQ(who[0].name, "FU.BAR");
    EXPECT_TRUE(f.svc->who("FOO*").empty());
    r.reset();  // the connection is gone
    EXPECT_TRUE(f.svc->who("*").empty());
}

TEST(ServiceChallenges, BlackWithFirstMoveAndPatterns) {
    Fixture f("challenge_black");
    f.add_users({"alice", "bob", "NILKKI.NUISANCE"});
    auto c = f.svc->new_challenge("alice", "!NILKKI.NUISANCE", 0, "P-7f", "Not for the jerks!");
    ASSERT_TRUE(c.has_value()) << c.error();
    EXPECT_EQ(f.svc->challenges_for("bob").size(), 1u);
    EXPECT_TRUE(f.svc->challenges_for("nilkki.nuisance").empty());
    EXPECT_FALSE(f.svc->accept_challenge("nilkki.nuisance", *c).has_value());
    EXPECT_FALSE(f.svc->accept_challenge("alice", *c).has_value());                 // own
    EXPECT_FALSE(f.svc->new_challenge("alice", "*", 0, "P-7e", "").has_value());    // illegal
    EXPECT_FALSE(f.svc->new_challenge("alice", "<AB", 0, "P-7f", "").has_value());  // bad pattern
    auto self = f.svc->new_challenge("alice", "ALICE", 0, "P-7f", "");              // only herself
    ASSERT_FALSE(self.has_value());
    EXPECT_EQ(self.error(), "the pattern ALICE names only you: nobody else could accept it");
    auto g = f.svc->accept_challenge("bob", *c);
    ASSERT_TRUE(g.has_value()) << g.error();
    EXPECT_TRUE(f.svc->challenges().empty());
    const LiveGame* game = f.svc->game(*g);
    ASSERT_NE(game, nullptr);
    EXPECT_EQ(game->row.black, "alice");
    EXPECT_EQ(game->row.white, "bob");
    ASSERT_EQ(game->row.moves.size(), 1u);
    EXPECT_EQ(game->row.moves[0].text, "7g7f");
    EXPECT_TRUE(game->row.moves[0].forced);
    EXPECT_EQ(game->to_move(), hisha::core::WHITE);
}

TEST(ServiceChallenges, WhiteWithForcedMoveHandicapAndRemove) {
    Fixture f("challenge_white");
    f.add_users({"carol", "BART.BEGINNER", "ERKKI.EXPERT", "dave"});
    auto c = f.svc->new_challenge("carol", "BART.BEGINNER", 1, "HANDICAP:L@1a", "");
    ASSERT_TRUE(c.has_value()) << c.error();
    EXPECT_FALSE(f.svc->accept_challenge("dave", *c).has_value());
    auto g = f.svc->accept_challenge("bart.beginner", *c);
    ASSERT_TRUE(g.has_value()) << g.error();
    const LiveGame* game = f.svc->game(*g);
    EXPECT_EQ(game->row.black, "BART.BEGINNER");
    EXPECT_EQ(game->row.white, "carol");
    EXPECT_EQ(game->to_move(), hisha::core::WHITE);
    EXPECT_EQ(game->game.position().piece_on(hisha::core::SQ_11), hisha::core::NO_PIECE);

    auto h = f.svc->new_challenge("dave", "ERKKI.EXPERT", 0, "HANDICAP:L@1a,R@8b", "");
    ASSERT_TRUE(h.has_value()) << h.error();
    auto g2 = f.svc->accept_challenge("erkki.expert", *h);
    ASSERT_TRUE(g2.has_value());
    const LiveGame* game2 = f.svc->game(*g2);
    EXPECT_EQ(game2->row.white, "ERKKI.EXPERT");
    EXPECT_EQ(game2->game.position().piece_on(hisha::core::SQ_82), hisha::core::NO_PIECE);
    EXPECT_FALSE(f.svc->new_challenge("dave", "*", 0, "HANDICAP:K@5a", "").has_value());
    EXPECT_FALSE(f.svc->new_challenge("dave", "*", 0, "HANDICAP:R@2b", "").has_value());  // no rook there

    auto r = f.svc->new_challenge("dave", "*", 1, "", "any");
    ASSERT_TRUE(r.has_value());
    EXPECT_FALSE(f.svc->remove_challenge("carol", *r).has_value());  // not hers
    EXPECT_TRUE(f.svc->remove_challenge("dave", *r).has_value());
    EXPECT_FALSE(f.svc->remove_challenge("dave", *r).has_value());
}

TEST(ServiceGames, MovesOnlyByThePlayerToMove) {
    Fixture f("turns");
    f.add_users({"alice", "bob", "mallory"});
    auto gid = corr_game(f);
    EXPECT_FALSE(f.svc->play("mallory", gid, "P-7f").has_value());  // not his game
    EXPECT_FALSE(f.svc->play("bob", gid, "P-3d").has_value());      // not his turn
    EXPECT_FALSE(f.svc->play("alice", gid, "P-7e").has_value());    // illegal
    auto p = f.svc->play("alice", gid, "P-7f");
    ASSERT_TRUE(p.has_value()) << p.error();
    EXPECT_EQ(p->usi, "7g7f");
    EXPECT_EQ(p->csa, "+7776FU");
    EXPECT_TRUE(f.svc->play("bob", gid, "3c3d").has_value());       // USI works too
    EXPECT_TRUE(f.svc->play("alice", gid, "+8822UM").has_value());  // and CSA
}

TEST(ServiceUndo, OwnMoveUntilTheOpponentHasSeenIt) {
    Fixture f("undo_own");
    f.add_users({"alice", "bob"});
    auto gid = corr_game(f);
    ASSERT_TRUE(f.svc->play("alice", gid, "P-7f").has_value());
    EXPECT_FALSE(f.svc->undo("bob", gid, false).has_value());  // not his move
    ASSERT_TRUE(f.svc->undo("alice", gid, false).has_value());
    EXPECT_TRUE(f.svc->game(gid)->row.moves.empty());
    ASSERT_TRUE(f.svc->play("alice", gid, "P-2f").has_value());
    f.svc->mark_seen("bob", gid);
    auto r = f.svc->undo("alice", gid, false);
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().find("already seen"), std::string::npos);
}

TEST(ServiceUndo, OpponentsMoveWithDashOAfterSeeingIt) {
    Fixture f("undo_other");
    f.add_users({"alice", "bob"});
    auto gid = corr_game(f);
    ASSERT_TRUE(f.svc->play("alice", gid, "P-7f").has_value());
    auto unseen = f.svc->undo("bob", gid, true);
    ASSERT_FALSE(unseen.has_value());  // bob has not seen it
    f.svc->mark_seen("bob", gid);
    EXPECT_FALSE(f.svc->undo("alice", gid, true).has_value());  // -o is for the opponent's move
    ASSERT_TRUE(f.svc->undo("bob", gid, true).has_value());
    EXPECT_TRUE(f.svc->game(gid)->row.moves.empty());
    EXPECT_EQ(f.svc->game(gid)->to_move(), hisha::core::BLACK);
    // Once bob has replied, alice's move is no longer the last one.
    ASSERT_TRUE(f.svc->play("alice", gid, "P-7f").has_value());
    ASSERT_TRUE(f.svc->play("bob", gid, "P-3d").has_value());
    EXPECT_FALSE(f.svc->undo("alice", gid, false).has_value());
}

TEST(ServiceUndo, ReplayingTheSameMoveLocksIt) {
    Fixture f("undo_lock");
    f.add_users({"alice", "bob"});
    auto gid = corr_game(f);
    ASSERT_TRUE(f.svc->play("alice", gid, "P-7f").has_value());
    f.svc->mark_seen("bob", gid);
    ASSERT_TRUE(f.svc->undo("bob", gid, true).has_value());
    ASSERT_TRUE(f.svc->play("alice", gid, "P-7f").has_value());  // the same move again
    EXPECT_TRUE(f.svc->game(gid)->row.moves.back().locked);
    EXPECT_FALSE(f.svc->undo("alice", gid, false).has_value());
    f.svc->mark_seen("bob", gid);
    EXPECT_FALSE(f.svc->undo("bob", gid, true).has_value());
    // A different move after an undo is not locked.
    ASSERT_TRUE(f.svc->play("bob", gid, "P-3d").has_value());
    ASSERT_TRUE(f.svc->undo("bob", gid, false).has_value());
    ASSERT_TRUE(f.svc->play("bob", gid, "P-8d").has_value());
    EXPECT_FALSE(f.svc->game(gid)->row.moves.back().locked);
    EXPECT_TRUE(f.svc->undo("bob", gid, false).has_value());
}

TEST(ServiceUndo, ForcedFirstMoveCannotBeUndone) {
    Fixture f("undo_forced");
    f.add_users({"alice", "bob"});
    auto c = f.svc->new_challenge("alice", "*", 0, "P-7f", "");
    auto gid = f.svc->accept_challenge("bob", *c);
    ASSERT_TRUE(gid.has_value());
    EXPECT_FALSE(f.svc->undo("alice", *gid, false).has_value());
    EXPECT_FALSE(f.svc->undo("bob", *gid, true).has_value());
    auto w = f.svc->new_challenge("alice", "*", 1, "P-2f", "");
    auto gid2 = f.svc->accept_challenge("bob", *w);
    ASSERT_TRUE(gid2.has_value());
    EXPECT_EQ(f.svc->game(*gid2)->row.black, "bob");
    EXPECT_FALSE(f.svc->undo("bob", *gid2, false).has_value());
    EXPECT_FALSE(f.svc->undo("alice", *gid2, true).has_value());
}

TEST(ServiceUndo, HandicapMoveAndResignationAreMoves) {
    Fixture f("undo_special");
    f.add_users({"alice", "bob"});
    auto gid = corr_game(f);
    ASSERT_TRUE(f.svc->play("alice", gid, "HANDICAP:L@1a,R@8b").has_value());
    EXPECT_EQ(f.svc->game(gid)->to_move(), hisha::core::WHITE);
    ASSERT_TRUE(f.svc->undo("alice", gid, false).has_value());
    EXPECT_EQ(f.svc->game(gid)->to_move(), hisha::core::BLACK);
    EXPECT_NE(f.svc->game(gid)->game.position().piece_on(hisha::core::SQ_11), hisha::core::NO_PIECE);

    ASSERT_TRUE(f.svc->play("alice", gid, "P-7f").has_value());
    ASSERT_TRUE(f.svc->resign("bob", gid).has_value());
    EXPECT_TRUE(f.svc->game(gid)->finished());
    ASSERT_TRUE(f.svc->undo("bob", gid, false).has_value());  // alice has not seen it
    EXPECT_TRUE(f.svc->game(gid)->active());
    ASSERT_TRUE(f.svc->resign("bob", gid).has_value());
    f.svc->mark_seen("alice", gid);
    EXPECT_FALSE(f.svc->undo("bob", gid, false).has_value());
    EXPECT_FALSE(f.svc->undo("alice", gid, true).has_value());  // the result stands
    const UserRow* a = f.svc->user("alice");
    EXPECT_EQ(a->wins, 1);
    EXPECT_GT(a->rating, 1500.0);
    EXPECT_EQ(f.svc->user("bob")->losses, 1);
}

TEST(ServiceUndo, RealTimeGamesHaveNoUndo) {
    Fixture f("undo_rt");
    f.add_users({"alice", "bob"});
    auto tc = parse_time_control("600-10");
    auto gid = f.svc->create_game("alice", "bob", *tc, "web");
    ASSERT_TRUE(f.svc->play("alice", *gid, "P-7f").has_value());
    EXPECT_FALSE(f.svc->undo("alice", *gid, false).has_value());
}

TEST(ServiceMessages, OfflineTellIsKeptUntilNextLoginThenDeleted) {
    Fixture f("tell");
    f.add_users({"alice", "bob"});
    auto r = f.svc->tell("alice", "bob", "There's a bug in the command xxx.", false);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(*r, TellResult::Offline);
    r = f.svc->tell("alice", "bob", "There's a bug in the command xxx.", true);
    EXPECT_EQ(*r, TellResult::Stored);
    EXPECT_EQ(f.svc->last_tell("alice"), "bob");
    f.reopen();  // survives a restart
    auto msgs = f.svc->take_messages("bob");
    ASSERT_EQ(msgs.size(), 1u);
    EXPECT_EQ(msgs[0].from, "alice");
    EXPECT_EQ(msgs[0].text, "There's a bug in the command xxx.");
    EXPECT_TRUE(f.svc->take_messages("bob").empty());
    auto bob = std::make_shared<Recorder>();
    f.svc->connect("bob", bob, "text");
    EXPECT_EQ(*f.svc->tell("alice", "BOB", "hi", false), TellResult::Delivered);
    ASSERT_EQ(bob->count(EventKind::Tell), 1);
    EXPECT_FALSE(f.svc->tell("alice", "nobody", "hi", true).has_value());
}

TEST(ServiceMessages, SayGoesToTheOpponentAndShoutToEveryone) {
    Fixture f("say");
    f.add_users({"alice", "bob", "carol"});
    auto gid = corr_game(f);
    auto a = std::make_shared<Recorder>(), b = std::make_shared<Recorder>(), c = std::make_shared<Recorder>();
    f.svc->connect("alice", a, "text");
    f.svc->connect("bob", b, "text");
    f.svc->connect("carol", c, "text");
    EXPECT_EQ(*f.svc->say("alice", gid, "You will be mated in 5 moves!", false), TellResult::Delivered);
    EXPECT_EQ(b->count(EventKind::Say), 1);
    EXPECT_EQ(c->count(EventKind::Say), 0);
    EXPECT_FALSE(f.svc->say("carol", gid, "hi", false).has_value());
    EXPECT_EQ(*f.svc->shout("carol", "Good evening!"), 3);
    EXPECT_EQ(a->count(EventKind::Shout), 1);
    EXPECT_EQ(b->count(EventKind::Shout), 1);
}

TEST(ServiceGames, CheckNoticesAndEvents) {
    Fixture f("check");
    f.add_users({"alice", "bob"});
    auto gid = corr_game(f);
    auto b = std::make_shared<Recorder>();
    f.svc->connect("bob", b, "text");
    for (auto m : {"7g7f", "3c3d", "8h2b+", "5a4b"})
        ASSERT_TRUE(f.svc->play(m[0] == '3' || m[0] == '5' ? "bob" : "alice", gid, m).has_value()) << m;
    auto g2 = corr_game(f, "bob", "alice");
    ASSERT_TRUE(f.svc->play("bob", g2, "7g7f").has_value());
    ASSERT_TRUE(f.svc->play("alice", g2, "4a3b").has_value());
    auto chk = f.svc->play("bob", g2, "8h3c+");
    ASSERT_TRUE(chk.has_value()) << chk.error();
    ASSERT_FALSE(chk->notices.empty());
    EXPECT_EQ(chk->notices[0], "White's king is checked by 3c.");
    EXPECT_EQ(b->count(EventKind::Move), 7);  // bob plays in both games
}

TEST(ServiceClocks, ByoyomiFlagIsJudgedByTheTimer) {
    Fixture f("flag");
    f.add_users({"alice", "bob"});
    auto tc = parse_time_control("10-5");
    auto gid = f.svc->create_game("alice", "bob", *tc, "web");
    ASSERT_TRUE(gid.has_value());
    auto a = std::make_shared<Recorder>();
    f.svc->connect("alice", a, "web");
    f.advance(3000);
    ASSERT_TRUE(f.svc->play("alice", *gid, "P-7f").has_value());
    EXPECT_EQ(f.svc->game(*gid)->row.remaining[0], 7000);
    ASSERT_EQ(f.env.timers.count(*gid), 1u);
    EXPECT_EQ(f.env.timers[*gid], f.env.t + 15001);  // bob: 10 s main + 5 s byoyomi
    f.advance(15000);
    EXPECT_TRUE(f.svc->game(*gid)->active());
    f.advance(1);
    EXPECT_TRUE(f.svc->game(*gid)->finished());
    EXPECT_EQ(f.svc->game(*gid)->row.reason, "time_up");
    EXPECT_EQ(f.svc->game(*gid)->row.winner, "black");
    EXPECT_EQ(a->count(EventKind::GameEnded), 1);
    EXPECT_EQ(f.svc->user("alice")->wins, 1);  // real-time results count at once
}

TEST(ServiceClocks, CorrespondenceDaysPerMove) {
    Fixture f("days");
    f.add_users({"alice", "bob"});
    TimeControl tc;
    tc.days_per_move = 2;
    auto gid = f.svc->create_game("alice", "bob", tc, "text");
    f.advance(86'400'000);
    ASSERT_TRUE(f.svc->play("alice", *gid, "P-7f").has_value());
    f.advance(2 * 86'400'000 - 1);
    EXPECT_TRUE(f.svc->game(*gid)->active());
    f.advance(2);
    EXPECT_EQ(f.svc->game(*gid)->row.reason, "time_up");
}

TEST(ServiceClocks, CsaWholeSecondsAndFischer) {
    auto tc = parse_time_control("600-10F");
    ASSERT_TRUE(tc.has_value());
    tc->csa_seconds = true;
    auto c = charge_move(*tc, 600'000, 3'900);
    EXPECT_EQ(c.spent, 3'000);
    EXPECT_EQ(c.remaining, 607'000);
    EXPECT_FALSE(c.flagged);
    EXPECT_TRUE(charge_move(*tc, 5'000, 15'000).flagged);
    EXPECT_FALSE(charge_move(*tc, 5'000, 14'999).flagged);
    EXPECT_FALSE(parse_time_control("abc").has_value());
    EXPECT_EQ(parse_time_control("corr-3")->days_per_move, 3);
}

TEST(ServiceCsa, MatchmakingAgreeAndReject) {
    Fixture f("csa_lobby");
    f.add_users({"alice", "bob"});
    auto a = std::make_shared<Recorder>(), b = std::make_shared<Recorder>();
    f.svc->connect("alice", a, "csa");
    f.svc->connect("bob", b, "csa");
    EXPECT_FALSE(f.svc->csa_wait("alice", "nonsense", -1).has_value());
    ASSERT_TRUE(f.svc->csa_wait("alice", "floodgate-600-10F", -1).has_value());
    EXPECT_EQ(f.svc->csa_waiting().size(), 1u);
    ASSERT_TRUE(f.svc->csa_wait("bob", "floodgate-600-10F", -1).has_value());
    ASSERT_EQ(a->count(EventKind::GameOffered), 1);
    std::int64_t gid = a->events.back().game_id;
    EXPECT_EQ(f.svc->game(gid)->row.black, "alice");
    ASSERT_TRUE(f.svc->agree("alice", gid).has_value());
    EXPECT_EQ(a->count(EventKind::GameStarted), 0);
    ASSERT_TRUE(f.svc->agree("bob", gid).has_value());
    EXPECT_EQ(a->count(EventKind::GameStarted), 1);
    EXPECT_TRUE(f.svc->game(gid)->active());
    ASSERT_TRUE(f.svc->csa_wait("alice", "x-60-0", 1).has_value());
    ASSERT_TRUE(f.svc->csa_wait("bob", "x-60-0", 0).has_value());
    std::int64_t gid2 = b->events.back().game_id;
    EXPECT_EQ(f.svc->game(gid2)->row.black, "bob");
    ASSERT_TRUE(f.svc->reject("alice", gid2).has_value());
    EXPECT_EQ(b->count(EventKind::GameRejected), 1);
}

TEST(ServiceStore, GamesSurviveARestart) {
    Fixture f("restart");
    check_games_survive_a_restart(f);
}

TEST(ServiceStore, GroupCommitMakesABatchDurableAtOnce) {
    Fixture f("group", true);
    check_group_commit(f);
}

void hisha::server::test::check_games_survive_a_restart(Fixture& f) {
    f.add_users({"alice", "bob"});
    auto gid = corr_game(f);
    ASSERT_TRUE(f.svc->play("alice", gid, "P-7f").has_value());
    ASSERT_TRUE(f.svc->play("bob", gid, "P-3d").has_value());
    f.svc->mark_seen("alice", gid);
    ASSERT_TRUE(f.svc->undo("alice", gid, true).has_value());
    ASSERT_TRUE(f.svc->new_challenge("alice", "*", 1, "", "hello").has_value());
    f.reopen();
    const LiveGame* g = f.svc->game(gid);
    ASSERT_NE(g, nullptr);
    ASSERT_EQ(g->row.moves.size(), 1u);
    EXPECT_EQ(g->row.undone_text, "3c3d");
    EXPECT_EQ(g->to_move(), hisha::core::WHITE);
    ASSERT_EQ(f.svc->challenges().size(), 1u);
    ASSERT_TRUE(f.svc->play("bob", gid, "P-3d").has_value());
    EXPECT_TRUE(f.svc->game(gid)->row.moves.back().locked);
    // Within one run of the store: a move undone before it was seen and another played at
    // its ply; the table holds the new one in its place.
    ASSERT_TRUE(f.svc->play("alice", gid, "P-2f").has_value());
    ASSERT_TRUE(f.svc->undo("alice", gid, false).has_value());
    ASSERT_TRUE(f.svc->play("alice", gid, "P-1f").has_value());
    f.reopen();
    ASSERT_EQ(f.svc->game(gid)->row.moves.size(), 3u);
    EXPECT_EQ(f.svc->game(gid)->row.moves[2].text, "1g1f");
}

void hisha::server::test::check_group_commit(Fixture& f) {
    f.add_users({"alice", "bob"});
    auto gid = corr_game(f);
    ASSERT_TRUE(f.svc->play("alice", gid, "P-7f").has_value());
    EXPECT_TRUE(f.svc->batch_open());  // the network holds replies now
    EXPECT_EQ(f.env.commit_requests, 1);
    ASSERT_TRUE(f.svc->play("bob", gid, "P-3d").has_value());
    EXPECT_EQ(f.env.commit_requests, 1);                          // one batch, one request
    EXPECT_FALSE(f.svc->play("alice", gid, "P-7c").has_value());  // a refused move writes nothing
    {
        std::string err;
        auto other = hisha::server::store::open_store(f.url, err);  // a second reader
        ASSERT_TRUE(other);
        auto row = other->load_game(gid);
        ASSERT_TRUE(row.has_value());
        EXPECT_TRUE(row->moves.empty());  // not committed yet
    }
    ASSERT_TRUE(f.svc->commit());
    EXPECT_FALSE(f.svc->batch_open());
    ASSERT_TRUE(f.svc->play("alice", gid, "P-2f").has_value());
    EXPECT_EQ(f.env.commit_requests, 2);
    ASSERT_TRUE(f.svc->commit());
    f.reopen();
    ASSERT_EQ(f.svc->game(gid)->row.moves.size(), 3u);
    EXPECT_EQ(f.svc->game(gid)->row.moves[1].text, "3c3d");
}
