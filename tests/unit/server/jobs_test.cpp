// Tsume solves and engine analyses: logged-in players only, on a bounded number of workers with
// a bounded queue and one job per account. Over 127.0.0.1: 401 without a login, the quota
// refusal (429), a full queue answered busy at once (503, Retry-After) on HTTP and over the
// WebSocket, an analysis that waits for the worker and then runs, and a game's moves relayed
// while the solver is busy and its queue full, a puzzle's attempt and hint as jobs of the same
// queue. The JobQueue's bookkeeping on a given clock.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "http_client.h"
#include "server/net/job_queue.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::test;
using net::JobQueue;

namespace {

// Microcosmos (1525 plies): no solver here finishes it, so it keeps a worker for its whole time limit.
const std::string LONG_PROBLEM =
    R"({"sfen":"g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",)"
    R"("convention":"tsume","time_limit_s":60})";
const std::string MATE_IN_ONE = R"({"sfen":"4k4/9/4P4/9/9/9/9/9/9 b G 1","convention":"tsume"})";

std::string register_user(Http& h, const std::string& name) {
    return h.post("/api/register", {{"name", name}, {"password", "secret"}})["token"];
}

// Waits (bounded) until the server's /metrics count `running` solver jobs running and `waiting`
// waiting: requests sent on other connections are then admitted after these.
void wait_for_jobs(int port, int running, int waiting) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    std::string want_running = "hisha_solver_jobs{state=\"running\"} " + std::to_string(running) + "\n";
    std::string want_waiting = "hisha_solver_jobs{state=\"waiting\"} " + std::to_string(waiting) + "\n";
    for (;;) {
        Http h(port);
        std::string m = h.exchange(http::verb::get, "/metrics").body();
        if (has(m, want_running) && has(m, want_waiting))
            return;
        if (std::chrono::steady_clock::now() > deadline) {
            ADD_FAILURE() << "expected " << want_running << want_waiting << "in " << m;
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

// The nice value of each thread of process `pid`, by the thread's name (/proc/PID/task).
std::multimap<std::string, int> thread_nice(pid_t pid) {
    std::multimap<std::string, int> out;
    for (const auto& e : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
        std::ifstream f(e.path() / "stat");
        std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        auto lp = s.find('('), rp = s.rfind(')');
        if (lp == std::string::npos || rp == std::string::npos)
            continue;
        std::istringstream rest(s.substr(rp + 2));
        std::string field;
        for (int i = 3; i <= 19 && rest >> field; ++i)  // field 19: nice
            if (i == 19)
                out.emplace(s.substr(lp + 1, rp - lp - 1), std::stoi(field));
    }
    return out;
}

// How the server of a failed exchange ended, for the failure message: stopped now if it still
// ran (exit status 0), else its own exit status or the signal that killed it; then its log,
// which the ServerProcess deletes when the test ends.
std::string how_the_server_ended(ServerProcess& srv) {
    int status = srv.stop();
    std::string how = WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                          : "exit status " + std::to_string(WEXITSTATUS(status));
    return how + "; its log:\n" + srv.log_text();
}

struct Clocked {
    std::int64_t t = 1000;
    JobQueue queue;
    explicit Clocked(JobQueue::Options o) : queue(o, [this] { return t; }) {}
};

}  // namespace

TEST(JobQueue, OneJobPerAccountAndABoundedQueueWithTheWaitUntilAWorkerIsFree) {
    Clocked c({.workers = 1, .queue = 1, .per_account = 1});
    std::vector<std::string> started;
    auto a = c.queue.submit("alice", "tsume", "peer", 10'000, [&] { started.push_back("alice"); });
    ASSERT_TRUE(a);
    EXPECT_EQ(started, std::vector<std::string>{"alice"});  // a free worker: at once
    c.t += 2500;
    auto again = c.queue.submit("alice", "analysis", "peer", 1000, [&] { started.push_back("alice 2"); });
    EXPECT_EQ(again.refusal, JobQueue::Refusal::Account);
    EXPECT_EQ(again.retry_after_s, 8);  // her job ends in 7.5 s at most
    EXPECT_EQ(again.error, "you have a job running already (a tsume or an analysis): retry in 8 s");
    auto b = c.queue.submit("bob", "tsume", "peer", 5000, [&] { started.push_back("bob"); });
    ASSERT_TRUE(b);
    EXPECT_EQ(c.queue.waiting(), 1u);
    auto carol = c.queue.submit("carol", "tsume", "peer", 5000, [&] { started.push_back("carol"); });
    EXPECT_EQ(carol.refusal, JobQueue::Refusal::Busy);
    EXPECT_EQ(carol.error, "server busy, retry in 8 s");
    EXPECT_EQ(started.size(), 1u);
    c.queue.finish(a.id);  // the worker goes to bob
    EXPECT_EQ(started, (std::vector<std::string>{"alice", "bob"}));
    EXPECT_EQ(c.queue.running(), 1u);
    EXPECT_EQ(c.queue.waiting(), 0u);
    EXPECT_TRUE(c.queue.submit("carol", "tsume", "peer", 5000, [&] { started.push_back("carol"); }));
    EXPECT_EQ(c.queue.counters().refused_account, 1u);
    EXPECT_EQ(c.queue.counters().refused_busy, 1u);
    EXPECT_EQ(c.queue.counters().started, 2u);
}

TEST(JobQueue, AWaitingJobGivenUpLeavesTheQueueAndARestartMovesTheDeadline) {
    Clocked c({.workers = 1, .queue = 4, .per_account = 1});
    int runs = 0;
    auto a = c.queue.submit("alice", "analysis", "peer", 1000, [&] { ++runs; });
    auto b = c.queue.submit("bob", "analysis", "peer", 1000, [&] { ADD_FAILURE() << "bob gave up"; });
    auto d = c.queue.submit("dave", "analysis", "peer", 1000, [&] { ++runs; });
    c.queue.finish(b.id);
    EXPECT_EQ(c.queue.waiting(), 1u);
    c.t += 900;
    c.queue.restart(a.id, 30'000);  // a new position: the same job, a new limit
    auto e = c.queue.submit("alice", "tsume", "peer", 1000, [] {});
    EXPECT_EQ(e.retry_after_s, 30);
    c.queue.finish(a.id);
    EXPECT_EQ(runs, 2);
    EXPECT_TRUE(c.queue.running(d.id));
}

TEST(JobQueue, AJobThatEndsAsItStartsHandsItsWorkerOn) {
    Clocked c({.workers = 1, .queue = 4, .per_account = 1});
    std::vector<int> order;
    auto a = c.queue.submit("a", "tsume", "peer", 1000, [&] { order.push_back(1); });
    std::uint64_t b_id = 0;
    auto b = c.queue.submit("b", "tsume", "peer", 1000, [&] {
        order.push_back(2);
        c.queue.finish(b_id);  // e.g. its client went away
    });
    b_id = b.id;
    c.queue.submit("c", "tsume", "peer", 1000, [&] { order.push_back(3); });
    c.queue.finish(a.id);
    EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(c.queue.running(), 1u);
    c.queue.stop();
    c.queue.submit("d", "tsume", "peer", 1000, [&] { order.push_back(4); });
    c.queue.finish(a.id + 2);
    EXPECT_EQ(order.size(), 3u) << "nothing starts once stopped";
}

TEST(Jobs, TsumeAndAnalysisNeedALogin) {
    ServerProcess srv(temp_db("jobs_login"));
    int port = srv.ports.at("http");
    Http h(port);
    auto anonymous = h.exchange(http::verb::post, "/api/tsume", MATE_IN_ONE);
    EXPECT_EQ(anonymous.result_int(), 401) << anonymous.body();
    EXPECT_TRUE(has(anonymous.body(), "log in first")) << anonymous.body();
    auto forged = h.exchange(http::verb::post, "/api/tsume", MATE_IN_ONE, "not-a-token");
    EXPECT_EQ(forged.result_int(), 401);
    LineClient ws(port);  // the analysis socket without a token
    ws.send_raw("GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    EXPECT_TRUE(has(ws.read_until("\r\n"), "401")) << ws.pending();

    std::string token = register_user(h, "alice");
    json solved = h.post("/api/tsume", json::parse(MATE_IN_ONE), token);
    EXPECT_EQ(solved["status"], "mate") << solved.dump();
    EXPECT_EQ(solved["length"], 1);
    Ws w(port, token);
    w.send({{"type", "analyze"}, {"sfen", "startpos"}, {"movetime_ms", 200}, {"tag", "t"}});
    json done = w.read_type("analysis_done", 15);
    EXPECT_EQ(done["tag"], "t");
    EXPECT_FALSE(done["best"].get<std::string>().empty()) << done.dump();
}

// One worker, one place in the queue: alice's long solve runs, bob's waits; a second job of
// either is refused (429), carol's is refused busy (503) over HTTP and over the WebSocket; a
// game between dave and erin goes on meanwhile.
TEST(Jobs, QuotaAndAFullQueueAreRefusedAtOnceWhileMovesAreRelayed) {
    ServerProcess srv(temp_db("jobs_busy"), {"--solver-threads", "1", "--solver-queue", "1"});
    int port = srv.ports.at("http");
    Http h(port);
    std::string alice = register_user(h, "alice"), bob = register_user(h, "bob"), carol = register_user(h, "carol");
    std::string dave = register_user(h, "dave"), erin = register_user(h, "erin");

    Http alice_solve(port), bob_solve(port);
    alice_solve.send(http::verb::post, "/api/tsume", LONG_PROBLEM, alice);
    wait_for_jobs(port, 1, 0);
    auto quota = h.exchange(http::verb::post, "/api/tsume", MATE_IN_ONE, alice);
    EXPECT_EQ(quota.result_int(), 429) << quota.body();
    EXPECT_TRUE(has(quota.body(), "running already")) << quota.body();
    EXPECT_GE(std::atoi(std::string(quota[http::field::retry_after]).c_str()), 50) << "her 60 s limit";
    bob_solve.send(http::verb::post, "/api/tsume", LONG_PROBLEM, bob);
    wait_for_jobs(port, 1, 1);
    EXPECT_EQ(h.exchange(http::verb::post, "/api/tsume", MATE_IN_ONE, bob).result_int(), 429) << "bob's waits";

    auto busy = h.exchange(http::verb::post, "/api/tsume", MATE_IN_ONE, carol);
    EXPECT_EQ(busy.result_int(), 503) << busy.body();
    EXPECT_TRUE(has(busy.body(), "server busy, retry in ")) << busy.body();
    int retry = std::atoi(std::string(busy[http::field::retry_after]).c_str());
    EXPECT_GE(retry, 50) << "until alice's solve has its worker no more";
    EXPECT_LE(retry, 61);
    Ws carol_ws(port, carol);
    carol_ws.send({{"type", "analyze"}, {"sfen", "startpos"}, {"movetime_ms", 200}, {"tag", "c"}});
    json refused = carol_ws.read_type("error");
    EXPECT_TRUE(has(refused["message"], "server busy, retry in ")) << refused.dump();
    EXPECT_GE(refused["retry_after_s"].get<int>(), 50);
    Ws alice_ws(port, alice);
    alice_ws.send({{"type", "analyze"}, {"sfen", "startpos"}, {"movetime_ms", 200}, {"tag", "a"}});
    EXPECT_TRUE(has(alice_ws.read_type("error")["message"], "running already"));

    // Moves while the solver is busy and its queue full.
    json g = h.post("/api/games", {{"opponent", "erin"}, {"color", "black"}, {"time_control", "600-10"}}, dave);
    ASSERT_TRUE(g.contains("id")) << g.dump();
    int id = g["id"];
    Ws dave_ws(port, dave), erin_ws(port, erin);
    const char* line[] = {"7g7f", "3c3d", "2g2f", "8c8d"};
    for (int i = 0; i < 4; ++i) {
        Ws& mover = i % 2 == 0 ? dave_ws : erin_ws;
        Ws& other = i % 2 == 0 ? erin_ws : dave_ws;
        mover.send({{"type", "move"}, {"game", id}, {"move", line[i]}});
        EXPECT_EQ(other.read_move(line[i]).value("usi", ""), std::string(line[i]));
    }
    EXPECT_EQ(alice_solve.stream.socket().available(), 0u) << "alice's solve is still running";
    EXPECT_EQ(bob_solve.stream.socket().available(), 0u) << "bob's still waits";

    srv.stop();
    std::string log = srv.log_text();
    EXPECT_TRUE(has(log, R"("event":"limited","limit":"jobs_per_account","kind":"tsume")")) << log;
    EXPECT_TRUE(has(log, R"("event":"limited","limit":"job_queue","kind":"tsume")")) << log;
    EXPECT_TRUE(has(log, R"("event":"limited","limit":"job_queue","kind":"analysis")")) << log;
}

// An analysis asked for while the worker solves waits in the queue, and runs when it is free.
TEST(Jobs, AnAnalysisWaitsForTheWorkerThenRuns) {
    ServerProcess srv(temp_db("jobs_wait"), {"--solver-threads", "1"});
    int port = srv.ports.at("http");
    Http h(port);
    std::string alice = register_user(h, "alice"), bob = register_user(h, "bob");
    Http alice_solve(port, 30);
    std::string short_problem = LONG_PROBLEM;
    short_problem.replace(short_problem.find("\"time_limit_s\":60"), 17, "\"time_limit_s\":2");
    alice_solve.send(http::verb::post, "/api/tsume", short_problem, alice);
    wait_for_jobs(port, 1, 0);
    EXPECT_EQ(h.exchange(http::verb::post, "/api/tsume", MATE_IN_ONE, alice).result_int(), 429);  // (hers runs)
    try {
        Ws w(port, bob);
        w.send({{"type", "analyze"}, {"sfen", "startpos"}, {"movetime_ms", 200}, {"tag", "b"}});
        json done = w.read_type("analysis_done", 30);
        EXPECT_EQ(done["tag"], "b");
    } catch (const std::exception& e) {  // (the socket closed: say whether the server died, and how)
        FAIL() << e.what() << "; the server: " << how_the_server_ended(srv);
    }
    auto solved = alice_solve.receive();
    EXPECT_EQ(solved.result_int(), 200);
    EXPECT_TRUE(has(solved.body(), R"("status":"timeout")")) << solved.body();
}

// A puzzle's attempt and hint search with the solver: jobs of the same bounded queue, never
// work on the event loop. The one worker busy with alice's solve: bob's attempt waits for it,
// carol's attempt and hint are refused busy (503); once the worker is free bob's is judged.
TEST(Jobs, APuzzleAttemptAndHintAreJobsOfTheSolversQueue) {
    const std::string puzzles = (std::filesystem::temp_directory_path() / "hisha_jobs_puzzles.tsv").string();
    {
        std::ofstream out(puzzles);  // a line of `hisha puzzles` (tests/data/puzzles/uchifuzume.tsv)
        out << "7ffd8e35\tln1g1k1nl/2+P6/5g1p1/2pKppp2/1+rS4PP/p1PBSPP1L/2G+rs4/9/LN7 w BSN5Pgp 100\t"
               "P*6c 6d6c G*5c\t3\tcsa/uchifuzume.csa\t99\n";
    }
    ServerProcess srv(temp_db("jobs_puzzle"),
                      {"--solver-threads", "1", "--solver-queue", "1", "--puzzles", puzzles, "--bots", ""});
    int port = srv.ports.at("http");
    Http h(port);
    std::string alice = register_user(h, "alice"), bob = register_user(h, "bob"), carol = register_user(h, "carol");
    Http alice_solve(port, 30), bob_try(port, 30);
    std::string short_problem = LONG_PROBLEM;
    short_problem.replace(short_problem.find("\"time_limit_s\":60"), 17, "\"time_limit_s\":2");
    alice_solve.send(http::verb::post, "/api/tsume", short_problem, alice);
    wait_for_jobs(port, 1, 0);
    const std::string attempt = "/api/puzzles/7ffd8e35/attempt", first = R"({"moves":["P*6c"]})";
    bob_try.send(http::verb::post, attempt, first, bob);
    wait_for_jobs(port, 1, 1);
    auto busy = h.exchange(http::verb::post, attempt, first, carol);
    EXPECT_EQ(busy.result_int(), 503) << busy.body();
    EXPECT_TRUE(has(busy.body(), "server busy, retry in ")) << busy.body();
    EXPECT_EQ(h.exchange(http::verb::get, "/api/puzzles/7ffd8e35/hint?level=1", "", carol).result_int(), 503);
    auto judged = bob_try.receive();
    EXPECT_EQ(judged.result_int(), 200) << judged.body();
    EXPECT_TRUE(has(judged.body(), R"("result":"continue")") && has(judged.body(), R"("reply":"6d6c")"))
        << judged.body();
    auto solved = alice_solve.receive();
    EXPECT_EQ(solved.result_int(), 200);
    wait_for_jobs(port, 0, 0);
    auto hint = h.exchange(http::verb::get, "/api/puzzles/7ffd8e35/hint?level=1", "", carol);
    EXPECT_EQ(hint.result_int(), 200) << hint.body();
    EXPECT_TRUE(has(hint.body(), R"("drop":"P")")) << hint.body();
    std::filesystem::remove(puzzles);
}

// ThreadSanitizer's runtime starts a thread of its own in the program (with its first other
// thread), named after the program like the event loop and at the loop's nice.
#if defined(__SANITIZE_THREAD__)
constexpr std::size_t SANITIZER_THREADS = 1;
#else
constexpr std::size_t SANITIZER_THREADS = 0;
#endif

// A tsume solve (and a password hash) runs on a thread of its own named for its work, below the
// event loop's priority: a flood of problems takes the CPU the loop leaves, not the loop's.
TEST(Jobs, TheSolverAndTheHashesRunBelowTheLoopsPriority) {
    ServerProcess srv(temp_db("jobs_nice"), {"--solver-threads", "1", "--bots", ""});
    int port = srv.ports.at("http");
    Http h(port);
    std::string alice = register_user(h, "alice");
    Http solve(port);
    solve.send(http::verb::post, "/api/tsume", LONG_PROBLEM, alice);
    wait_for_jobs(port, 1, 0);
    auto threads = thread_nice(srv.pid());
    for (int i = 0; i < 250 && !threads.count("solver"); ++i) {  // (admitted; its work starts on the pool)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        threads = thread_nice(srv.pid());
    }
    ASSERT_EQ(threads.count("hisha-server"), 1u + SANITIZER_THREADS) << "the event loop alone keeps the program's name";
    int loop = threads.find("hisha-server")->second;  // (the tests' own nice: 0, or more under nice)
    ASSERT_EQ(threads.count("solver"), 1u) << "the solve runs on a thread named solver";
    EXPECT_EQ(threads.find("solver")->second, std::min(19, loop + 10));
    ASSERT_EQ(threads.count("hash"), 1u) << "the registration's hash ran on a thread named hash";
    EXPECT_EQ(threads.find("hash")->second, std::min(19, loop + 10));
}
