// The USI driver's command builders and answer parsing, and the driver choice by command.
#include "protocol/usi_client.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "core/handicap.h"
#include "notation/usi.h"

using namespace hisha;
using namespace hisha::protocol;

TEST(UsiClient, PositionCommand) {
    core::Game g;
    EXPECT_EQ(usi_position_command(g), "position startpos");
    auto m = notation::parse_usi_move(g.position(), "7g7f");
    ASSERT_TRUE(m.has_value());
    ASSERT_TRUE(g.play(*m).has_value());
    EXPECT_EQ(usi_position_command(g), "position startpos moves 7g7f");
    g.reset(core::Handicap::TwoPiece);
    EXPECT_EQ(usi_position_command(g),
              "position sfen " + std::string(core::handicap_info(core::Handicap::TwoPiece).sfen));
}

TEST(UsiClient, GoCommand) {
    engine::Limits l;
    l.time[core::BLACK] = 60000;
    l.time[core::WHITE] = 50000;
    l.byoyomi = 10000;
    EXPECT_EQ(usi_go_command(l), "go btime 60000 wtime 50000 byoyomi 10000");
    l.byoyomi = 0;
    l.inc[core::BLACK] = l.inc[core::WHITE] = 5000;
    EXPECT_EQ(usi_go_command(l), "go btime 60000 wtime 50000 binc 5000 winc 5000");
    l.inc[core::BLACK] = l.inc[core::WHITE] = 0;
    l.moves_to_go = 12;
    EXPECT_EQ(usi_go_command(l), "go btime 60000 wtime 50000 movestogo 12");
    engine::Limits d;
    d.depth = 6;
    EXPECT_EQ(usi_go_command(d), "go depth 6");
    engine::Limits n;
    n.nodes = 100000;
    EXPECT_EQ(usi_go_command(n), "go nodes 100000");
    engine::Limits st;
    st.byoyomi = 200;
    EXPECT_EQ(usi_go_command(st), "go btime 0 wtime 0 byoyomi 200");
}

TEST(UsiClient, Bestmove) {
    MoveReply r;
    ASSERT_TRUE(parse_bestmove("bestmove 7g7f ponder 3c3d", r));
    EXPECT_EQ(r.kind, MoveReply::Kind::Move);
    EXPECT_EQ(r.text, "7g7f");
    ASSERT_TRUE(parse_bestmove("bestmove resign", r));
    EXPECT_EQ(r.kind, MoveReply::Kind::Resign);
    ASSERT_TRUE(parse_bestmove("bestmove win", r));
    EXPECT_EQ(r.kind, MoveReply::Kind::Win);
    EXPECT_FALSE(parse_bestmove("bestmove", r));
    EXPECT_FALSE(parse_bestmove("info depth 3", r));
}

TEST(EnginePlayer, DriverChoice) {
    // The engine commands that each driver runs.
    const std::pair<DriverKind, std::vector<std::string>> drivers[] = {
        {DriverKind::Internal, {"hisha", " internal "}},
        {DriverKind::Usi, {"build/bin/hisha usi", "usi:gnushogi-usi-wrapper", "YaneuraOu"}},
        {DriverKind::Xshogi, {"gnushogi", "/usr/games/gnushogi -B book.bbk", "xshogi:./my-gnushogi-clone"}},
    };
    for (const auto& [kind, commands] : drivers)
        for (const std::string& command : commands)
            EXPECT_EQ(driver_of(command), kind) << command;
    EXPECT_EQ(strip_driver_prefix("usi: ./engine --x"), "./engine --x");
    EXPECT_EQ(strip_driver_prefix("gnushogi"), "gnushogi");
}

TEST(ChildProcess, LinesDeadlinesAndExit) {
    ChildProcess p;
    ASSERT_TRUE(p.spawn("printf 'one\\r\\ntwo\\n'; read x; echo \"got $x\"; exit 7", false).has_value());
    std::string line;
    auto soon = [] { return SteadyClock::now() + std::chrono::seconds(5); };
    ASSERT_EQ(p.read_line(line, soon()), ChildProcess::Read::Line);
    EXPECT_EQ(line, "one");  // CR LF accepted
    ASSERT_EQ(p.read_line(line, soon()), ChildProcess::Read::Line);
    EXPECT_EQ(line, "two");
    EXPECT_EQ(p.read_line(line, SteadyClock::now() + std::chrono::milliseconds(50)), ChildProcess::Read::Timeout);
    ASSERT_TRUE(p.write_line("hello"));
    ASSERT_EQ(p.read_line(line, soon()), ChildProcess::Read::Line);
    EXPECT_EQ(line, "got hello");
    EXPECT_EQ(p.read_line(line, soon()), ChildProcess::Read::Eof);
    p.terminate(1000);
    EXPECT_EQ(p.exit_description(), "exit code 7");
    EXPECT_FALSE(p.write_line("anyone?"));  // a dead engine is a failed write, not SIGPIPE
}

namespace {

// Live (not zombie) processes of a process group, from /proc.
int live_members(pid_t group) {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        std::ifstream in(e.path() / "stat");
        std::string stat;
        if (!std::getline(in, stat) || stat.rfind(')') == std::string::npos)
            continue;
        std::istringstream rest(stat.substr(stat.rfind(')') + 2));
        char state = 0;
        long ppid = 0, pgrp = 0;
        rest >> state >> ppid >> pgrp;
        n += pgrp == group && state != 'Z';
    }
    return n;
}

}  // namespace

TEST(ChildProcess, TerminateKillsTheWholeGroup) {
    ChildProcess p;
    ASSERT_TRUE(p.spawn("sh -c 'sleep 30' & sleep 30", false).has_value());
    pid_t pid = p.pid();
    // The shell and its background sleep: wait (bounded) until both have started.
    int started = live_members(pid);
    for (int i = 0; i < 500 && started < 2; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        started = live_members(pid);
    }
    EXPECT_GE(started, 2);
    p.terminate(0);
    // What it started died with it. SIGKILL is delivered at once but a loaded machine may take
    // a moment to tear the processes down, so wait (bounded) for them to be gone.
    int live = live_members(pid);
    for (int i = 0; i < 200 && live != 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        live = live_members(pid);
    }
    EXPECT_EQ(live, 0);
    EXPECT_NE(p.exit_description().find("signal 9"), std::string::npos) << p.exit_description();
}
