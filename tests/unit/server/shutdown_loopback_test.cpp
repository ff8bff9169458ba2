// A graceful stop over 127.0.0.1: SIGTERM in the middle of a CSA game (group commit on, the
// default) ends hisha-server with status 0 after telling its clients, and every move a player
// saw acknowledged (echoed) is in the database afterwards; the game goes on after a restart.
// A WebSocket client is told too, and its socket closed as "going away".
#include <gtest/gtest.h>

#include <sys/wait.h>

#include "http_client.h"
#include "server/store/store.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha;
using namespace hisha::server::test;

namespace {

void csa(LineClient& c, const std::string& line) { c.send_line(line, "\n"); }

}  // namespace

TEST(Shutdown, SigtermMidGameExitsZeroTellsTheClientsAndKeepsEveryAcknowledgedMove) {
    std::string db = temp_db("sigterm");
    ServerProcess srv(db, open_csa());
    LineClient black(srv.ports.at("csa")), white(srv.ports.at("csa"));
    csa(black, "LOGIN alice stop-600-0-B,secret");
    black.read_until("LOGIN:alice OK\n");
    csa(white, "LOGIN bob stop-600-0-W,secret");
    white.read_until("LOGIN:bob OK\n");
    black.read_until("END Game_Summary\n");
    white.read_until("END Game_Summary\n");
    csa(black, "AGREE");
    csa(white, "AGREE");
    black.read_until("START:");
    white.read_until("START:");
    black.read_until("\n");
    white.read_until("\n");

    const std::vector<std::string> moves = {"+7776FU", "-3334FU", "+2726FU", "-8384FU", "+2625FU",
                                            "-8485FU", "+6978KI", "-4132KI", "+2524FU"};
    const std::vector<std::string> usi = {"7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d"};
    for (std::size_t i = 0; i + 1 < moves.size(); ++i) {
        LineClient& mover = i % 2 == 0 ? black : white;
        LineClient& other = i % 2 == 0 ? white : black;
        csa(mover, moves[i]);
        EXPECT_TRUE(has(mover.read_until("\n"), moves[i] + ",T"));
        other.read_until("\n");
    }
    // The last move and the signal together: it may be acknowledged or not, but if it is, it
    // must be stored.
    csa(black, moves.back());
    int status = srv.stop(SIGTERM);
    ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
    EXPECT_EQ(WEXITSTATUS(status), 0);
    std::string rest = black.read_until("Server shutting down.", 5000);
    EXPECT_TRUE(black.closed_by_peer());
    EXPECT_TRUE(has(white.read_until("Server shutting down.", 5000), "Server shutting down."));
    std::size_t acknowledged = has(rest, moves.back() + ",T") ? moves.size() : moves.size() - 1;

    auto row = stored_game(db, 1);
    ASSERT_TRUE(row);
    EXPECT_EQ(row->status, server::GameStatus::Active);
    ASSERT_GE(row->moves.size(), acknowledged) << "an acknowledged move was lost";
    ASSERT_LE(row->moves.size(), moves.size());
    for (std::size_t i = 0; i < row->moves.size(); ++i)
        EXPECT_EQ(row->moves[i].text, usi[i]) << "ply " << i;

    // Started again, the game is there with those moves (the text protocol shows it).
    srv.start();
    std::string board = board_seen_by(srv, "alice");
    EXPECT_TRUE(has(board, "alice (Black) vs bob (White)")) << board;
}

// SIGTERM: a WebSocket client is told {"type":"shutdown"} and the socket closes with 1001
// (going away), not 4401 (its session is still good after the restart); a text client reads
// "Server shutting down.".
TEST(Shutdown, SigtermTellsWebSocketAndTextClientsBeforeClosing) {
    ServerProcess srv(temp_db("ws_sigterm"), {"--bots", ""});
    int port = srv.ports.at("http");
    Http h(port);
    std::string token = h.post("/api/register", {{"name", "alice"}, {"password", "secret"}}).value("token", "");
    Ws ws(port, token);
    LineClient t(srv.ports.at("text"));
    t.read_until("hisha> ");
    int status = srv.stop(SIGTERM);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    json told = ws.read_type("shutdown");
    EXPECT_EQ(told.value("message", ""), "Server shutting down.") << told.dump();
    EXPECT_THROW(ws.read(), std::runtime_error);
    EXPECT_EQ(ws.close_code(), 1001);
    EXPECT_TRUE(has(t.read_until("Server shutting down.", 5000), "Server shutting down."));

    srv.start();  // the session goes on
    Ws again(srv.ports.at("http"), token);
}
