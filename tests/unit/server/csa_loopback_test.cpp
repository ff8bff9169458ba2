// The CSA server protocol with scripted clients over 127.0.0.1: login with a Floodgate game
// name, Game_Summary, AGREE, START, moves with times, %TORYO, %KACHI, keep-alive, time-up
// by the server's own timer (within 100 ms of the flag), malformed input, the x1 commands,
// and the same game seen through the text protocol.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "csa_players.h"
#include "http_client.h"
#include "server/store/store.h"
#include "server_process.h"
#include "test_util.h"
#include "text_session.h"

using namespace hisha::server::test;

namespace {

void csa(LineClient& c, const std::string& line) { c.send_line(line, "\n"); }

// A CSA line sent and its answer, read up to `until`.
std::string csa_answer(LineClient& c, const std::string& line, const std::string& until = "\n") {
    csa(c, line);
    return c.read_until(until);
}

using Pair = CsaPair;

// start_csa_game, and the summaries as the protocol has them.
Pair start_game(ServerProcess& srv, const std::string& game_name) {
    Pair p = start_csa_game(srv, game_name);
    EXPECT_TRUE(has(p.black_summary, "Your_Turn:+")) << p.black_summary;
    EXPECT_TRUE(has(p.white_summary, "Your_Turn:-")) << p.white_summary;
    EXPECT_TRUE(has(p.black_summary, "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY"));
    EXPECT_TRUE(has(p.black_summary, "Name+:alice"));
    return p;
}

}  // namespace

TEST(CsaLoopback, LoginAgreePlayAndResign) {
    ServerProcess srv(temp_db("csa_play"), open_csa());
    Pair p = start_game(srv, "floodgate-600-10F");
    EXPECT_TRUE(has(p.game_id, "+floodgate-600-10F+alice+bob+"));
    EXPECT_EQ(csa_answer(*p.black, "+7776FU,'* 30 -3334FU"), "+7776FU,T0\n");
    EXPECT_EQ(p.white->read_until("\n"), "+7776FU,T0\n");
    EXPECT_EQ(csa_answer(*p.white, ""), "\n");  // keep-alive
    EXPECT_EQ(csa_answer(*p.white, "-3334FU"), "-3334FU,T0\n");
    EXPECT_EQ(p.black->read_until("\n"), "-3334FU,T0\n");
    csa(*p.white, "%TORYO");
    EXPECT_TRUE(has(p.black->read_until("#WIN\n"), "%TORYO\n#RESIGN\n"));
    EXPECT_TRUE(has(p.white->read_until("#LOSE\n"), "%TORYO\n#RESIGN\n"));
    // The game is in the database: the text protocol shows it.
    std::string board = board_seen_by(srv, "alice");
    EXPECT_TRUE(has(board, "alice (Black) vs bob (White), 600-10F, 3 moves")) << board;
    EXPECT_TRUE(has(board, "White wins") == false);
    EXPECT_TRUE(has(board, "Black wins by resignation"));
    EXPECT_TRUE(has(csa_answer(*p.black, "LOGOUT"), "LOGOUT:completed"));
}

// Without --csa-auto-register an unknown name is refused like a wrong password and no account
// is made; a player registered elsewhere (here the text protocol) logs in. With it, as on
// Floodgate, the name is created by its first login.
TEST(CsaLoopback, UnknownNamesAreRefusedUnlessRegistrationIsOpen) {
    {
        ServerProcess srv(temp_db("csa_closed"));
        LineClient c(srv.ports.at("csa"));
        csa(c, "LOGIN newbie secret x1");
        EXPECT_EQ(c.read_until("\n"), "LOGIN:incorrect\n");
        LineClient t(srv.ports.at("text"));
        t.read_until("hisha> ");
        EXPECT_TRUE(has(t.cmd("LOGIN newbie secret"), "incorrect name or password")) << "no account was made";
        EXPECT_TRUE(has(t.cmd("REGISTER newbie secret"), "Account newbie created."));
        csa(c, "LOGIN newbie secret x1");
        EXPECT_TRUE(has(c.read_until("+OK x1\n"), "LOGIN:newbie OK"));
    }
    ServerProcess open(temp_db("csa_open"), open_csa());
    LineClient d(open.ports.at("csa"));
    EXPECT_TRUE(has(csa_answer(d, "LOGIN fresh secret x1", "+OK x1\n"), "LOGIN:fresh OK"));
}

TEST(CsaLoopback, IllegalMoveAndBadDeclarationLose) {
    ServerProcess srv(temp_db("csa_illegal"), open_csa());
    {
        Pair p = start_game(srv, "g-300-0");
        csa(*p.black, "%KACHI");  // nowhere near the conditions
        EXPECT_TRUE(has(p.black->read_until("#LOSE\n"), "%KACHI\n#ILLEGAL_MOVE\n"));
        EXPECT_TRUE(has(p.white->read_until("#WIN\n"), "#ILLEGAL_MOVE\n"));
    }
    {
        Pair p = start_game(srv, "g-300-0");
        csa(*p.black, "+7775FU");
        EXPECT_TRUE(has(p.black->read_until("#LOSE\n"), "#ILLEGAL_MOVE\n"));
        EXPECT_TRUE(has(p.white->read_until("#WIN\n"), "#ILLEGAL_MOVE\n"));
    }
}

TEST(CsaLoopback, TimeUpIsDetectedByTheServerWithin100ms) {
    std::string db = temp_db("csa_timeup");
    ServerProcess srv(db, open_csa());
    Pair p = start_game(srv, "blitz-2-0");
    std::string end = p.black->read_until("#LOSE\n", 10000);
    EXPECT_TRUE(has(end, "#TIME_UP\n")) << end;
    EXPECT_TRUE(has(p.white->read_until("#WIN\n"), "#TIME_UP"));
    // The server's own record: the turn began at START and the game was judged (and written)
    // when its timer fired; the flag fell 2000 ms into the turn. Measured on the server's
    // clock, so a slow test machine cannot blur it.
    srv.stop();
    auto row = stored_game(db, 1);
    ASSERT_TRUE(row);
    EXPECT_EQ(row->reason, "time_up");
    EXPECT_EQ(row->winner, "white");
    auto judged_after = row->updated - row->turn_started;
    RecordProperty("judged_after_ms", std::to_string(judged_after));
    std::cout << "time-up judged " << judged_after << " ms into the turn (flag at 2000 ms)\n";
    EXPECT_GE(judged_after, 2000);
    EXPECT_LE(judged_after, 2100) << "the flag fell at 2000 ms, the server judged it at " << judged_after << " ms";
}

TEST(CsaLoopback, MalformedInputDisconnectAndX1Commands) {
    ServerProcess srv(temp_db("csa_x1"), open_csa());
    LineClient c(srv.ports.at("csa"));
    EXPECT_TRUE(has(csa_answer(c, "HELLO"), "##[ERROR]"));
    EXPECT_TRUE(has(csa_answer(c, "LOGIN bad name here too"), "LOGIN:incorrect"));
    EXPECT_TRUE(has(csa_answer(c, "LOGIN carol secret x1", "+OK x1\n"), "LOGIN:carol OK"));
    EXPECT_TRUE(has(csa_answer(c, "%%WHO", "##[WHO] +OK\n"), "##[WHO] carol"));
    EXPECT_TRUE(has(csa_answer(c, "%%CHAT hello all", "##[CHAT] +OK\n"), "##[CHAT][carol] hello all"));
    EXPECT_TRUE(has(csa_answer(c, "%%NOPE"), "##[ERROR]"));
    EXPECT_TRUE(has(csa_answer(c, "%%GAME nonsense *"), "##[ERROR]"));

    // carol waits in x1 mode; dave joins with a Floodgate login; dave then drops out.
    EXPECT_TRUE(has(csa_answer(c, "%%GAME rapid-60-5 +"), "##[GAME] +OK"));
    auto d = std::make_unique<LineClient>(srv.ports.at("csa"));
    csa(*d, "LOGIN dave rapid-60-5,secret");
    d->read_until("END Game_Summary\n");
    std::string s = c.read_until("END Game_Summary\n");
    EXPECT_TRUE(has(s, "Your_Turn:+"));
    EXPECT_TRUE(has(s, "Byoyomi:5"));
    csa(c, "AGREE");
    csa(*d, "AGREE");
    c.read_until("START:");
    c.read_until("\n");
    EXPECT_TRUE(has(csa_answer(c, "+77"), "##[ERROR] malformed move"));  // malformed: an error, the game goes on
    EXPECT_TRUE(has(csa_answer(c, "%%LIST", "##[LIST] +OK\n"), "+rapid-60-5+carol+dave+"));
    EXPECT_EQ(csa_answer(c, "+2726FU"), "+2726FU,T0\n");
    EXPECT_TRUE(has(csa_answer(c, "%%SHOW 1", "##[SHOW] +OK\n"), "+2726FU,T0"));
    // dave, also on the text protocol, says something in the game: carol (x1) hears it.
    auto t = text_login(srv, "dave", false);
    t->cmd("B 1");
    EXPECT_TRUE(has(t->cmd("SAY good luck"), "Told carol"));
    EXPECT_EQ(c.read_until("\n"), "##[CHAT][dave] good luck\n");
    d.reset();  // disconnect: the survivor wins
    std::string end = c.read_until("#WIN\n");
    EXPECT_TRUE(has(end, "#RESIGN\n#WIN\n")) << end;
    EXPECT_FALSE(has(end, "%TORYO")) << "dave sent no resignation: " << end;
    // The text protocol, where dave is still logged in, says how the game ended.
    std::string notice = t->read_until("disconnected.");
    EXPECT_TRUE(has(notice, "Game 1 is over: Black wins: White disconnected.")) << notice;
}

// With --csa-reconnect-grace a player whose connection drops may log in again and play on: the
// Game_Summary lists the moves so far, AGREE is answered with START, and a move the opponent
// made meanwhile follows. Without coming back, the game is lost when the grace ends.
TEST(CsaLoopback, ReconnectWithinTheGracePeriodResumesTheGame) {
    ServerProcess srv(temp_db("csa_reconnect"), open_csa({"--csa-reconnect-grace", "2"}));
    Pair p = start_game(srv, "back-600-0");
    csa(*p.black, "+7776FU");
    p.white->read_until("+7776FU,T0\n");
    p.black.reset();                                             // the connection drops
    EXPECT_EQ(csa_answer(*p.white, "-3334FU"), "-3334FU,T0\n");  // the game goes on meanwhile
    auto back = std::make_unique<LineClient>(srv.ports.at("csa"));
    EXPECT_TRUE(has(csa_answer(*back, "LOGIN alice back-600-0,secret"), "LOGIN:alice OK"));
    std::string summary = back->read_until("END Game_Summary\n");
    EXPECT_TRUE(has(summary, "Game_ID:" + p.game_id + "\n")) << summary;
    EXPECT_TRUE(has(summary, "Your_Turn:+\n"));
    EXPECT_TRUE(has(summary, "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n"));            // the start position...
    EXPECT_TRUE(has(summary, "+\n+7776FU,T0\n-3334FU,T0\nEND Position\n"));  // ...and the moves
    EXPECT_EQ(csa_answer(*back, "AGREE"), "START:" + p.game_id + "\n");
    EXPECT_EQ(csa_answer(*back, "+2726FU"), "+2726FU,T0\n");
    EXPECT_EQ(p.white->read_until("\n"), "+2726FU,T0\n");

    // Gone for good: the grace (2 s) runs out and the game is lost.
    csa(*p.white, "-8384FU");
    back->read_until("-8384FU,T0\n");
    auto left = std::chrono::steady_clock::now();
    back.reset();
    std::string end = p.white->read_until("#WIN\n", 8000);
    EXPECT_TRUE(has(end, "#RESIGN\n#WIN\n")) << end;
    EXPECT_FALSE(has(end, "%TORYO")) << "alice sent no resignation: " << end;
    EXPECT_GE(std::chrono::steady_clock::now() - left, std::chrono::milliseconds(1500));

    // Recorded as a lost connection, not a resignation: in the text protocol, in the records,
    // and so still after a restart.
    for (int run = 0; run < 2; ++run) {
        SCOPED_TRACE(run ? "after a restart" : "at once");
        std::string board = text_login(srv, "bob", false)->cmd("B 1");
        EXPECT_TRUE(has(board, "Game over: White wins: Black disconnected.")) << board;
        Http h(srv.ports.at("http"));
        auto [cs, csa_record] = h.request(http::verb::get, "/api/games/1/record?format=csa");
        EXPECT_EQ(cs, 200);
        EXPECT_TRUE(has(csa_record, "%CHUDAN\n'+ disconnected\n")) << csa_record;
        auto [ks, kifu] = h.request(http::verb::get, "/api/games/1/record?format=kifu");
        EXPECT_EQ(ks, 200);
        EXPECT_TRUE(has(kifu, "不戦敗")) << kifu;
        EXPECT_TRUE(has(kifu, "まで4手で接続切れにより後手の勝ち")) << kifu;
        EXPECT_FALSE(has(kifu, "投了")) << kifu;
        auto game = h.get("/api/games/1");
        EXPECT_EQ(game.value("reason", ""), "disconnect") << game.dump();
        srv.restart();
    }
}
