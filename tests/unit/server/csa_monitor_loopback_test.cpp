// Floodgate's evaluation comments over 127.0.0.1: a CSA engine sends `+7776FU,'* 30 -3334FU`,
// the players get the move without it, a client that asked with %%MONITOR2ON gets it with the
// move (and the record so far when it asks), one that did not or that said %%MONITOR2OFF gets
// nothing; the comment is in the CSA record the server writes (as Floodgate's `'** 30 ...`),
// in the JSON game (with its score and line read), and still after a restart. A comment the
// server cannot keep (control characters, not UTF-8) is dropped and the move still played.
#include <gtest/gtest.h>

#include "csa_players.h"
#include "http_client.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server::test;

namespace {

void csa(LineClient& c, const std::string& line) { c.send_line(line, "\n"); }

using Pair = CsaPair;

Pair start_game(ServerProcess& srv, const std::string& game_name) { return start_csa_game(srv, game_name); }

std::unique_ptr<LineClient> x1_login(ServerProcess& srv, const std::string& name) {
    return csa_x1_login(srv.ports.at("csa"), name);
}

// Everything the client has been sent so far: a round trip (%%VERSION) after which it would
// have been written.
std::string sent_so_far(LineClient& c) {
    csa(c, "%%VERSION");
    return c.read_until("##[VERSION] +OK\n");
}

// Plays a move, and reads its echo from both players.
void move(Pair& p, bool black, const std::string& line, const std::string& echo) {
    csa(black ? *p.black : *p.white, line);
    EXPECT_EQ(p.black->read_until("\n"), echo + "\n") << line;
    EXPECT_EQ(p.white->read_until("\n"), echo + "\n") << line;
}

}  // namespace

TEST(CsaMonitor, CommentsReachMonitorsTheRecordAndTheJsonGame) {
    ServerProcess srv(temp_db("csa_monitor"), open_csa());
    Pair p = start_game(srv, "floodgate-600-10F");
    auto carol = x1_login(srv, "carol");  // monitors
    auto dave = x1_login(srv, "dave");    // does not
    const std::string tag = "##[MONITOR2][" + p.game_id + "] ";

    // A move with a comment before anyone monitors: the players get the move alone.
    move(p, true, "+7776FU,'* 30 -3334FU +2726FU", "+7776FU,T0");

    // %%MONITOR2ON: the record so far, the comment in Floodgate's form, each line tagged.
    csa(*carol, "%%MONITOR2ON " + p.game_id);
    std::string dump = carol->read_until(tag + "+OK\n");
    EXPECT_TRUE(has(dump, tag + "N+alice\n")) << dump;
    EXPECT_TRUE(has(dump, tag + "N-bob\n")) << dump;
    EXPECT_TRUE(has(dump, tag + "+7776FU\n" + tag + "T0\n" + tag + "'** 30 -3334FU +2726FU\n")) << dump;

    // The next moves reach the monitor as they are played, with their comments; a time the
    // client wrote (T2) is not the server's: its own clock counts.
    move(p, false, "-3334FU,T2,'* -45 +2726FU -8384FU", "-3334FU,T0");
    EXPECT_EQ(carol->read_until(tag + "+OK\n"),
              tag + "-3334FU\n" + tag + "T0\n" + tag + "'** -45 +2726FU -8384FU\n" + tag + "+OK\n");
    move(p, true, "+2726FU", "+2726FU,T0");
    EXPECT_EQ(carol->read_until(tag + "+OK\n"), tag + "+2726FU\n" + tag + "T0\n" + tag + "+OK\n");
    std::string dave_got = sent_so_far(*dave);
    EXPECT_FALSE(has(dave_got, "MONITOR2")) << dave_got;
    EXPECT_FALSE(has(dave_got, "'*")) << dave_got;

    // A comment that cannot be kept is dropped (an x1 player is told why); the move is played.
    move(p, false, "-8384FU,'* 10\t+2625FU", "-8384FU,T0");
    carol->read_until(tag + "+OK\n");
    move(p, true, "+2625FU,'* \xff\xfe", "+2625FU,T0");
    std::string plain = carol->read_until(tag + "+OK\n");
    EXPECT_FALSE(has(plain, "'**")) << plain;

    // %%MONITOR2OFF: nothing more; monitoring again sends the record again.
    csa(*carol, "%%MONITOR2OFF " + p.game_id);
    EXPECT_EQ(carol->read_until("\n"), "##[MONITOR2OFF] +OK\n");
    move(p, false, "-8485FU,'* 5", "-8485FU,T0");
    EXPECT_FALSE(has(sent_so_far(*carol), "MONITOR2")) << "no longer monitoring";
    csa(*carol, "%%MONITOR2OFF " + p.game_id);
    EXPECT_TRUE(has(carol->read_until("\n"), "##[ERROR] not monitoring"));
    csa(*carol, "%%MONITOR2ON 999");
    EXPECT_TRUE(has(carol->read_until("\n"), "##[ERROR] no such game: 999"));
    csa(*carol, "%%MONITOR2ON");
    EXPECT_TRUE(has(carol->read_until("\n"), "##[ERROR] no such game"));
    csa(*carol, "%%MONITOR2ON " + p.game_id);
    dump = carol->read_until(tag + "+OK\n");
    EXPECT_TRUE(has(dump, tag + "-8485FU\n" + tag + "T0\n" + tag + "'** 5\n")) << dump;

    // The end reaches the monitor as shogi-server gives it.
    csa(*p.black, "%TORYO");
    p.black->read_until("#LOSE\n");
    p.white->read_until("#WIN\n");
    EXPECT_EQ(carol->read_until(tag + "+OK\n"), tag + "%TORYO\n" + tag + "+OK\n");

    // The CSA record and the JSON game keep the comments, also after a restart.
    std::string number = p.game_id.substr(6, p.game_id.find('+') - 6);
    for (int run = 0; run < 2; ++run) {
        SCOPED_TRACE(run ? "after a restart" : "at once");
        Http h(srv.ports.at("http"));
        auto [status, record] = h.request(http::verb::get, "/api/games/" + number + "/record?format=csa");
        EXPECT_EQ(status, 200);
        EXPECT_TRUE(has(record,
                        "+7776FU\nT0\n'** 30 -3334FU +2726FU\n-3334FU\nT0\n'** -45 +2726FU -8384FU\n+2726FU\nT0\n"
                        "-8384FU\nT0\n+2625FU\nT0\n-8485FU\nT0\n'** 5\n%TORYO"))
            << record;
        auto game = h.get("/api/games/" + number);
        const auto& moves = game["moves"];
        ASSERT_EQ(moves.size(), 7u) << game.dump();
        EXPECT_EQ(moves[0].value("comment", ""), "* 30 -3334FU +2726FU");
        EXPECT_EQ(moves[0]["eval"]["score"], 30);
        EXPECT_EQ(moves[0]["eval"]["pv"], json({"-3334FU", "+2726FU"}));
        EXPECT_EQ(moves[1]["eval"]["score"], -45);
        EXPECT_FALSE(moves[2].contains("comment"));
        EXPECT_FALSE(moves[3].contains("comment")) << "a tab: dropped";
        EXPECT_FALSE(moves[4].contains("comment")) << "not UTF-8: dropped";
        EXPECT_EQ(moves[5]["eval"]["score"], 5);
        EXPECT_EQ(moves[5]["eval"]["pv"], json::array());
        srv.restart();
    }
}

// An x1 player is told why its comment was not kept; a move sent out of turn keeps its
// comment until it is played.
TEST(CsaMonitor, DroppedCommentsAreExplainedAndDeferredMovesKeepTheirs) {
    ServerProcess srv(temp_db("csa_monitor_x1"), open_csa());
    auto alice = x1_login(srv, "alice");
    auto bob = x1_login(srv, "bob");
    csa(*alice, "%%GAME g-600-0 +");
    EXPECT_EQ(alice->read_until("\n"), "##[GAME] +OK\n");
    csa(*bob, "%%GAME g-600-0 -");  // paired at once: the summary may come before the +OK
    if (!has(bob->read_until("##[GAME] +OK\n"), "END Game_Summary\n"))
        bob->read_until("END Game_Summary\n");
    alice->read_until("END Game_Summary\n");
    csa(*alice, "AGREE");
    csa(*bob, "AGREE");
    alice->read_until("START:");
    alice->read_until("\n");
    bob->read_until("START:");
    bob->read_until("\n");

    csa(*bob, "-3334FU,'* -20 +7776FU");  // White's move before Black's: deferred
    csa(*alice, "+7776FU,'* 1\x01");
    EXPECT_EQ(alice->read_until("\n"),
              "##[ERROR] comment not kept: a move's comment may not hold control characters\n");
    EXPECT_EQ(alice->read_until("\n"), "+7776FU,T0\n");
    EXPECT_EQ(alice->read_until("\n"), "-3334FU,T0\n");
    bob->read_until("-3334FU,T0\n");

    Http h(srv.ports.at("http"));
    auto game = h.get("/api/games/1");
    ASSERT_EQ(game["moves"].size(), 2u) << game.dump();
    EXPECT_FALSE(game["moves"][0].contains("comment"));
    EXPECT_EQ(game["moves"][1].value("comment", ""), "* -20 +7776FU");
    EXPECT_EQ(game["moves"][1]["eval"]["pv"], json({"+7776FU"}));
}
