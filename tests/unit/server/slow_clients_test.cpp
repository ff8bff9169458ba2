// Slow and endless input on the text and CSA ports over 127.0.0.1, as the attack of
// bench/server (issue 17) sends it: a line dribbled a byte at a time is closed once it has taken
// --line-timeout, bytes that never make a line (telnet commands) do not keep a connection from
// being idle, and an endless line is not read on and on but closes its connection; the server
// serves others meanwhile.
#include <gtest/gtest.h>

#include <sys/socket.h>

#include <chrono>
#include <string>
#include <thread>

#include "server_process.h"
#include "test_util.h"

using namespace hisha::server::test;

namespace {

// Sends `bytes` one at a time, `gap_ms` apart, until the server closes the connection (true)
// or all are sent and `then_ms` more have passed (false).
bool dribble_until_closed(LineClient& c, const std::string& bytes, int gap_ms, int then_ms) {
    for (char b : bytes) {
        if (c.closed_by_peer(gap_ms))
            return true;
        try {
            c.send_raw(std::string(1, b));
        } catch (const std::exception&) {
            return true;  // reset by the server
        }
    }
    return c.closed_by_peer(then_ms);
}

// Sends up to `total` bytes of one line without its end, as fast as the server reads them: the
// bytes sent before the server stopped the connection.
std::size_t endless_line(int port, std::size_t total) {
    LineClient c(port);
    std::string chunk(16384, 'A');
    std::size_t sent = 0;
    try {
        while (sent < total) {
            c.send_raw(chunk);
            sent += chunk.size();
        }
    } catch (const std::exception&) {}
    return sent;
}

}  // namespace

TEST(SlowClients, ALineDribbledAByteAtATimeIsClosedAtTheLineTimeout) {
    ServerProcess srv(temp_db("slow_line"), {"--line-timeout", "2", "--idle-timeout", "3600", "--bots", ""});
    LineClient text(srv.ports.at("text"));
    text.read_until("hisha> ");
    LineClient csa(srv.ports.at("csa"));
    // A byte every 300 ms, never a newline: before the limit, each byte kept the connection.
    std::thread csa_side([&] { EXPECT_TRUE(dribble_until_closed(csa, "LOGIN victim wrong-wrong-wrong", 300, 3000)); });
    EXPECT_TRUE(dribble_until_closed(text, "LOGIN victim wrong-wrong-wrong", 300, 3000));
    csa_side.join();
    EXPECT_TRUE(has(text.pending(), "Line not finished in 2 s: closing.")) << text.pending();
    EXPECT_TRUE(has(csa.pending(), "Line not finished in 2 s: closing.")) << csa.pending();
    LineClient next(srv.ports.at("text"));  // the server goes on serving
    EXPECT_TRUE(has(next.cmd("WHO"), "hisha> "));
}

TEST(SlowClients, BytesThatMakeNoLineDoNotKeepAConnectionFromBeingIdle) {
    ServerProcess srv(temp_db("slow_idle"), {"--idle-timeout", "2", "--line-timeout", "0", "--bots", ""});
    LineClient text(srv.ports.at("text"));
    text.read_until("hisha> ");
    // Telnet NOPs (IAC NOP) every 300 ms: no line, no command; closed as idle all the same.
    std::string nops;
    for (int i = 0; i < 20; ++i)
        nops += "\xff\xf1";
    EXPECT_TRUE(dribble_until_closed(text, nops, 150, 3000));
    EXPECT_TRUE(has(text.pending(), "Idle too long: closing.")) << text.pending();
}

TEST(SlowClients, ACompleteLineKeepsTheLineTimeoutAway) {
    ServerProcess srv(temp_db("slow_ok"), {"--line-timeout", "1", "--bots", ""});
    LineClient text(srv.ports.at("text"));
    text.read_until("hisha> ");
    // Each line is finished well within the limit: the connection stays past several limits.
    for (int i = 0; i < 6; ++i) {
        text.send_raw("WH");
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        EXPECT_TRUE(has(text.cmd("O"), "hisha> "));
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
    }
    EXPECT_FALSE(text.closed_by_peer(100));
}

TEST(SlowClients, AnEndlessLineClosesItsConnection) {
    ServerProcess srv(temp_db("slow_endless"), {"--bots", ""});
    for (const char* port : {"text", "csa"}) {
        // 64 MiB offered: the server stops reading after 64 KiB past the longest line.
        std::size_t sent = endless_line(srv.ports.at(port), 64u << 20);
        EXPECT_LT(sent, 64u << 20) << port << ": the whole endless line was read";
    }
    LineClient text(srv.ports.at("text"));
    text.read_until("hisha> ");
    // The longest line (4096 bytes) and 64 KiB more, to the last byte the server reads: it says
    // why it closes (more bytes, unread, would reset the connection before the client reads it).
    text.send_raw(std::string(4097 + (64 << 10) + 1, 'B'));
    EXPECT_TRUE(has(text.read_until("closing.", 10000), "Line too long: closing.")) << text.pending();
    EXPECT_TRUE(text.closed_by_peer(5000));
    LineClient next(srv.ports.at("text"));  // the server goes on serving
    EXPECT_TRUE(has(next.cmd("WHO"), "hisha> "));
}
