// `hisha csa`: reads the options, starts the engine, runs the CSA client, prints one line per
// game and a final tally.
#include "csa_command.h"

#include <fmt/format.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <unistd.h>
#include <utility>

#include "cli.h"
#include "protocol/csa_client.h"
#include "protocol/engine_player.h"

namespace hisha::app {

namespace {

constexpr const char* USAGE = R"(usage: hisha csa --host HOST --port PORT --user NAME --password PASS [options]
Plays games on a CSA server (protocol 1.2.1: Floodgate, shogi-server, hisha-server) with an engine.
On Floodgate put the game name in the password: --password floodgate-600-10F,SECRET.
Options:
  --host HOST               server (default 127.0.0.1)
  --port PORT               server port (default 4081)
  --user NAME               login name ([0-9A-Za-z_-], at most 32 characters)
  --password PASS           password, or GAME_NAME,PASS; also from $HISHA_CSA_PASSWORD
  --engine CMD              hisha | internal (Hisha's engine in this process, the default), or a USI
                            engine's command line (usi:CMD forces USI)
  --option KEY=VALUE        engine option (USI setoption; internal: Threads, USI_Hash, Skill, ...)
  --games N                 games to play, one login each (default 1; 0: until interrupted)
  --margin MS               kept back from the clock for the network (default 300)
  --depth N | --nodes N     search to a fixed depth / node count instead of by the clock
  --keepalive S             send an empty line after S seconds of silence (default 30)
  --reconnect N             attempts after a refused or dropped connection (default 5)
  --reconnect-delay MS      wait before each attempt (default 5000)
  --comments on|off         send each move with the engine's score (from Black's side) and
                            expected line as Floodgate's comment, +7776FU,'* 120 -3334FU (default on)
  --log FILE                write every line exchanged with the server to FILE (- for stderr)
Output: one line per game, `game GAME_ID black|white win|lose|draw|censored|chudan
REASON moves=N`, then `games=N wins=W losses=L draws=D`. Exit status 0 when every game was played.
Example: hisha csa --host wdoor.c.u-tokyo.ac.jp --user hisha-test --password floodgate-300-10F,SECRET --games 0
)";

extern "C" void on_csa_interrupt(int sig) {
    protocol::ChildProcess::kill_all();
    ::_exit(128 + sig);
}

// The options that take a whole number, with the range they accept.
struct IntOption {
    const char* name;
    int protocol::CsaClientOptions::*field;
    int lo, hi;
};
constexpr IntOption INT_OPTIONS[] = {
    {"--port", &protocol::CsaClientOptions::port, 1, 65535},
    {"--games", &protocol::CsaClientOptions::games, 0, 1000000},
    {"--margin", &protocol::CsaClientOptions::margin_ms, 0, 60000},
    {"--depth", &protocol::CsaClientOptions::depth, 1, 100},
    {"--nodes", &protocol::CsaClientOptions::nodes, 1, 2000000000},
    {"--keepalive", &protocol::CsaClientOptions::keepalive_s, 1, 3600},
    {"--reconnect", &protocol::CsaClientOptions::reconnects, 0, 1000000},
    {"--reconnect-delay", &protocol::CsaClientOptions::reconnect_delay_ms, 0, 3600000},
};

// The arguments, read and checked: -1 to go on, else the exit status (0 after --help, 2 when
// an argument is refused, with the reason on stderr).
int read_args(int argc, char** argv, protocol::CsaClientOptions& opt, protocol::EngineSpec& spec,
              std::string& log_path) {
    Cli cli("hisha csa", USAGE);
    for (const IntOption& o : INT_OPTIONS)
        cli.whole(o.name, opt.*o.field, std::uint64_t(o.lo), std::uint64_t(o.hi),
                  fmt::format("needs a whole number {}..{}", o.lo, o.hi));
    cli.text("--host", opt.host);
    cli.text("--user", opt.user);
    cli.text("--password", opt.password);
    cli.text("--engine", spec.command);
    cli.text("--log", log_path);
    cli.option("--option", [&spec](const std::string& v) {
        auto eq = v.find('=');
        if (eq == std::string::npos || eq == 0)
            return refusal("--option", "wants KEY=VALUE", v);
        spec.options.emplace_back(v.substr(0, eq), v.substr(eq + 1));
        return std::string();
    });
    cli.option("--comments", [&opt](const std::string& v) {
        opt.comments = v == "on";
        return v == "on" || v == "off" ? std::string() : refusal("--comments", "is on or off", v);
    });
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    auto name_ok = [](const std::string& s) {
        if (s.empty() || s.size() > 32)
            return false;
        for (unsigned char c : s)
            if (!std::isalnum(c) && c != '_' && c != '-' && c != '@' && c != '.')
                return false;
        return true;
    };
    if (!name_ok(opt.user)) {
        std::cerr << "hisha csa: --user NAME is needed: [0-9A-Za-z_-], at most 32 characters\n";
        return 2;
    }
    if (opt.password.empty() || opt.password.find_first_of(" \t\r\n") != std::string::npos) {
        std::cerr << "hisha csa: --password PASS is needed (no spaces)\n";
        return 2;
    }
    return -1;
}

// Each game's outcome, then the totals.
void print_outcomes(const protocol::CsaClient& client) {
    int wins = 0, losses = 0, draws = 0;
    for (auto& o : client.outcomes()) {
        std::cout << "game " << o.game_id << " " << (o.me == core::BLACK ? "black" : "white") << " " << o.result << " "
                  << (o.reason.empty() ? "-" : o.reason) << " moves=" << o.plies << "\n";
        wins += o.result == "win";
        losses += o.result == "lose";
        draws += o.result == "draw" || o.result == "censored";
    }
    std::cout << "games=" << client.outcomes().size() << " wins=" << wins << " losses=" << losses << " draws=" << draws
              << std::endl;
}

}  // namespace

int csa_command(int argc, char** argv) {
    protocol::CsaClientOptions opt;
    protocol::EngineSpec spec;
    spec.name = "engine";
    spec.command = "hisha";
    std::string log_path;
    if (const char* pw = std::getenv("HISHA_CSA_PASSWORD"))
        opt.password = pw;
    if (int status = read_args(argc, argv, opt, spec, log_path); status >= 0)
        return status;
    std::ofstream log_file;
    auto log_mutex = std::make_shared<std::mutex>();
    if (log_path == "-") {
        opt.log = [log_mutex](const std::string& line) {
            std::lock_guard lock(*log_mutex);
            std::cerr << line << "\n";
        };
    } else if (!log_path.empty()) {
        log_file.open(log_path, std::ios::app);
        if (!log_file) {
            std::cerr << "hisha csa: cannot write " << log_path << "\n";
            return 1;
        }
        opt.log = [log_mutex, &log_file](const std::string& line) {
            std::lock_guard lock(*log_mutex);
            log_file << line << "\n" << std::flush;
        };
    }
    std::signal(SIGINT, on_csa_interrupt);
    std::signal(SIGTERM, on_csa_interrupt);
    auto player = protocol::make_player(spec);
    if (auto r = player->start(); !r) {
        std::cerr << "hisha csa: " << r.error() << "\n";
        return 1;
    }
    protocol::CsaClient client(opt, *player);
    auto result = client.run();
    print_outcomes(client);
    player->quit();
    if (!result) {
        std::cerr << "hisha csa: " << result.error() << "\n";
        return 1;
    }
    return 0;
}

const Subcommand CSA = {"csa", csa_command, nullptr};

}  // namespace hisha::app
