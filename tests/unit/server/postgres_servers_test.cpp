// Several hisha-server processes on one PostgreSQL database: who is online on any of them
// (and not after their server died), challenges posted on one and accepted on another, CSA
// players paired across servers and coming back through another server after a drop, writes
// racing between servers (exactly one wins, the other is told and reloads), and kill -9 losing
// no acknowledged move.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "pg_fixture.h"
#include "server/store/store.h"

using namespace hisha::server;
using namespace hisha::server::test;

namespace {

/// One HTTP/1.1 request on its own connection; the whole response (status line to body).
std::string http(int port, const std::string& method, const std::string& target, const std::string& body = {},
                 const std::string& token = {}) {
    LineClient c(port);
    std::string req = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    if (!token.empty())
        req += "Authorization: Bearer " + token + "\r\n";
    if (!body.empty())
        req += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    c.send_raw(req + "\r\n" + body);
    c.closed_by_peer(5000);
    return c.pending();
}

/// Polls `probe` until it returns true (bounded); false on timeout.
template <typename F>
bool eventually(F probe, int timeout_ms = 8000) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < deadline) {
        if (probe())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return probe();
}

/// %%WHO of an x1 CSA client: the lines up to its +OK.
std::string csa_who(LineClient& c) {
    c.send_line("%%WHO", "\n");
    return c.read_until("##[WHO] +OK\n");
}

/// The USI spelling of a CSA board move without promotion or drop ("+7776FU" -> "7g7f").
std::string usi_of(const std::string& csa) {
    return std::string{csa[1], char('a' + (csa[2] - '1')), csa[3], char('a' + (csa[4] - '1'))};
}

GameRow sample_game() {
    GameRow g;
    g.black = "alice";
    g.white = "bob";
    g.start_sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    g.tc.days_per_move = 7;
    g.origin = "text";
    return g;
}

}  // namespace

// The store's arbitration, step by step: a save based on an older version of a game is refused
// (and says so) while the newer one stands; a challenge is deleted (taken) once.
TEST_F(Postgres, AStaleSaveLosesAndAChallengeIsTakenOnce) {
    std::string url = fresh_db();
    std::string err;
    auto one = store::open_store(url, err);
    auto two = store::open_store(url, err);
    ASSERT_TRUE(one && two) << err;
    GameRow g = sample_game();
    ASSERT_TRUE(one->insert_game(g)) << one->last_error();
    auto theirs = two->load_game(g.id);
    ASSERT_TRUE(theirs);
    EXPECT_EQ(theirs->version, 0);

    g.moves.push_back({0, "7g7f", 10, 1, false, false, {}});
    ASSERT_TRUE(one->save_game(g, 0)) << one->last_error();
    EXPECT_FALSE(one->lost_race());
    ++g.version;  // what the service does after a save

    theirs->moves.push_back({0, "2g2f", 10, 2, false, false, {}});  // based on version 0
    EXPECT_FALSE(two->save_game(*theirs, 0));
    EXPECT_TRUE(two->lost_race());
    EXPECT_TRUE(has(two->last_error(), "changed on another server")) << two->last_error();
    auto now = two->load_game(g.id);
    ASSERT_TRUE(now);
    ASSERT_EQ(now->moves.size(), 1u);
    EXPECT_EQ(now->moves[0].text, "7g7f");  // the first writer's move, alone
    EXPECT_EQ(now->version, 1);
    now->moves.push_back({1, "3c3d", 10, 3, false, false, {}});  // reloaded: accepted
    EXPECT_TRUE(two->save_game(*now, 1)) << two->last_error();
    EXPECT_FALSE(one->save_game(g, 1));  // and now the first one is behind
    EXPECT_TRUE(one->lost_race());

    ChallengeRow c;
    c.challenger = "alice";
    c.pattern = "*";
    ASSERT_TRUE(one->insert_challenge(c));
    EXPECT_TRUE(two->delete_challenge(c.id));
    EXPECT_FALSE(one->delete_challenge(c.id));
    EXPECT_TRUE(one->lost_race());
    EXPECT_TRUE(has(one->last_error(), "no longer open")) << one->last_error();
}

// WHO (text), %%WHO (CSA x1), /api/who and the lobby (JSON) on either server list the players
// of both; a player who logs out, or whose server is killed, drops off the other's lists.
TEST_F(Postgres, WhoOnEveryServerListsThePlayersOfAllOfThem) {
    std::string url = fresh_db();
    ServerProcess a(url, open_csa());
    auto b = std::make_unique<ServerProcess>(url, open_csa());
    auto alice = text_login(a, "alice", true);
    LineClient bob(b->ports.at("csa"));
    bob.send_line("LOGIN bob secret x1", "\n");
    bob.read_until("##[LOGIN] +OK x1\n");
    auto carol = text_login(*b, "carol", true);

    std::string who_a = alice->cmd("WHO");
    EXPECT_TRUE(has(who_a, "alice")) << who_a;
    EXPECT_TRUE(has(who_a, "bob")) << who_a;
    EXPECT_TRUE(has(who_a, "csa")) << who_a;  // the protocol of the other server's connection
    EXPECT_TRUE(has(who_a, "carol")) << who_a;
    EXPECT_TRUE(has(alice->cmd("WHO b*"), "bob"));  // patterns apply to remote players too
    EXPECT_FALSE(has(alice->cmd("WHO b*"), "carol"));
    std::string who_b = csa_who(bob);
    EXPECT_TRUE(has(who_b, "##[WHO] alice text")) << who_b;
    EXPECT_TRUE(has(who_b, "##[WHO] bob csa")) << who_b;
    std::string json_who = http(a.ports.at("http"), "GET", "/api/who");
    EXPECT_TRUE(has(json_who, "\"name\":\"bob\"")) << json_who;
    EXPECT_TRUE(has(json_who, "\"via\":\"csa\"")) << json_who;
    std::string login = http(a.ports.at("http"), "POST", "/api/login", R"({"name":"alice","password":"secret"})");
    auto at = login.find("\"token\":\"");
    ASSERT_NE(at, std::string::npos) << login;
    std::string token = login.substr(at + 9, 64);
    std::string lobby = http(a.ports.at("http"), "GET", "/api/lobby", {}, token);
    EXPECT_TRUE(has(lobby, "\"online\":[")) << lobby;
    EXPECT_TRUE(has(lobby, "\"bob\"")) << lobby;
    EXPECT_TRUE(has(lobby, "\"carol\"")) << lobby;

    // TELL reaches a player on the other server.
    alice->cmd("TELL carol hello over there");
    EXPECT_TRUE(has(carol->read_until("over there"), "alice")) << carol->pending();

    // Logging out on B: gone from A's list.
    carol->cmd("QUIT", "\n");
    carol.reset();
    EXPECT_TRUE(eventually([&] { return !has(alice->cmd("WHO"), "carol"); }));

    // Server B is killed: its players are not listed as online any more (their database
    // session ended with the process), and the rows are swept.
    b->stop(SIGKILL);
    EXPECT_TRUE(eventually([&] { return !has(alice->cmd("WHO"), "bob"); })) << alice->cmd("WHO");
    std::string after = alice->cmd("WHO");
    EXPECT_TRUE(has(after, "alice")) << after;
    EXPECT_FALSE(has(http(a.ports.at("http"), "GET", "/api/who"), "bob"));
}

// A password changed on one server is the password on the other; so are the counts after a game
// (each server starts a change to a player from the stored row, not from its copy).
TEST_F(Postgres, APlayerChangedOnOneServerIsChangedOnTheOther) {
    auto [url, a, b] = TwoServers(fresh_db());
    auto alice = text_login(a, "alice", true);
    auto bob = text_login(b, "bob", true);
    text_login(b, "alice", false)->cmd("QUIT", "\n");  // B holds alice's row now
    EXPECT_TRUE(has(alice->cmd("PASSWORD secret better"), "Password changed"));
    LineClient on_b(b.ports.at("text"));
    on_b.read_until("hisha> ");
    EXPECT_TRUE(has(on_b.cmd("LOGIN alice secret"), "incorrect name or password"));
    EXPECT_TRUE(has(on_b.cmd("LOGIN alice better"), "Welcome, alice"));

    // Two games between them end, one on each server: both results count.
    for (int round = 0; round < 2; ++round) {
        LineClient& poster = round == 0 ? *alice : *bob;
        LineClient& taker = round == 0 ? *bob : *alice;
        std::string n = std::to_string(round + 1);
        EXPECT_TRUE(has(poster.cmd("NEW * W"), "Challenge " + n + " added"));
        EXPECT_TRUE(eventually([&] { return has(taker.cmd("N"), " " + n + "  "); }));
        EXPECT_TRUE(has(taker.cmd("N " + n), "game " + n));
        resign(taker, n);
        EXPECT_TRUE(has(poster.read_until("is over"), "Game " + n)) << poster.pending();
        poster.drain();
        poster.cmd("B " + n);  // the winner sees the end: the result is counted
    }
    std::string err;
    auto s = store::open_store(url, err);
    ASSERT_TRUE(s) << err;
    EXPECT_TRUE(eventually([&] { return s->find_user("alice")->wins == 1 && s->find_user("bob")->wins == 1; }))
        << s->find_user("alice")->wins << " " << s->find_user("bob")->wins;
    EXPECT_EQ(s->find_user("alice")->losses, 1);
    EXPECT_EQ(s->find_user("bob")->losses, 1);
    // USER on either server shows the counts as stored, and players registered through the
    // other one since, online there.
    auto gina = text_login(b, "gina", true);
    std::string users = alice->cmd("USER *");
    EXPECT_TRUE(has(users, "gina")) << users;
    auto line_of = [](const std::string& text, const std::string& name) {
        auto at = text.find("\n" + name + " ");
        return at == std::string::npos ? std::string() : text.substr(at + 1, text.find('\n', at + 1) - at - 1);
    };
    EXPECT_TRUE(has(line_of(users, "gina"), "online")) << users;
    EXPECT_TRUE(has(line_of(users, "bob"), "    1    1     0")) << users;
    EXPECT_TRUE(has(line_of(bob->cmd("USER alice"), "alice"), "    1    1     0"));
}

// A challenge posted on server A is listed on B and accepted there; the game starts on both.
TEST_F(Postgres, AChallengePostedOnOneServerIsAcceptedOnAnother) {
    auto [url, a, b] = TwoServers(fresh_db());
    auto alice = text_login(a, "alice", true);
    auto bob = text_login(b, "bob", true);
    EXPECT_TRUE(has(alice->cmd("NEW bob W"), "Challenge 1 added"));
    EXPECT_TRUE(eventually([&] { return has(bob->cmd("N"), "alice"); }));
    EXPECT_TRUE(has(bob->cmd("N 1"), "game 1"));
    EXPECT_TRUE(has(alice->read_until("accepted"), "bob")) << alice->pending();
    alice->drain();
    EXPECT_TRUE(has(alice->cmd("B 1"), "Black (bob) to move"));
    bob->cmd("SAY good luck");  // to the opponent on the other server
    EXPECT_TRUE(has(alice->read_until("good luck"), "bob says (game 1): good luck")) << alice->pending();
    alice->drain();
    // Gone from both lists.
    EXPECT_TRUE(eventually([&] { return has(alice->cmd("N"), "No new games"); }));
    EXPECT_TRUE(has(bob->cmd("N"), "No new games"));
    // A game made on B while its players were on B only: A learns of it when one of them logs
    // in there (the turn notice at login, STAT).
    auto carol = text_login(b, "carol", true);
    auto dave_b = text_login(b, "dave", true);
    EXPECT_TRUE(has(carol->cmd("NEW dave W"), "Challenge 2 added"));
    EXPECT_TRUE(has(dave_b->cmd("N 2"), "game 2"));
    LineClient dave_a(a.ports.at("text"));
    dave_a.read_until("hisha> ");
    EXPECT_TRUE(has(dave_a.cmd("LOGIN dave secret"), "It is your turn in 1 game"));
    EXPECT_TRUE(has(dave_a.cmd("STAT"), "carol"));
    // A challenge removed on A cannot be accepted on B.
    EXPECT_TRUE(has(alice->cmd("NEW * W"), "Challenge 3 added"));
    EXPECT_TRUE(eventually([&] { return has(bob->cmd("N"), "alice"); }));
    alice->cmd("REMOVE 3");
    std::string late = bob->cmd("N 3");
    EXPECT_TRUE(has(late, "no longer open") || has(late, "no challenge number 3")) << late;
}

// Two servers accept the same challenge at the same moment: one game is made, the other
// player is told the challenge is gone. Several rounds; the database has one game per challenge.
TEST_F(Postgres, ServersRacingForOneChallengeMakeOneGame) {
    auto [url, a, b] = TwoServers(fresh_db());
    auto alice = text_login(a, "alice", true);
    auto bob = text_login(a, "bob", true);
    auto carol = text_login(b, "carol", true);
    constexpr int ROUNDS = 6;
    int games = 0;
    for (int round = 1; round <= ROUNDS; ++round) {
        std::string n = std::to_string(round);
        EXPECT_TRUE(has(alice->cmd("NEW * W"), "Challenge " + n + " added"));
        EXPECT_TRUE(eventually([&] { return has(carol->cmd("N"), " " + n + "  alice"); })) << carol->cmd("N");
        bob->send_line("N " + n);  // both at once
        carol->send_line("N " + n);
        std::string rb = bob->read_until("hisha> "), rc = carol->read_until("hisha> ");
        bool b_won = has(rb, "You accepted challenge " + n), c_won = has(rc, "You accepted challenge " + n);
        EXPECT_NE(b_won, c_won) << rb << "\n---\n" << rc;
        const std::string& lost = b_won ? rc : rb;
        EXPECT_TRUE(has(lost, "no longer open") || has(lost, "no challenge number")) << lost;
        if (round == 1)
            std::cout << "[ race ] the loser was told: " << lost.substr(0, lost.find('\n')) << "\n";
        games += b_won || c_won;
        // alice hears of the acceptance on her own; on B's win it comes through the database,
        // which under load can take longer than a drain's quiet time, and a late notice would
        // be taken for the reply to the next NEW.
        EXPECT_TRUE(has(alice->read_until("accepted challenge " + n, 15000), "accepted challenge"));
        alice->drain();
    }
    std::string err;
    auto s = store::open_store(url, err);
    ASSERT_TRUE(s) << err;
    EXPECT_EQ(int(s->open_games().size()), games);
    EXPECT_EQ(games, ROUNDS);
    EXPECT_TRUE(s->challenges().empty());
}

// The same player, logged in on two servers, sends two different moves for the same turn at the
// same moment: exactly one is played; the other is refused (the loser's save found a newer
// version, or it already heard of the move) and that server reloads the game. Both servers
// then show the same game, and the database holds each turn once.
TEST_F(Postgres, ServersRacingForOneTurnApplyOneMove) {
    auto [url, a, b] = TwoServers(fresh_db());
    auto alice = text_login(a, "alice", true);
    auto bob_a = text_login(a, "bob", true);
    auto bob_b = text_login(b, "bob", false);
    EXPECT_TRUE(has(alice->cmd("NEW bob P-7f"), "Challenge 1 added"));  // alice Black, 7g7f forced
    EXPECT_TRUE(has(bob_a->cmd("N 1"), "game 1"));
    EXPECT_TRUE(has(alice->read_until("accepted challenge 1"), "bob"));
    alice->drain();
    EXPECT_TRUE(has(alice->cmd("B 1"), "White (bob) to move"));  // alice's current game
    EXPECT_TRUE(bob_b->drain().empty());  // bob's other connection hears nothing of his own acceptance
    EXPECT_TRUE(has(bob_b->cmd("B 1"), "White (bob) to move"));
    // bob's replies alternate between two moves per turn; alice answers on A.
    const char* bob_moves[][2] = {{"P-3d", "P-8d"}, {"P-4d", "P-9d"}, {"P-5d", "P-1d"}, {"P-6d", "P-2d"}};
    const char* alice_moves[] = {"P-2f", "P-1f", "P-9f", "P-8f"};
    int conflicts = 0, plies = 1;
    for (int t = 0; t < 4; ++t) {
        // Both connections show their prompt, then confirm at once.
        EXPECT_TRUE(eventually([&] { return has(bob_b->cmd("B 1"), "White (bob) to move"); }));
        ASSERT_TRUE(has(bob_a->cmd(std::string("PLAY ") + bob_moves[t][0], "> "), "<p,o,n,y>")) << "A " << t;
        ASSERT_TRUE(has(bob_b->cmd(std::string("PLAY ") + bob_moves[t][1], "> "), "<p,o,n,y>")) << "B " << t;
        bob_a->send_line("y");
        bob_b->send_line("y");
        std::string ra = bob_a->read_until("hisha> "), rb = bob_b->read_until("hisha> ");
        bool a_won = has(ra, "you played"), b_won = has(rb, "you played");
        EXPECT_NE(a_won, b_won) << ra << "\n---\n" << rb;
        const std::string& lost = a_won ? rb : ra;
        EXPECT_TRUE(has(lost, "changed on another server") || has(lost, "not your turn") || has(lost, "is over"))
            << lost;
        if (has(lost, "changed on another server") && conflicts++ == 0)
            std::cout << "[ race ] the loser was told: " << lost.substr(0, lost.find('\n')) << "\n";
        ++plies;
        // Both servers agree on the game; alice plays on.
        std::string want = std::to_string(plies) + " moves";
        EXPECT_TRUE(eventually([&] { return has(bob_b->cmd("B 1"), want); })) << bob_b->cmd("B 1");
        EXPECT_TRUE(eventually([&] { return has(bob_a->cmd("B 1"), want); }));
        alice->drain();
        EXPECT_TRUE(has(play(*alice, alice_moves[t]), "you played")) << alice->pending();
        ++plies;
        bob_a->drain();
        bob_b->drain();
    }
    std::cout << "[ race ] " << conflicts << " of 4 turns were decided by the version check\n";
    std::string err;
    auto s = store::open_store(url, err);
    ASSERT_TRUE(s) << err;
    auto g = s->load_game(1);
    ASSERT_TRUE(g);
    EXPECT_EQ(int(g->moves.size()), plies);
    EXPECT_EQ(g->moves[1].ply, 1);
}

// Players connected to two servers: what they have seen is written through B, while A still
// holds the game as it was (B does not announce it: nobody's view changes). A move and an UNDO
// through A are judged on the game as stored, not refused as "changed on another server":
// only who has seen what changed there, not the moves.
TEST_F(Postgres, WhatIsSeenThroughOneServerCountsForAMoveOrAnUndoThroughTheOther) {
    auto [url, a, b] = TwoServers(fresh_db());
    auto alice = text_login(a, "alice", true);
    auto bob_b = text_login(b, "bob", true);
    EXPECT_TRUE(has(alice->cmd("NEW bob P-7f"), "Challenge 1 added"));  // alice Black, 7g7f forced
    EXPECT_TRUE(eventually([&] { return has(bob_b->cmd("N"), "alice"); }));
    EXPECT_TRUE(has(bob_b->cmd("N 1"), "game 1"));
    EXPECT_TRUE(has(alice->read_until("accepted"), "bob")) << alice->pending();
    EXPECT_TRUE(has(play(*bob_b, "P-3d"), "you played")) << bob_b->pending();
    EXPECT_TRUE(has(alice->read_until("P-3d."), "bob played")) << alice->pending();
    alice->drain();
    EXPECT_TRUE(has(alice->cmd("B 1"), "Black (alice) to move"));
    EXPECT_TRUE(has(play(*alice, "P-2f"), "you played")) << alice->pending();  // written by A
    std::string err;
    auto s = store::open_store(url, err);
    ASSERT_TRUE(s) << err;
    auto seen = [&](int side, int plies) {
        return eventually([&] {
            auto g = s->load_game(1);
            return g && g->seen[side] == plies;
        });
    };
    // bob sees alice's move on B.
    EXPECT_TRUE(eventually([&] { return has(bob_b->cmd("B 1"), "White (bob) to move"); }));
    EXPECT_TRUE(seen(1, 3));
    // His move through the web API of A.
    std::string login = http(a.ports.at("http"), "POST", "/api/login", R"({"name":"bob","password":"secret"})");
    auto at = login.find("\"token\":\"");
    ASSERT_NE(at, std::string::npos) << login;
    std::string bob_token = login.substr(at + 9, 64);
    std::string moved = http(a.ports.at("http"), "POST", "/api/games/1/move", R"({"move":"P-4d"})", bob_token);
    EXPECT_TRUE(has(moved, "200 OK")) << moved;
    EXPECT_FALSE(has(moved, "another server")) << moved;
    EXPECT_TRUE(has(alice->read_until("P-4d."), "bob played")) << alice->pending();
    // alice sees it through B; bob may not take it back through A any more.
    auto alice_b = text_login(b, "alice", false);
    EXPECT_TRUE(eventually([&] { return has(alice_b->cmd("B 1"), "Black (alice) to move"); }));
    EXPECT_TRUE(seen(0, 4));
    std::string undo = http(a.ports.at("http"), "POST", "/api/games/1/undo", "{}", bob_token);
    EXPECT_TRUE(has(undo, "400")) << undo;
    EXPECT_TRUE(has(undo, "already seen")) << undo;
    auto g = s->load_game(1);
    ASSERT_TRUE(g);
    ASSERT_EQ(g->moves.size(), 4u);
    EXPECT_EQ(g->moves[3].text, "4c4d");
}

// Two servers with the same bot: it runs on one of them (the first to claim it), plays the
// games made through the other (a challenge accepted there, a game made through the web API),
// and when its server dies the other takes it over and plays on.
TEST_F(Postgres, ABotRunsOnOneServerAndTheOtherTakesItOverWhenItDies) {
    std::string url = fresh_db();
    ServerProcess a(url, open_csa({"--bots", "hisha-bot=0"}));
    ServerProcess b(url, open_csa({"--bots", "hisha-bot=0"}));
    EXPECT_TRUE(has(a.log_text(), "\"bot_started\"")) << a.log_text();
    EXPECT_FALSE(has(b.log_text(), "\"bot_started\"")) << b.log_text();
    auto alice = text_login(b, "alice", true);
    EXPECT_TRUE(has(alice->cmd("WHO hisha-bot"), "hisha-bot"));  // online, through A
    // A challenge naming the bot, posted on B: the bot (on A) takes it and moves first.
    EXPECT_TRUE(has(alice->cmd("NEW hisha-bot W"), "Challenge 1 added"));
    EXPECT_TRUE(has(alice->read_until("hisha-bot played", 20000), "Game 1")) << alice->pending();
    alice->read_until("\n");
    // A game with the bot made through B's web API, the bot to move: it plays.
    std::string login = http(b.ports.at("http"), "POST", "/api/login", R"({"name":"alice","password":"secret"})");
    auto at = login.find("\"token\":\"");
    ASSERT_NE(at, std::string::npos) << login;
    std::string token = login.substr(at + 9, 64);
    std::string made = http(b.ports.at("http"), "POST", "/api/games",
                            R"({"opponent":"hisha-bot","color":"white","time_control":"corr-3"})", token);
    EXPECT_TRUE(has(made, "\"id\":2")) << made;
    EXPECT_TRUE(has(alice->read_until("hisha-bot played", 20000), "Game 2")) << alice->pending();
    alice->read_until("\n");
    // A dies; B takes the bot over, and it answers alice's move in game 1.
    a.stop(SIGKILL);
    EXPECT_TRUE(eventually([&] { return has(b.log_text(), "\"bot_started\""); }, 10000)) << b.log_text();
    alice->drain();
    EXPECT_TRUE(has(alice->cmd("B 1"), "White (alice) to move"));
    EXPECT_TRUE(has(play(*alice, "P-3d"), "you played")) << alice->pending();
    EXPECT_TRUE(has(alice->read_until("hisha-bot played", 20000), "Game 1")) << alice->pending();
    std::string err;
    auto s = store::open_store(url, err);
    ASSERT_TRUE(s) << err;
    auto g = s->load_game(1);
    ASSERT_TRUE(g);
    EXPECT_EQ(g->moves.size(), 3u);
}

// Two CSA clients log in with the same game name, one on each server: they are paired, agree,
// and play; the moves cross between the servers.
TEST_F(Postgres, CsaPlayersOnTwoServersArePaired) {
    auto [url, a, b] = TwoServers(fresh_db());
    LineClient alice(a.ports.at("csa")), bob(b.ports.at("csa"));
    alice.send_line("LOGIN alice cross-600-10-B,secret", "\n");
    alice.read_until("LOGIN:alice OK\n");
    bob.send_line("LOGIN bob cross-600-10-W,secret", "\n");
    bob.read_until("LOGIN:bob OK\n");
    std::string sa = alice.read_until("END Game_Summary\n"), sb = bob.read_until("END Game_Summary\n");
    EXPECT_TRUE(has(sa, "Name+:alice") && has(sa, "Name-:bob")) << sa;
    EXPECT_TRUE(has(sb, "Your_Turn:-")) << sb;
    bob.send_line("AGREE", "\n");  // White first: the start comes from Black's server
    alice.send_line("AGREE", "\n");
    alice.read_until("START:");
    bob.read_until("START:");
    csa_plies(alice, bob, {"+7776FU", "-3334FU"});
    alice.send_line("%TORYO", "\n");
    EXPECT_TRUE(has(bob.read_until("#WIN\n"), "#RESIGN"));
    alice.read_until("#LOSE\n");

    // Again, both agreeing at once, Black on B this time.
    alice.send_line("LOGOUT", "\n");
    bob.send_line("LOGOUT", "\n");
    LineClient c(b.ports.at("csa")), d(a.ports.at("csa"));
    start_csa_game(c, "carol", d, "dave", "again-60-0");
    c.send_line("+2726FU", "\n");
    d.read_until("+2726FU,T");
}

// GAMES (text), %%LIST (CSA x1) and /api/games on one server list the games in play on the
// other too, with their moves so far; a game that ends there drops off.
TEST_F(Postgres, TheGamesInPlayOnEveryServerAreListedOnEach) {
    auto [url, a, b] = TwoServers(fresh_db());
    LineClient carol(a.ports.at("csa")), dave(a.ports.at("csa"));
    start_csa_game(carol, "carol", dave, "dave", "list-600-0");
    csa_plies(carol, dave, {"+7776FU", "-3334FU"});
    auto erin = text_login(b, "erin", true);
    std::string games = erin->cmd("GAMES");
    EXPECT_TRUE(has(games, "carol") && has(games, "dave")) << games;
    EXPECT_TRUE(has(games, "2      Black")) << games;  // two moves, Black to move
    LineClient frank(b.ports.at("csa"));
    frank.send_line("LOGIN frank secret x1", "\n");
    frank.read_until("##[LOGIN] +OK x1\n");
    frank.send_line("%%LIST", "\n");
    std::string list = frank.read_until("##[LIST] +OK\n");
    EXPECT_TRUE(has(list, "list-600-0")) << list;
    std::string api = http(b.ports.at("http"), "GET", "/api/games");
    EXPECT_TRUE(has(api, "\"carol\"") && has(api, "\"dave\"")) << api;

    carol.send_line("%TORYO", "\n");
    carol.read_until("#LOSE\n");
    EXPECT_TRUE(eventually([&] { return has(erin->cmd("GAMES"), "No active games."); }));
}

// With a reconnect grace, a CSA player whose connection to server A drops may come back through
// server B: B offers the game again with the moves so far, play goes on, and A does not count
// them as gone when the grace ends.
TEST_F(Postgres, ACsaPlayerWhoDroppedOutOfAComesBackThroughB) {
    std::string url = fresh_db();
    ServerProcess a(url, open_csa({"--csa-reconnect-grace", "2"}));
    ServerProcess b(url, open_csa({"--csa-reconnect-grace", "2"}));
    auto alice = std::make_unique<LineClient>(a.ports.at("csa"));
    LineClient bob(b.ports.at("csa"));
    alice->send_line("LOGIN alice back-600-0-B,secret", "\n");
    alice->read_until("LOGIN:alice OK\n");
    bob.send_line("LOGIN bob back-600-0-W,secret", "\n");
    bob.read_until("LOGIN:bob OK\n");
    std::string summary = alice->read_until("END Game_Summary\n");
    bob.read_until("END Game_Summary\n");
    auto at = summary.find("Game_ID:");
    ASSERT_NE(at, std::string::npos);
    std::string game_id = summary.substr(at + 8, summary.find('\n', at) - at - 8);
    alice->send_line("AGREE", "\n");
    bob.send_line("AGREE", "\n");
    alice->read_until("START:");
    bob.read_until("START:");
    alice->send_line("+7776FU", "\n");
    bob.read_until("+7776FU,T0\n");
    alice.reset();  // the connection to A drops
    bob.send_line("-3334FU", "\n");
    bob.read_until("-3334FU,T0\n");

    LineClient back(b.ports.at("csa"));  // back through B
    back.send_line("LOGIN alice back-600-0-B,secret", "\n");
    back.read_until("LOGIN:alice OK\n");
    std::string again = back.read_until("END Game_Summary\n");
    EXPECT_TRUE(has(again, "Game_ID:" + game_id + "\n")) << again;
    EXPECT_TRUE(has(again, "+\n+7776FU,T0\n-3334FU,T0\nEND Position\n")) << again;
    back.send_line("AGREE", "\n");
    EXPECT_EQ(back.read_until("\n"), "START:" + game_id + "\n");
    back.send_line("+2726FU", "\n");
    bob.read_until("+2726FU,T0\n");
    // The grace (2 s) runs out on A: alice is back, nobody forfeits.
    std::this_thread::sleep_for(std::chrono::milliseconds(3000));
    bob.send_line("-8384FU", "\n");
    EXPECT_TRUE(has(back.read_until("-8384FU,T"), "-8384FU")) << back.pending();
    EXPECT_FALSE(has(bob.drain(), "#"));  // no end message
}

// kill -9 of a server on PostgreSQL while many games are in play: every move a client saw
// echoed (acknowledged) is in the database afterwards, in order (as the SQLite test does).
TEST_F(Postgres, KillNineLosesNoAcknowledgedMove) {
    std::string url = fresh_db();
    ServerProcess srv(url, open_csa());
    constexpr int GAMES = 12;
    play_then_kill_nine(srv, GAMES);

    std::string err;
    auto s = store::open_store(url, err);
    ASSERT_TRUE(s) << err;
    for (int id = 1; id <= GAMES; ++id) {
        auto g = s->load_game(id);
        ASSERT_TRUE(g) << "game " << id;
        ASSERT_GE(g->moves.size(), 10u) << "game " << id;
        ASSERT_LE(g->moves.size(), 11u);
        for (int ply = 0; ply < 10; ++ply)
            EXPECT_EQ(g->moves[std::size_t(ply)].text, usi_of(KILL_NINE_LINE[ply])) << "game " << id << " ply " << ply;
        EXPECT_EQ(g->status, GameStatus::Active);
    }
    // The restarted server serves them (and resumes their clocks).
    srv.start();
    LineClient t(srv.ports.at("text"));
    t.read_until("hisha> ");
    t.cmd("LOGIN b0 secret");
    EXPECT_TRUE(has(t.cmd("B 1"), "b0 (Black) vs w0 (White)"));
}
