// Hisha's CSA client: the Game_Summary reader (per-side times, units, Max_Moves, handicap and
// resumed positions, malformed summaries), the mirrored clocks, and whole games between two
// `hisha csa` processes driving `hisha usi` engines against hisha-server on 127.0.0.1, with
// the result checked in the server's database. Also the server's side of Max_Moves and the
// shogi-server handicap game names.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/game.h"
#include "core/text.h"
#include "csa_players.h"
#include "notation/usi.h"
#include "protocol/csa_client.h"
#include "server/store/store.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha;
using namespace hisha::server::test;
using protocol::CsaClocks;
using protocol::parse_game_summary;

namespace {

// The lines of `text` (text::lines), as parse_game_summary takes them.
std::vector<std::string> lines_of(const std::string& text) {
    auto lines = hisha::text::lines(text);
    return {lines.begin(), lines.end()};
}

const char* EVEN_POSITION = "BEGIN Position\n"
                            "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"
                            "P2 * -HI *  *  *  *  * -KA * \n"
                            "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"
                            "P4 *  *  *  *  *  *  *  *  * \n"
                            "P5 *  *  *  *  *  *  *  *  * \n"
                            "P6 *  *  *  *  *  *  *  *  * \n"
                            "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n"
                            "P8 * +KA *  *  *  *  * +HI * \n"
                            "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n"
                            "+\n";

std::string summary_text(const std::string& time_blocks, const std::string& position_tail = "END Position\n") {
    return std::string("Protocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\nDeclaration:Jishogi 1.1\n"
                       "Game_ID:wdoor+floodgate-600-10F+a+b+20160614033003\nName+:a\nName-:b\nYour_Turn:-\n"
                       "Rematch_On_Draw:NO\nTo_Move:+\nMax_Moves:256\nSome_Future_Key:whatever\n")
         + time_blocks + EVEN_POSITION + position_tail;
}

// Runs a program with its stdout in a pipe; collect() reads it to the end (bounded).
struct Child {
    pid_t pid = -1;
    int out = -1;
    std::string text;

    explicit Child(const std::vector<std::string>& args) { pid = spawn_with_stdout_pipe(args, out); }
    ~Child() {
        if (pid > 0) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
        }
        if (out >= 0)
            close(out);
    }
    /// Reads until end of output, then reaps; returns the exit status (-1 on timeout).
    int collect(int timeout_ms) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        for (;;) {
            auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                return -1;
            pollfd p{out, POLLIN, 0};
            if (poll(&p, 1, int(left.count())) <= 0)
                continue;
            char buf[4096];
            ssize_t n = read(out, buf, sizeof buf);
            if (n <= 0)
                break;
            text.append(buf, std::size_t(n));
        }
        int status = 0;
        waitpid(pid, &status, 0);
        pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
};

// "game ID COLOR RESULT REASON moves=N" lines of `hisha csa`.
struct GameLine {
    std::string id, color, result, reason;
    int moves = -1;
};

std::vector<GameLine> game_lines(const std::string& out) {
    std::vector<GameLine> v;
    for (auto& l : lines_of(out)) {
        if (!l.starts_with("game "))
            continue;
        std::istringstream in(l.substr(5));
        GameLine g;
        std::string moves;
        in >> g.id >> g.color >> g.result >> g.reason >> moves;
        g.moves = moves.starts_with("moves=") ? std::stoi(moves.substr(6)) : -1;
        v.push_back(g);
    }
    return v;
}

// A TCP relay on 127.0.0.1 between a client and a server that cuts its first connection (both
// sides at once, like a dropped link) once the server has sent `cut_after` move lines through
// it; later connections are relayed to the end. One connection at a time.
class CuttingProxy {
public:
    CuttingProxy(int server_port, int cut_after) : server_port_(server_port), cut_after_(cut_after) {
        listen_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_, 4) != 0)
            throw std::runtime_error("proxy: bind/listen");
        socklen_t len = sizeof a;
        getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
        thread_ = std::thread([this] { run(); });
    }
    ~CuttingProxy() {
        stop_ = true;
        thread_.join();
        close(listen_);
    }
    int port = 0;
    std::atomic<int> connections{0}, cuts{0};

private:
    void run() {
        while (!stop_) {
            pollfd p{listen_, POLLIN, 0};
            if (poll(&p, 1, 100) <= 0)
                continue;
            int client = accept(listen_, nullptr, nullptr);
            if (client < 0)
                continue;
            int server = socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_port = htons(std::uint16_t(server_port_));
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            if (connect(server, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
                close(server);
                close(client);
                continue;
            }
            relay(client, server, ++connections == 1);
            close(server);
            close(client);
        }
    }
    void relay(int client, int server, bool cut_this_one) {
        int moves = 0;
        std::string partial;  // of the server's text, for counting move lines
        while (!stop_) {
            pollfd p[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
            if (poll(p, 2, 100) <= 0)
                continue;
            for (int i = 0; i < 2; ++i) {
                if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                char buf[4096];
                ssize_t n = recv(p[i].fd, buf, sizeof buf, 0);
                if (n <= 0)
                    return;
                int to = i == 0 ? server : client;
                if (::send(to, buf, std::size_t(n), MSG_NOSIGNAL) != n)
                    return;
                if (i == 1 && cut_this_one) {
                    partial.append(buf, std::size_t(n));
                    for (auto nl = partial.find('\n'); nl != std::string::npos; nl = partial.find('\n')) {
                        std::string l = partial.substr(0, nl);
                        partial.erase(0, nl + 1);
                        moves += (l.starts_with("+") || l.starts_with("-")) && has(l, ",T");
                    }
                    if (moves >= cut_after_) {
                        shutdown(client, SHUT_RDWR);
                        shutdown(server, SHUT_RDWR);
                        ++cuts;
                        return;
                    }
                }
            }
        }
    }
    int server_port_, cut_after_;
    int listen_ = -1;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

// The arguments of `hisha csa` playing one game on 127.0.0.1:`port` as `user`, password "secret"
// under the game name `game`, with a `hisha usi` engine (16 MB hash) searching to `depth`.
std::vector<std::string> csa_client_args(int port, const std::string& user, const std::string& game, int depth) {
    return {HISHA_BINARY, "csa",
            "--host",     "127.0.0.1",
            "--port",     std::to_string(port),
            "--user",     user,
            "--password", game + ",secret",
            "--engine",   std::string(HISHA_BINARY) + " usi",
            "--option",   "USI_Hash=16",
            "--depth",    std::to_string(depth),
            "--games",    "1"};
}

std::string file_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::int64_t game_number(const std::string& csa_game_id) {
    // hisha-<id>+<game name>+<black>+<white>+<time>
    return std::stoll(csa_game_id.substr(6, csa_game_id.find('+') - 6));
}

}  // namespace

TEST(CsaSummary, FloodgateSummaryWithSharedTime) {
    auto s = parse_game_summary(lines_of(summary_text(
        "BEGIN Time\nTime_Unit:1sec\nTotal_Time:600\nByoyomi:0\nIncrement:10\nLeast_Time_Per_Move:0\nEND Time\n")));
    ASSERT_TRUE(s) << s.error();
    EXPECT_EQ(s->game_id, "wdoor+floodgate-600-10F+a+b+20160614033003");
    EXPECT_EQ(s->names[core::BLACK], "a");
    EXPECT_EQ(s->names[core::WHITE], "b");
    EXPECT_EQ(s->me, core::WHITE);
    EXPECT_EQ(s->max_moves, 256);
    EXPECT_EQ(s->start_sfen, std::string(core::START_SFEN));
    for (core::Color c : {core::BLACK, core::WHITE}) {
        EXPECT_EQ(s->time[c].unit_ms, 1000);
        EXPECT_EQ(s->time[c].total, 600);
        EXPECT_EQ(s->time[c].increment, 10);
        EXPECT_EQ(s->time[c].byoyomi, 0);
    }
    EXPECT_TRUE(s->played.empty());
}

TEST(CsaSummary, PerSideTimeBlocksUnitsAndResumedMoves) {
    auto s = parse_game_summary(
        lines_of(summary_text("BEGIN Time+\nTime_Unit:1min\nTotal_Time:10\nByoyomi:1\nTime_Roundup:YES\nEND Time+\n"
                              "BEGIN Time-\nTime_Unit:100msec\nTotal_Time:50\nLeast_Time_Per_Move:1\nEND Time-\n",
                              "+7776FU,T2\n-3334FU,T5\nEND Position\n")));
    ASSERT_TRUE(s) << s.error();
    EXPECT_EQ(s->time[core::BLACK].unit_ms, 60000);
    EXPECT_EQ(s->time[core::BLACK].total, 10);
    EXPECT_EQ(s->time[core::BLACK].byoyomi, 1);
    EXPECT_TRUE(s->time[core::BLACK].roundup);
    EXPECT_EQ(s->time[core::WHITE].unit_ms, 100);
    EXPECT_EQ(s->time[core::WHITE].total, 50);
    EXPECT_EQ(s->time[core::WHITE].least, 1);
    ASSERT_EQ(s->played.size(), 2u);
    EXPECT_EQ(core::to_usi(s->played[0]), "7g7f");
    EXPECT_EQ(core::to_usi(s->played[1]), "3c3d");
    EXPECT_EQ(s->played_units[0], 2);
    EXPECT_EQ(s->played_units[1], 5);

    CsaClocks clocks;
    clocks.reset(s->time);
    EXPECT_EQ(clocks.remaining_ms(core::BLACK), 600000);
    EXPECT_EQ(clocks.remaining_ms(core::WHITE), 5000);
    clocks.charge(core::BLACK, 2);  // two minutes
    clocks.charge(core::WHITE, 0);  // Least_Time_Per_Move charges one unit
    EXPECT_EQ(clocks.remaining_ms(core::BLACK), 480000);
    EXPECT_EQ(clocks.remaining_ms(core::WHITE), 4900);
}

TEST(CsaSummary, HandicapPositionFromShogiServer) {
    // hc2p_: shogi-server takes Black's rook and bishop, and Black moves first.
    std::string text = summary_text("BEGIN Time\nTotal_Time:60\nByoyomi:10\nEND Time\n");
    text.replace(text.find("P8 * +KA *  *  *  *  * +HI * "), 29, "P8 *  *  *  *  *  *  *  *  * ");
    auto s = parse_game_summary(lines_of(text));
    ASSERT_TRUE(s) << s.error();
    EXPECT_EQ(s->start_sfen, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1");
    EXPECT_EQ(s->time[core::BLACK].byoyomi, 10);
    EXPECT_EQ(s->time[core::BLACK].unit_ms, 1000);  // the default unit
}

TEST(CsaSummary, MalformedSummariesAreRefusedWithTheReason) {
    std::string good = summary_text("BEGIN Time\nTotal_Time:60\nEND Time\n");
    auto without = [&](const std::string& what) {
        std::string t = good;
        t.erase(t.find(what), what.size());
        return parse_game_summary(lines_of(t));
    };
    auto r1 = without("Game_ID:wdoor+floodgate-600-10F+a+b+20160614033003\n");
    ASSERT_FALSE(r1);
    EXPECT_TRUE(has(r1.error(), "Game_ID"));
    auto r2 = without("Your_Turn:-\n");
    ASSERT_FALSE(r2);
    EXPECT_TRUE(has(r2.error(), "Your_Turn"));
    auto r3 = without("END Position\n");
    ASSERT_FALSE(r3);
    EXPECT_TRUE(has(r3.error(), "not closed"));
    std::string bad_turn = good;
    bad_turn.replace(bad_turn.find("Your_Turn:-"), 11, "Your_Turn:x");
    auto r4 = parse_game_summary(lines_of(bad_turn));
    ASSERT_FALSE(r4);
    EXPECT_TRUE(has(r4.error(), "line 8")) << r4.error();
    std::string bad_time = good;
    bad_time.replace(bad_time.find("Total_Time:60"), 13, "Total_Time:-5");
    EXPECT_FALSE(parse_game_summary(lines_of(bad_time)));
    std::string bad_unit = good;
    bad_unit.replace(bad_unit.find("Total_Time:60"), 13, "Time_Unit:1hour");
    EXPECT_FALSE(parse_game_summary(lines_of(bad_unit)));
    auto r5 = parse_game_summary(lines_of(summary_text("", "+7775FU,T1\nEND Position\n")));
    ASSERT_FALSE(r5);  // an illegal move in the Position block
    EXPECT_TRUE(has(r5.error(), "Position")) << r5.error();
    auto r6 = parse_game_summary(lines_of(summary_text("BEGIN Time+\nTotal_Time:60\nEND Time+\n")));
    EXPECT_FALSE(r6);  // Time+ without Time-
    EXPECT_FALSE(parse_game_summary({}));
}

// Floodgate's comment: the score from Black's side, the line after the move in CSA form up to
// the first move the position does not allow; none without a score.
TEST(CsaClient, FloodgateCommentHasTheScoreFromBlackAndTheLineAfterTheMove) {
    core::Position pos;
    auto first = notation::parse_usi_move(pos, "7g7f");
    ASSERT_TRUE(first);
    protocol::MoveReply r;
    r.score = 120;
    r.pv = {"7g7f", "3c3d", "2g2f"};
    EXPECT_EQ(protocol::floodgate_comment(pos, *first, r), "'* 120 -3334FU +2726FU");
    r.pv = {"7g7f", "3c3d", "2g2f", "2g2f", "8c8d"};  // stops at the move that cannot be played
    EXPECT_EQ(protocol::floodgate_comment(pos, *first, r), "'* 120 -3334FU +2726FU");
    r.pv = {"2g2f", "3c3d"};  // a line for another move: the score alone
    EXPECT_EQ(protocol::floodgate_comment(pos, *first, r), "'* 120");
    r.pv.clear();
    EXPECT_EQ(protocol::floodgate_comment(pos, *first, r), "'* 120");
    r.score.reset();
    r.pv = {"7g7f"};
    EXPECT_EQ(protocol::floodgate_comment(pos, *first, r), "");
    // White to move: its score turned to Black's side; a mate keeps its distance.
    pos.play(*first);
    auto reply = notation::parse_usi_move(pos, "3c3d");
    ASSERT_TRUE(reply);
    r.score = 250;
    r.pv = {"3c3d", "2g2f"};
    EXPECT_EQ(protocol::floodgate_comment(pos, *reply, r), "'* -250 +2726FU");
    r.score = -(protocol::MATE_SCORE - 3);
    EXPECT_EQ(protocol::floodgate_comment(pos, *reply, r), "'* 99997 +2726FU");
}

TEST(CsaClocksTest, ByoyomiIsNotBankedAndFischerAdds) {
    protocol::CsaTime byo[2], fischer[2];
    for (int c = 0; c < 2; ++c) {
        byo[c].total = 10;
        byo[c].byoyomi = 5;
        fischer[c].total = 60;
        fischer[c].increment = 10;
    }
    CsaClocks b;
    b.reset(byo);
    b.charge(core::BLACK, 13);  // 10 s main + 3 s of byoyomi
    EXPECT_EQ(b.remaining_ms(core::BLACK), 0);
    EXPECT_EQ(b.allowance_ms(core::BLACK), 5999);  // byoyomi plus the truncated part of a second
    auto l = b.limits(300);
    EXPECT_EQ(l.byoyomi, 4700);
    EXPECT_EQ(l.time[core::WHITE], 10000);
    CsaClocks f;
    f.reset(fischer);
    f.charge(core::WHITE, 4);
    EXPECT_EQ(f.remaining_ms(core::WHITE), 66000);
    auto lf = f.limits(300);
    EXPECT_EQ(lf.inc[core::WHITE], 10000);
    EXPECT_EQ(lf.time[core::WHITE], 65700);
    EXPECT_EQ(lf.byoyomi, 0);
}

TEST(CsaServerRules, MaxMovesEndsTheGameAsCensored) {
    ServerProcess srv(temp_db("csa_maxmoves"), open_csa({"--csa-max-moves", "4"}));
    LineClient a(srv.ports.at("csa")), b(srv.ports.at("csa"));
    std::string sa = start_csa_game(a, "alice", b, "bob", "mm-60-0").first;
    EXPECT_TRUE(has(sa, "Max_Moves:4\n")) << sa;
    const char* moves[] = {"+7776FU", "-3334FU", "+2726FU", "-8384FU"};
    for (int i = 0; i < 4; ++i) {
        (i % 2 ? b : a).send_line(moves[i], "\n");
        a.read_until(std::string(moves[i]) + ",T");
    }
    EXPECT_TRUE(has(a.read_until("#CENSORED\n"), "#MAX_MOVES\n"));
    EXPECT_TRUE(has(b.read_until("#CENSORED\n"), "#MAX_MOVES\n"));
}

TEST(CsaServerRules, HandicapGameNamesTakeBlacksPieces) {
    ServerProcess srv(temp_db("csa_handicap"), open_csa());
    LineClient a(srv.ports.at("csa")), b(srv.ports.at("csa"));
    a.send_line("LOGIN alice hc2p_x-60-0-B,secret", "\n");
    a.read_until("OK\n");
    b.send_line("LOGIN bob hc2p_x-60-0,secret", "\n");
    b.read_until("OK\n");
    std::string s = a.read_until("END Game_Summary\n");
    EXPECT_TRUE(has(s, "Game_ID:hisha-1+hc2p_x-60-0+alice+bob+")) << s;
    EXPECT_TRUE(has(s, "P2 * -HI *  *  *  *  * -KA * \n")) << s;
    EXPECT_TRUE(has(s, "P8 *  *  *  *  *  *  *  *  * \n")) << s;
    EXPECT_TRUE(has(s, "To_Move:+\n"));
    EXPECT_TRUE(has(s, "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\nEND Position"));
    auto parsed = parse_summary_read(s);
    ASSERT_TRUE(parsed) << parsed.error();
    EXPECT_EQ(parsed->start_sfen, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1");
    std::string lance = server::service::Service::csa_start_sfen("hclance_x-60-0");
    EXPECT_EQ(lance, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/1NSGKGSNL b - 1");
    EXPECT_EQ(server::service::Service::csa_start_sfen("floodgate-600-10F"), std::string(core::START_SFEN));
    b.read_until("END Game_Summary\n");
    a.send_line("AGREE", "\n");
    b.send_line("AGREE", "\n");
    a.read_until("START:");
    a.send_line("+7776FU", "\n");  // Black (the handicapped side) moves first
    EXPECT_EQ(b.read_until("\n", 5000), "START:" + parsed->game_id + "\n");
    EXPECT_EQ(b.read_until("\n"), "+7776FU,T0\n");
}

// The acceptance game: two `hisha usi` engines, each behind its own `hisha csa` client, play
// a whole game through hisha-server; both clients report the same end, and so does the
// server's database.
TEST(CsaClient, TwoUsiEnginesPlayAWholeGameThroughHishaServer) {
    std::string db = temp_db("csa_client_game");
    ServerProcess srv(db, open_csa());
    int port = srv.ports.at("csa");
    auto black_args = csa_client_args(port, "usi_black", "usi-30-1-B", 3);
    auto white_args = csa_client_args(port, "usi_white", "usi-30-1-W", 1);
    white_args.insert(white_args.end(), {"--comments", "off"});
    Child black(black_args);
    Child white(white_args);
    int rb = black.collect(100000), rw = white.collect(100000);
    ASSERT_EQ(rb, 0) << black.text;
    ASSERT_EQ(rw, 0) << white.text;
    auto gb = game_lines(black.text), gw = game_lines(white.text);
    ASSERT_EQ(gb.size(), 1u) << black.text;
    ASSERT_EQ(gw.size(), 1u) << white.text;
    EXPECT_EQ(gb[0].id, gw[0].id);
    EXPECT_EQ(gb[0].color, "black");
    EXPECT_EQ(gw[0].color, "white");
    EXPECT_EQ(gb[0].moves, gw[0].moves);
    EXPECT_EQ(gb[0].reason, gw[0].reason);
    EXPECT_GT(gb[0].moves, 0);
    EXPECT_NE(gb[0].reason, "-");
    // Opposite results, or the same draw.
    std::string rb_res = gb[0].result, rw_res = gw[0].result;
    if (rb_res == "win")
        EXPECT_EQ(rw_res, "lose");
    else if (rb_res == "lose")
        EXPECT_EQ(rw_res, "win");
    else
        EXPECT_EQ(rw_res, rb_res);
    EXPECT_TRUE(has(black.text, "games=1 "));

    // The record the server kept.
    srv.stop();
    auto row = stored_game(db, game_number(gb[0].id));
    ASSERT_TRUE(row);
    EXPECT_EQ(row->black, "usi_black");
    EXPECT_EQ(row->white, "usi_white");
    EXPECT_EQ(row->status, server::GameStatus::Finished);
    int board_moves = 0;
    for (auto& m : row->moves)
        board_moves += !m.text.starts_with("RESIGN") && m.text != "DECLARE";
    EXPECT_EQ(board_moves, gb[0].moves);
    // Black's engine's searched moves came with its score (Floodgate's comment, the server kept it);
    // White's client was told not to send them.
    int commented = 0;
    for (std::size_t i = 0; i < row->moves.size(); ++i) {
        const auto& m = row->moves[i];
        if (m.text.starts_with("RESIGN") || m.text == "DECLARE")
            continue;
        if (i % 2 == 1) {
            EXPECT_EQ(m.comment, "") << "ply " << i;
            continue;
        }
        if (m.comment.empty())
            continue;  // a move without a search (the opening book) has no score to send
        ASSERT_TRUE(m.comment.starts_with("* ")) << "ply " << i << ": '" << m.comment << "'";
        std::string score = m.comment.substr(2, m.comment.find(' ', 2) - 2);
        EXPECT_FALSE(score.empty());
        EXPECT_EQ(score.find_first_not_of("-0123456789"), std::string::npos) << m.comment;
        ++commented;
    }
    EXPECT_GT(commented, 0);
    std::string expected_winner = rb_res == "win" ? "black" : rb_res == "lose" ? "white" : "draw";
    EXPECT_EQ(row->winner, expected_winner) << row->reason << " / " << gb[0].reason;
    // The record replays through the core to the same end.
    core::Game replay;
    ASSERT_TRUE(replay.reset(row->start_sfen));
    for (auto& m : row->moves) {
        if (m.text.starts_with("RESIGN") || m.text == "DECLARE")
            break;
        auto mv = notation::parse_usi_move(replay.position(), m.text);
        ASSERT_TRUE(mv) << m.text;
        ASSERT_TRUE(replay.play(*mv));
    }
}

TEST(CsaClient, RefusedConnectionsAreRetriedThenReportedAndBadLoginsStopAtOnce) {
    // A port nobody listens on: bind one, note it, close it.
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    socklen_t len = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    std::string dead_port = std::to_string(ntohs(a.sin_port));
    close(fd);
    Child refused({HISHA_BINARY, "csa", "--port", dead_port, "--user", "x", "--password", "secret", "--reconnect", "2",
                   "--reconnect-delay", "10", "--log", "-"});
    EXPECT_EQ(refused.collect(20000), 1);
    EXPECT_TRUE(has(refused.text, "games=0 "));

    ServerProcess srv(temp_db("csa_client_login"), open_csa());
    LineClient owner(srv.ports.at("csa"));
    owner.send_line("LOGIN taken x-60-0,secret", "\n");
    owner.read_until("OK\n");
    std::string port = std::to_string(srv.ports.at("csa"));
    Child wrong({HISHA_BINARY, "csa", "--port", port, "--user", "taken", "--password", "x-60-0,other", "--reconnect",
                 "5", "--reconnect-delay", "5000"});
    EXPECT_EQ(wrong.collect(20000), 1);  // no reconnect after LOGIN:incorrect
    Child usage({HISHA_BINARY, "csa", "--port", "99999", "--user", "u", "--password", "p"});
    EXPECT_EQ(usage.collect(20000), 2);
    Child no_user({HISHA_BINARY, "csa", "--password", "p"});
    EXPECT_EQ(no_user.collect(20000), 2);
}

// The client's link is cut in mid-game (a relay drops both sides after six moves): `hisha csa`
// says so, reconnects, logs in again, and the server (with a reconnect grace) gives it the game
// back with the moves so far; the game is played to its end, and both clients and the server's
// record agree on it.
TEST(CsaClient, ACutConnectionMidGameIsResumedAfterReconnecting) {
    std::string db = temp_db("csa_client_cut");
    ServerProcess srv(db, open_csa({"--csa-reconnect-grace", "30"}));
    CuttingProxy proxy(srv.ports.at("csa"), 6);
    std::string log_path = "/tmp/hisha_csa_cut_" + std::to_string(getpid()) + ".log";
    auto black_args = csa_client_args(proxy.port, "cut_black", "cut-60-1-B", 1);
    black_args.insert(black_args.end(), {"--reconnect", "3", "--reconnect-delay", "200", "--log", log_path});
    auto white_args = csa_client_args(srv.ports.at("csa"), "cut_white", "cut-60-1-W", 1);
    white_args.insert(white_args.end(), {"--reconnect", "3", "--reconnect-delay", "200"});
    Child black(black_args);
    Child white(white_args);
    int rb = black.collect(100000), rw = white.collect(100000);
    std::string log = file_text(log_path);
    std::remove(log_path.c_str());
    ASSERT_EQ(rb, 0) << black.text << log;
    ASSERT_EQ(rw, 0) << white.text;
    EXPECT_EQ(proxy.cuts, 1);
    EXPECT_EQ(proxy.connections, 2);  // the first, cut; the one it resumed the game on
    EXPECT_TRUE(has(log, "connection lost during game")) << log;
    EXPECT_TRUE(has(log, "reconnecting in 200 ms")) << log;
    auto gb = game_lines(black.text), gw = game_lines(white.text);
    ASSERT_EQ(gb.size(), 1u) << black.text;
    ASSERT_EQ(gw.size(), 1u) << white.text;
    EXPECT_EQ(gb[0].id, gw[0].id);  // the same game, resumed
    EXPECT_EQ(gb[0].moves, gw[0].moves);
    EXPECT_GT(gb[0].moves, 6);
    EXPECT_NE(gb[0].result, "chudan");

    srv.stop();
    auto row = stored_game(db, game_number(gb[0].id));
    ASSERT_TRUE(row);
    EXPECT_EQ(row->status, server::GameStatus::Finished);
    EXPECT_NE(row->reason, "abort");
}
