// A graceful stop over 127.0.0.1: SIGTERM in the middle of a CSA game (group commit on, the
// default) ends hisha-server with status 0 after telling its clients, and every move a player
// saw acknowledged (echoed) is in the database afterwards; the game goes on after a restart.
// A WebSocket client is told too, and its socket closed as "going away".
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>

#include <cerrno>

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

namespace {

/// Whether a TCP connection to 127.0.0.1:`port` is refused (nothing listens there).
bool connection_refused(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool refused = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 && errno == ECONNREFUSED;
    close(fd);
    return refused;
}

/// The state letter of process `pid` in /proc (R, S, T stopped, Z exited but not waited for).
char process_state(pid_t pid) {
    std::string stat;
    int fd = open(("/proc/" + std::to_string(pid) + "/stat").c_str(), O_RDONLY);
    char buf[512];
    for (ssize_t n; fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0;)
        stat.append(buf, std::size_t(n));
    if (fd >= 0)
        close(fd);
    std::size_t paren = stat.rfind(')');
    return paren == std::string::npos || paren + 2 >= stat.size() ? '?' : stat[paren + 2];
}

}  // namespace

// SIGTERM stops accepting before the server has finished: once a connected text client has read
// "Server shutting down." (sent after the listening sockets are closed, in the same step), the
// server is frozen (SIGSTOP) while still finishing, with a CSA game in progress; a new connection
// on each port (text, CSA, HTTP) is then refused, though the process is alive. Resumed, it exits
// 0 and the players are told. The server finishes within ~200 ms of the signal: if this test is
// slower than that to freeze it, the round is played again (at most 3 times).
TEST(Shutdown, SigtermStopsAcceptingOnEveryPortWhileTheServerFinishes) {
    ServerProcess srv(temp_db("sigterm_accept"), open_csa());
    bool caught_alive = false;
    for (int round = 0; round < 3 && !caught_alive; ++round) {
        if (round > 0)
            srv.start();
        LineClient black(srv.ports.at("csa")), white(srv.ports.at("csa"));
        std::string game = "accept" + std::to_string(round) + "-600-0";  // a new game each round
        csa(black, "LOGIN alice " + game + "-B,secret");
        black.read_until("LOGIN:alice OK\n");
        csa(white, "LOGIN bob " + game + "-W,secret");
        white.read_until("LOGIN:bob OK\n");
        black.read_until("END Game_Summary\n");
        white.read_until("END Game_Summary\n");
        csa(black, "AGREE");
        csa(white, "AGREE");
        black.read_until("START:");
        csa(black, "+7776FU");
        black.read_until("+7776FU,T");
        LineClient t(srv.ports.at("text"));
        t.read_until("hisha> ");
        ASSERT_FALSE(connection_refused(srv.ports.at("http")));  // the check sees a listening port

        kill(srv.pid(), SIGTERM);
        t.read_until("Server shutting down.", 5000);  // the acceptors are closed by now
        kill(srv.pid(), SIGSTOP);
        char state = process_state(srv.pid());  // a signal is delivered soon, not at once
        for (int i = 0; i < 500 && state != 'T' && state != 'Z'; ++i) {
            usleep(10000);
            state = process_state(srv.pid());
        }
        caught_alive = state == 'T';
        if (caught_alive) {
            for (const char* port : {"text", "csa", "http"})
                EXPECT_TRUE(connection_refused(srv.ports.at(port))) << port << " still accepts while finishing";
        }
        int status = srv.stop(SIGCONT);  // resumed, it finishes and exits by itself
        ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
        EXPECT_EQ(WEXITSTATUS(status), 0);
        EXPECT_TRUE(has(white.read_until("Server shutting down.", 5000), "Server shutting down."));
        if (!caught_alive) {
            EXPECT_EQ(state, 'Z') << "the server was neither finishing nor exited";
        }
    }
    EXPECT_TRUE(caught_alive) << "the server exited each time before it could be frozen while finishing";
}
