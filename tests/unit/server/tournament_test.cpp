// Scheduled tournaments without sockets: the --tournament syntax, the round times, the pairing
// of a round (by rating, the odd one out, repeats avoided, colours), and the service's rounds
// with a fake clock over SQLite (PostgreSQL: postgres_test.cpp runs check_tournament_rounds).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "store_checks.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::service;
using hisha::server::test::Fixture;
using hisha::server::test::Recorder;

namespace {

Entrant entrant(std::string name, double rating, Millis since = 0, std::string last = {}, int black = 0,
                int white = 0) {
    return {std::move(name), rating, since, std::move(last), black, white};
}

// The pairs as "black-white" strings, in the plan's order.
std::vector<std::string> pairs_of(const RoundPlan& plan) {
    std::vector<std::string> out;
    for (const Pairing& p : plan.pairs)
        out.push_back(p.black + "-" + p.white);
    return out;
}

// The pairs without their colours, each "a+b" with the names in order.
std::set<std::string> matches_of(const RoundPlan& plan) {
    std::set<std::string> out;
    for (const Pairing& p : plan.pairs)
        out.insert(std::min(p.black, p.white) + "+" + std::max(p.black, p.white));
    return out;
}

}  // namespace

TEST(TournamentSpec, ReadsThePatternAndTheInterval) {
    auto t = parse_tournament("floodgate-600-10F*:30");
    ASSERT_TRUE(t.has_value()) << t.error();
    EXPECT_EQ(t->pattern, "floodgate-600-10F*");
    EXPECT_EQ(t->interval_ms, 30 * 60'000);
    EXPECT_EQ(parse_tournament("x-*:45s")->interval_ms, 45'000);
    EXPECT_EQ(parse_tournament("x-*:10m")->interval_ms, 600'000);
    EXPECT_EQ(parse_tournament("x-*:2h")->interval_ms, 7'200'000);
    EXPECT_EQ(parse_tournament("x-<ab>?-*:7d")->interval_ms, 7 * 86'400'000LL);
    for (const char* bad : {"floodgate-600-10", "floodgate-600-10:", ":30", "x-*:0", "x-*:0s", "x-*:8d", "x-*:-5",
                            "x-*:ten", "x-*:10x", "x-<ab:10", "x y:10", "x+y:10", "x,y:10"}) {
        auto r = parse_tournament(bad);
        EXPECT_FALSE(r.has_value()) << bad;
        if (!r) {
            EXPECT_TRUE(r.error().starts_with("--tournament needs")) << r.error();
        }
    }
    EXPECT_FALSE(parse_tournament(std::string(65, 'a') + ":10").has_value());
}

TEST(TournamentSpec, RoundsFallOnTheMultiplesOfTheInterval) {
    EXPECT_EQ(next_round_at(0, 600'000), 600'000);
    EXPECT_EQ(next_round_at(599'999, 600'000), 600'000);
    EXPECT_EQ(next_round_at(600'000, 600'000), 1'200'000);  // a round that is due now has been run
    EXPECT_EQ(next_round_at(1'700'000'000'123, 1'000), 1'700'000'001'000);
}

TEST(TournamentPairing, NeighboursByRatingStrongestFirst) {
    // Arrival order (since) does not matter with an even count; ratings do.
    RoundPlan plan =
        pair_round({entrant("c", 1500, 1), entrant("a", 1900, 2), entrant("d", 1300, 3), entrant("b", 1700, 4)}, 7);
    EXPECT_TRUE(plan.waiting.empty());
    EXPECT_EQ(matches_of(plan), (std::set<std::string>{"a+b", "c+d"}));
    ASSERT_EQ(plan.pairs.size(), 2u);
    EXPECT_TRUE(plan.pairs[0].black == "a" || plan.pairs[0].white == "a");  // the strongest pair first
    // Equal ratings: by name.
    plan = pair_round({entrant("z", 1500), entrant("y", 1500), entrant("x", 1500), entrant("w", 1500)}, 1);
    EXPECT_EQ(matches_of(plan), (std::set<std::string>{"w+x", "y+z"}));
    EXPECT_TRUE(pair_round({}, 1).pairs.empty());
}

TEST(TournamentPairing, AnOddCountLeavesTheLastToComeWaiting) {
    RoundPlan plan = pair_round({entrant("a", 1900, 10), entrant("e", 1600, 50), entrant("b", 1700, 20),
                                 entrant("c", 1500, 30), entrant("d", 1300, 40)},
                                3);
    ASSERT_EQ(plan.waiting, std::vector<std::string>{"e"});
    EXPECT_EQ(matches_of(plan), (std::set<std::string>{"a+b", "c+d"}));
    plan = pair_round({entrant("solo", 1500, 1)}, 3);
    EXPECT_TRUE(plan.pairs.empty());
    EXPECT_EQ(plan.waiting, std::vector<std::string>{"solo"});
}

TEST(TournamentPairing, ALastGameIsNotRepeatedWhenAnotherPairingIsPossible) {
    // a and b, and c and d, played each other last: the neighbours would repeat both games.
    RoundPlan plan = pair_round({entrant("a", 1900, 0, "b"), entrant("b", 1700, 0, "a"), entrant("c", 1500, 0, "d"),
                                 entrant("d", 1300, 0, "c")},
                                5);
    EXPECT_EQ(matches_of(plan), (std::set<std::string>{"a+c", "b+d"}));
    // Only one side remembers it (the other's last game was elsewhere): still a repeat. The
    // nearest pair is swapped, not a far one.
    plan = pair_round({entrant("a", 2000, 0, "b"), entrant("b", 1900), entrant("c", 1800), entrant("d", 1700),
                       entrant("e", 1000), entrant("f", 900)},
                      5);
    std::set<std::string> m = matches_of(plan);
    EXPECT_FALSE(m.contains("a+b"));
    EXPECT_TRUE(m.contains("e+f"));
    // Names compare without case.
    plan = pair_round(
        {entrant("Alice", 1900, 0, "BOB"), entrant("bob", 1800), entrant("carol", 1700), entrant("dave", 1600)}, 5);
    EXPECT_FALSE(matches_of(plan).contains("Alice+bob"));
}

TEST(TournamentPairing, ARepeatStaysWhenNoOtherPairingIsPossible) {
    RoundPlan plan = pair_round({entrant("a", 1900, 0, "b"), entrant("b", 1700, 0, "a")}, 5);
    EXPECT_EQ(pairs_of(plan).size(), 1u);
    EXPECT_EQ(matches_of(plan), (std::set<std::string>{"a+b"}));
    // b, c and d all played a last: every pairing of the four repeats one game, so the
    // neighbours stay.
    plan = pair_round(
        {entrant("a", 1900), entrant("b", 1800, 0, "a"), entrant("c", 1700, 0, "a"), entrant("d", 1600, 0, "a")}, 5);
    EXPECT_EQ(matches_of(plan), (std::set<std::string>{"a+b", "c+d"}));
    // A cycle of last games (a-b, b-c, c-d, d-a) leaves a pairing without a repeat: a-c, b-d.
    plan = pair_round({entrant("a", 1900, 0, "b"), entrant("b", 1800, 0, "c"), entrant("c", 1700, 0, "d"),
                       entrant("d", 1600, 0, "a")},
                      5);
    EXPECT_EQ(matches_of(plan), (std::set<std::string>{"a+c", "b+d"}));
}

TEST(TournamentPairing, BlackGoesToWhoeverHadBlackLessOften) {
    // a has had Black 3 times and White once; b twice each: b gets Black whatever the seed.
    for (std::uint64_t seed = 0; seed < 16; ++seed) {
        RoundPlan plan = pair_round({entrant("a", 1900, 0, {}, 3, 1), entrant("b", 1700, 0, {}, 2, 2)}, seed);
        ASSERT_EQ(plan.pairs.size(), 1u);
        EXPECT_EQ(plan.pairs[0].black, "b");
    }
    // A tie is a coin from the seed: the same seed, the same colours; both colours over seeds.
    std::set<std::string> blacks;
    for (std::uint64_t seed = 0; seed < 32; ++seed) {
        RoundPlan p1 = pair_round({entrant("a", 1900), entrant("b", 1700)}, seed);
        RoundPlan p2 = pair_round({entrant("a", 1900), entrant("b", 1700)}, seed);
        EXPECT_EQ(pairs_of(p1), pairs_of(p2));
        blacks.insert(p1.pairs[0].black);
    }
    EXPECT_EQ(blacks, (std::set<std::string>{"a", "b"}));
}

// --- the service's rounds

namespace {

constexpr Millis MINUTE = 60'000;

// A user's rating set in the store, read by the service after a reopen.
void set_rating(Fixture& f, const std::string& name, double rating) {
    auto u = f.store->find_user(name);
    ASSERT_TRUE(u.has_value()) << name;
    u->rating = rating;
    ASSERT_TRUE(f.store->save_user(*u));
}

// The game a recorder was offered last.
std::int64_t offered(const Recorder& r) {
    for (auto it = r.events.rbegin(); it != r.events.rend(); ++it)
        if (it->kind == EventKind::GameOffered)
            return it->game_id;
    return 0;
}

// Plays an offered tournament game: both agree, then `loser` resigns.
void play_out(Fixture& f, std::int64_t gid, const std::string& loser) {
    const LiveGame* g = f.svc->game(gid);
    ASSERT_TRUE(g);
    std::string black = g->row.black, white = g->row.white;
    ASSERT_TRUE(f.svc->agree(black, gid).has_value());
    ASSERT_TRUE(f.svc->agree(white, gid).has_value());
    ASSERT_TRUE(f.svc->game(gid)->active());
    ASSERT_TRUE(f.svc->resign(loser, gid).has_value());
}

std::string match_of(Fixture& f, std::int64_t gid) {
    const LiveGame* g = f.svc->game(gid);
    if (!g)
        return "none";
    return std::min(g->row.black, g->row.white) + "+" + std::max(g->row.black, g->row.white);
}

}  // namespace

void hisha::server::test::check_tournament_rounds(Fixture& f) {
    f.add_users({"a", "b", "c", "d", "e", "plain1", "plain2"});
    const double ratings[] = {1900, 1700, 1500, 1300, 1600};
    for (int i = 0; i < 5; ++i)
        set_rating(f, std::string(1, char('a' + i)), ratings[i]);
    f.tournaments = {{"tour-*", 10 * MINUTE}};
    f.reopen();
    ASSERT_EQ(f.svc->tournaments().size(), 1u);
    Millis round = f.svc->tournaments()[0].next_round;
    EXPECT_EQ(round % (10 * MINUTE), 0);
    EXPECT_GT(round, f.env.t);
    EXPECT_EQ(f.env.timers.at(-1), round);

    std::map<std::string, std::shared_ptr<Recorder>> rec;
    for (const char* n : {"a", "b", "c", "d", "e", "plain1", "plain2"}) {
        rec[n] = std::make_shared<Recorder>();
        f.svc->connect(n, rec[n], "csa");
    }
    // Arrivals in an order that would pair c with a on arrival; e comes last.
    for (const char* n : {"c", "a", "d", "b"}) {
        f.env.t += 1000;
        ASSERT_TRUE(f.svc->csa_wait(n, "tour-300-10", n[0] == 'a' ? 1 : -1).has_value());  // a colour is ignored
    }
    f.env.t += 1000;
    ASSERT_TRUE(f.svc->csa_wait("e", "tour-300-10", -1).has_value());
    EXPECT_FALSE(f.svc->csa_wait("a", "tour-nonsense", -1).has_value());  // a bad name still refused (a waits on)
    EXPECT_EQ(f.svc->csa_waiting().size(), 5u);
    for (auto& [n, r] : rec)
        EXPECT_EQ(r->count(EventKind::GameOffered), 0) << n << " was paired before the round";
    // An ordinary game name pairs on arrival as before.
    ASSERT_TRUE(f.svc->csa_wait("plain1", "other-300-10", -1).has_value());
    ASSERT_TRUE(f.svc->csa_wait("plain2", "other-300-10", -1).has_value());
    ASSERT_EQ(rec["plain1"]->count(EventKind::GameOffered), 1);
    EXPECT_TRUE(f.svc->game(offered(*rec["plain1"]))->row.tournament.empty());

    f.advance(round - f.env.t);  // the round: a-b and c-d; e came last and waits
    std::int64_t ab = offered(*rec["a"]), cd = offered(*rec["c"]);
    EXPECT_EQ(match_of(f, ab), "a+b");
    EXPECT_EQ(match_of(f, cd), "c+d");
    EXPECT_EQ(rec["e"]->count(EventKind::GameOffered), 0);
    EXPECT_EQ(f.svc->game(ab)->row.tournament, "tour-*");
    EXPECT_EQ(f.svc->game(ab)->row.csa_game_name, "tour-300-10");
    EXPECT_EQ(f.svc->game(ab)->row.tc.main_ms, 300'000);
    auto info = f.svc->tournaments()[0];
    EXPECT_EQ(info.rounds, 1u);
    EXPECT_EQ(info.games, 2u);
    ASSERT_EQ(info.waiting.size(), 1u);
    EXPECT_EQ(info.waiting[0].first, "e");
    EXPECT_EQ(info.next_round, round + 10 * MINUTE);
    EXPECT_EQ(f.env.timers.at(-1), round + 10 * MINUTE);

    play_out(f, ab, "a");  // b wins
    play_out(f, cd, "d");  // c wins
    for (const char* n : {"a", "b", "c", "d"}) {
        const UserRow* u = f.svc->user(n);
        EXPECT_EQ(u->wins + u->losses, 1) << n;
        EXPECT_EQ(u->last_game, f.env.t) << n;
    }
    EXPECT_GT(f.svc->user("b")->rating, 1700);
    EXPECT_LT(f.svc->user("a")->rating, 1900);
    auto list = f.svc->rating_list();
    ASSERT_GE(list.size(), 4u);
    EXPECT_TRUE(std::is_sorted(list.begin(), list.end(),
                               [](const UserRow* x, const UserRow* y) { return x->rating > y->rating; }));
    EXPECT_TRUE(std::none_of(list.begin(), list.end(), [](const UserRow* u) { return u->name == "e"; }));
    auto games = f.svc->tournament_games("tour-*", 10);
    ASSERT_TRUE(games.has_value());
    ASSERT_EQ(games->size(), 2u);
    EXPECT_EQ((*games)[0].id, std::max(ab, cd));  // newest first
    EXPECT_EQ((*games)[0].status, GameStatus::Finished);
    EXPECT_FALSE(f.svc->tournament_games("other-*", 10).has_value());

    // The next round: the four back with e. a (now below b) and b would meet again, c and d
    // too: the round pairs other neighbours. The last to come (d) waits.
    for (const char* n : {"a", "b", "c", "d"}) {
        f.env.t += 1000;
        ASSERT_TRUE(f.svc->csa_wait(n, "tour-300-10", -1).has_value());
    }
    f.advance(round + 10 * MINUTE - f.env.t);
    EXPECT_EQ(rec["d"]->count(EventKind::GameOffered), 1);
    std::set<std::string> second;
    for (const char* n : {"a", "b", "c", "e"}) {
        ASSERT_EQ(rec[n]->count(EventKind::GameOffered), n[0] == 'e' ? 1 : 2) << n;
        second.insert(match_of(f, offered(*rec[n])));
    }
    EXPECT_FALSE(second.contains("a+b"));
    EXPECT_EQ(second.size(), 2u);
    EXPECT_EQ(f.svc->tournaments()[0].waiting.size(), 1u);
    EXPECT_EQ(f.svc->tournaments()[0].waiting[0].first, "d");

    // A restart keeps the games' tournament and the players' last game.
    Millis b_last = f.svc->user("b")->last_game;
    f.reopen();
    EXPECT_EQ(f.svc->user("b")->last_game, b_last);
    EXPECT_EQ(f.svc->tournament_games("tour-*", 10)->size(), 4u);
    EXPECT_TRUE(f.svc->csa_waiting().empty());  // waiting players log in again after a restart
}

TEST(TournamentService, RoundsPairByRatingRateTheGamesAndAvoidRepeats) {
    Fixture f("tournament_rounds");
    hisha::server::test::check_tournament_rounds(f);
}

TEST(TournamentService, AWaitingPlayerWhoLeavesIsNotPaired) {
    Fixture f("tournament_leave");
    f.add_users({"a", "b", "c"});
    f.tournaments = {{"t-*", MINUTE}};
    f.reopen();
    auto a = std::make_shared<Recorder>(), b = std::make_shared<Recorder>(), c = std::make_shared<Recorder>();
    f.svc->connect("a", a, "csa");
    f.svc->connect("b", b, "csa");
    f.svc->connect("c", c, "csa");
    for (const char* n : {"a", "b", "c"})
        ASSERT_TRUE(f.svc->csa_wait(n, "t-60-0", -1).has_value());
    f.svc->csa_cancel("b");  // disconnected (CsaShell::on_disconnect)
    f.advance(f.svc->tournaments()[0].next_round - f.env.t);
    EXPECT_EQ(b->count(EventKind::GameOffered), 0);
    ASSERT_EQ(a->count(EventKind::GameOffered), 1);
    EXPECT_EQ(match_of(f, offered(*a)), "a+c");
    // A round with nobody waiting is a round all the same.
    f.advance(MINUTE);
    EXPECT_EQ(f.svc->tournaments()[0].rounds, 2u);
    EXPECT_EQ(f.svc->tournaments()[0].games, 1u);
}

TEST(TournamentService, AnEarlyTimerWaitsForTheRound) {
    Fixture f("tournament_early");
    f.tournaments = {{"t-*", MINUTE}};
    f.reopen();
    Millis round = f.svc->tournaments()[0].next_round;
    f.svc->on_timer(-1);  // before its time (a clock stepped back)
    EXPECT_EQ(f.svc->tournaments()[0].rounds, 0u);
    EXPECT_EQ(f.env.timers.at(-1), round);
    f.svc->on_timer(-7);  // no such tournament: nothing happens
    f.advance(round - f.env.t);
    EXPECT_EQ(f.svc->tournaments()[0].rounds, 1u);
}

// A database of the schema before tournaments (version 4) opens: its games belong to no
// tournament, and each account's last game is its last rated game's end.
TEST(TournamentService, ADatabaseOfTheSchemaBeforeTournamentsOpensWithTheLastGames) {
    Fixture f("tournament_migrate");
    f.add_users({"alice", "bob", "carol"});
    auto g = f.svc->create_game("alice", "bob", *parse_time_control("60-0"), "web");
    ASSERT_TRUE(g.has_value());
    ASSERT_TRUE(f.svc->resign("bob", *g).has_value());
    Millis ended = f.svc->game(*g)->row.updated;
    ASSERT_NO_FATAL_FAILURE(
        f.reopen_after_sql("DROP INDEX games_tournament; ALTER TABLE games DROP COLUMN tournament;"
                           "ALTER TABLE users DROP COLUMN last_game; DROP INDEX games_black; DROP INDEX games_white;"
                           "ALTER TABLE games DROP COLUMN rating_black; ALTER TABLE games DROP COLUMN deviation_black;"
                           "ALTER TABLE games DROP COLUMN rating_white; ALTER TABLE games DROP COLUMN deviation_white;"
                           "DROP TABLE IF EXISTS conditional_moves; UPDATE schema_version SET version=4;"));
    EXPECT_EQ(f.svc->user("alice")->last_game, ended);
    EXPECT_EQ(f.svc->user("bob")->last_game, ended);
    EXPECT_EQ(f.svc->user("carol")->last_game, 0);
    EXPECT_EQ(f.svc->game(*g)->row.tournament, "");
    auto list = f.svc->rating_list();
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0]->name, "alice");
}
