// Operating limits of hisha-server over 127.0.0.1: commands per second (faster lines wait,
// none is lost), idle timeouts, the config file and its errors, and --help naming every option.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <thread>

#include "server_process.h"
#include "test_util.h"

using namespace hisha::server::test;

namespace {

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// Every line of the structured log is one object that starts with its timestamp.
void expect_one_object_a_line(const std::string& log) {
    std::size_t start = 0;
    for (std::size_t nl; (nl = log.find('\n', start)) != std::string::npos; start = nl + 1) {
        std::string line = log.substr(start, nl - start);
        EXPECT_TRUE(line.starts_with("{\"ts\":\"") && line.ends_with("}")) << line;
    }
}

// Runs hisha-server with `args`; its output (stdout and stderr) and exit status.
std::pair<std::string, int> run_server(const std::string& args) { return run_server_cli(args); }

}  // namespace

// Lines faster than --max-commands-per-second wait for their turn: a paste of 500 commands
// in one write (far past the burst of 300) is answered whole and in order, on both ports.
TEST(Operations, APasteFasterThanTheLimitIsAnsweredWholeAndInOrder) {
    ServerProcess srv(temp_db("ops_rate"), open_csa({"--max-commands-per-second", "100"}));
    LineClient t(srv.ports.at("text"));
    t.read_until("hisha> ");
    const int lines = 500;
    std::string paste;
    for (int i = 0; i < lines; ++i)
        paste += "cmd" + std::to_string(i) + (i % 2 ? "\r\n" : "\n");
    t.send_raw(paste);
    std::string out = t.read_until("unknown command 'cmd" + std::to_string(lines - 1) + "'", 30000);
    std::size_t at = 0;
    for (int i = 0; i < lines; ++i) {
        auto next = out.find("Error: unknown command 'cmd" + std::to_string(i) + "'", at);
        ASSERT_NE(next, std::string::npos) << "answer " << i << " missing or out of order";
        at = next;
    }
    EXPECT_EQ(count(out, "Error: unknown command"), lines);
    EXPECT_FALSE(has(out, "slow down"));
    t.read_until("hisha> ");
    EXPECT_TRUE(has(t.cmd("LOGIN nobody secret"), "incorrect")) << "the connection is still served";

    LineClient c(srv.ports.at("csa"));
    c.send_line("LOGIN carol secret x1", "\n");
    c.read_until("##[LOGIN] +OK x1\n");
    std::string flood;
    for (int i = 0; i < lines; ++i)
        flood += "%%VERSION\n";
    c.send_raw(flood);
    for (int i = 0; i < lines; ++i)
        c.read_until("##[VERSION] +OK\n", 30000);
    c.send_line("%%WHO", "\n");
    EXPECT_TRUE(has(c.read_until("##[WHO] +OK\n"), "carol"));
}

TEST(Operations, IdleConnectionsAreClosed) {
    ServerProcess srv(temp_db("ops_idle"), {"--idle-timeout", "1"});
    LineClient t(srv.ports.at("text"));
    LineClient c(srv.ports.at("csa"));
    t.read_until("hisha> ");
    EXPECT_TRUE(has(t.read_until("closing.", 4000), "Idle too long"));
    EXPECT_TRUE(t.closed_by_peer(2000));
    EXPECT_TRUE(c.closed_by_peer(4000));
}

TEST(Operations, ConfigFileSetsOptionsAndTheCommandLineOverridesIt) {
    std::string path = temp_db("ops_config") + ".conf";
    {
        std::ofstream f(path);
        f << "# hisha-server settings\n"
             "csa-max-moves = 12\n"
             "idle-timeout 600   # ten minutes\n"
             "\n"
             "max-commands-per-second=50\n"
             "csa-auto-register on  # the players below are new\n";
    }
    ServerProcess srv(temp_db("ops_config"), {"--config", path, "--csa-max-moves", "7"});
    LineClient a(srv.ports.at("csa")), b(srv.ports.at("csa"));
    a.send_line("LOGIN alice cf-60-0,secret", "\n");
    b.send_line("LOGIN bob cf-60-0,secret", "\n");
    EXPECT_TRUE(has(a.read_until("END Game_Summary\n"), "Max_Moves:7\n"));

    ServerProcess from_file(temp_db("ops_config2"), {"--config", path});
    LineClient c(from_file.ports.at("csa")), d(from_file.ports.at("csa"));
    c.send_line("LOGIN carol cf-60-0,secret", "\n");
    d.send_line("LOGIN dave cf-60-0,secret", "\n");
    EXPECT_TRUE(has(c.read_until("END Game_Summary\n"), "Max_Moves:12\n"));
}

TEST(Operations, BadConfigAndBadOptionsStopWithAReason) {
    auto [missing, rc1] = run_server("--config /nonexistent/hisha.conf");
    EXPECT_EQ(rc1, 2);
    EXPECT_TRUE(has(missing, "cannot read config file /nonexistent/hisha.conf")) << missing;
    std::string path = temp_db("ops_badconf") + ".conf";
    {
        std::ofstream f(path);
        f << "db = sqlite:x.db\n--bind 0.0.0.0\n";
    }
    auto [bad, rc2] = run_server("--config " + path);
    EXPECT_EQ(rc2, 2);
    EXPECT_TRUE(has(bad, ".conf:2: expected an option name")) << bad;
    {
        std::ofstream f(path);
        f << "no-such-option 3\n";
    }
    auto [unknown, rc3] = run_server("--config " + path);
    EXPECT_EQ(rc3, 2);
    EXPECT_TRUE(has(unknown, "unknown argument --no-such-option")) << unknown;
    auto [idle, rc4] = run_server("--idle-timeout 0");
    EXPECT_EQ(rc4, 2);
    EXPECT_TRUE(has(idle, "--idle-timeout needs seconds")) << idle;
    auto [rate, rc5] = run_server("--max-commands-per-second fast");
    EXPECT_EQ(rc5, 2);
    for (const char* args : {"--login-per-address 20", "--login-per-account 5/x", "--register-per-address -1/3",
                             "--login-backoff 3/3", "--hash-threads 0", "--hash-queue many"}) {
        auto [out, rc] = run_server(args);
        EXPECT_EQ(rc, 2) << args;
        EXPECT_TRUE(has(out, std::string(args).substr(0, std::string(args).find(' ')) + " needs")) << out;
    }
    auto [help, rc6] = run_server("--help");
    EXPECT_EQ(rc6, 0);
    for (const char* opt : {"--db",
                            "--text-port",
                            "--csa-port",
                            "--http-port",
                            "--bind",
                            "--static",
                            "--days-per-move",
                            "--password-cost",
                            "--max-per-address",
                            "--group-commit",
                            "--csa-max-moves",
                            "--idle-timeout",
                            "--max-commands-per-second",
                            "--config",
                            "--bots",
                            "--help",
                            "--log",
                            "--csa-reconnect-grace",
                            "--hash-threads",
                            "--hash-queue",
                            "--login-per-address",
                            "--login-per-account",
                            "--register-per-address",
                            "--login-backoff",
                            "--session-lifetime",
                            "--public-origin"})
        EXPECT_TRUE(has(help, opt)) << opt;
    EXPECT_TRUE(has(help, "postgresql://"));
}

TEST(Operations, StructuredLogHasOneJsonObjectPerEvent) {
    ServerProcess srv(temp_db("ops_log"), open_csa());
    {
        LineClient a(srv.ports.at("csa")), b(srv.ports.at("csa"));
        a.send_line("LOGIN alice lg-60-0-B,secret", "\n");
        b.send_line("LOGIN bob lg-60-0-W,secret", "\n");
        a.read_until("END Game_Summary\n");
        b.read_until("END Game_Summary\n");
        a.send_line("AGREE", "\n");
        b.send_line("AGREE", "\n");
        a.read_until("START:");
        a.send_line("%TORYO", "\n");
        b.read_until("#WIN\n");
    }
    srv.stop();
    std::string log = srv.log_text();
    for (const char* event : {"listening", "connect", "login", "game_created", "game_end", "disconnect", "shutdown"})
        EXPECT_TRUE(has(log, std::string("\"event\":\"") + event + "\"")) << event << "\n" << log;
    EXPECT_TRUE(has(log, "\"event\":\"login\",\"user\":\"alice\",\"protocol\":\"csa\"")) << log;
    EXPECT_TRUE(has(log, "\"winner\":\"white\",\"reason\":\"resignation\"")) << log;
    expect_one_object_a_line(log);
}

// --log-level warn leaves out the info events (connections, logins, games) and keeps the
// warnings, here a login over the address's rate; each line still one JSON object, now with its level.
TEST(Operations, LogLevelWarnKeepsOnlyWarningsAndErrors) {
    ServerProcess srv(temp_db("ops_log_level"),
                      open_csa({"--log-level", "warn", "--login-per-address", "1/1", "--login-backoff", "0/0/0"}));
    {
        LineClient t(srv.ports.at("text"));
        t.read_until("hisha> ");
        for (int i = 0; i < 3; ++i)
            t.cmd("LOGIN nobody wrong");  // the second is over the limit
    }
    srv.stop();
    std::string log = srv.log_text();
    EXPECT_FALSE(has(log, "\"event\":\"listening\"")) << log;
    EXPECT_FALSE(has(log, "\"event\":\"connect\"")) << log;
    EXPECT_TRUE(has(log, "\"level\":\"warning\",\"event\":\"limited\"")) << log;
    expect_one_object_a_line(log);
}

// --log-file PATH: the same lines go to the file (appended), none to standard error.
TEST(Operations, LogFileReceivesTheStructuredLog) {
    std::string path = temp_db("ops_log_file") + ".log";
    std::remove(path.c_str());
    {
        std::ofstream(path) << "an earlier line\n";
        ServerProcess srv(temp_db("ops_log_file"), open_csa({"--log-file", path, "--log-level", "info"}));
        LineClient a(srv.ports.at("csa"));
        a.send_line("LOGIN alice lg-60-0-B,secret", "\n");
        a.read_until("\n");
        srv.stop();
        EXPECT_EQ(srv.log_text(), "") << "standard error";
    }
    std::ifstream f(path);
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(text.starts_with("an earlier line\n")) << text;
    EXPECT_TRUE(has(text, "\"level\":\"info\",\"event\":\"listening\"")) << text;
    EXPECT_TRUE(has(text, "\"event\":\"login\",\"user\":\"alice\",\"protocol\":\"csa\"")) << text;
    EXPECT_TRUE(has(text, "\"event\":\"shutdown\"")) << text;
    std::remove(path.c_str());
}

// A level or a log file the server cannot use is refused in one line naming it, exit 2.
TEST(Operations, BadLogLevelOrLogFileIsRefused) {
    auto [level, level_status] = run_server("--log-level loud");
    EXPECT_EQ(level_status, 2);
    EXPECT_EQ(level, "hisha-server: --log-level is trace, debug, info, warn, error or off, not 'loud'\n");
    auto [file, file_status] = run_server("--log-file /nonexistent/dir/server.log");
    EXPECT_EQ(file_status, 2);
    EXPECT_TRUE(
        has(file, "--log-file cannot be written (No such file or directory), not '/nonexistent/dir/server.log'"))
        << file;
    EXPECT_NE(access("/nonexistent/dir", F_OK), 0) << "no directory is made for it";
}

// A failure that stops the server is said on stderr as before, and with --log-file the log
// file has it too, as an error event.
TEST(Operations, StartupFailuresReachTheLogFile) {
    std::string path = temp_db("ops_log_failure") + ".log";
    std::remove(path.c_str());
    auto [out, status] =
        run_server("--db sqlite:" + temp_db("ops_log_failure") + " --bind 999.1.1.1 --bots '' --log-file " + path);
    EXPECT_EQ(status, 1) << out;
    EXPECT_TRUE(has(out, "hisha-server: bad address 999.1.1.1")) << out;
    std::ifstream f(path);
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(has(text, "\"level\":\"error\",\"event\":\"listen_failed\",\"protocol\":\"text\"")) << text;
    std::remove(path.c_str());
}
