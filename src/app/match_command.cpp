// `hisha match`: reads the options into a MatchConfig, runs the match, prints the table.
#include "match_command.h"

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
#include <vector>

#include "cli.h"
#include "match/match.h"

namespace hisha::app {

namespace {

using match::MatchConfig;

constexpr const char* USAGE = R"(usage: hisha match --engine NAME=CMD --engine NAME=CMD [options]
Engines (CMD):
  hisha | internal          Hisha's engine in this process
  gnushogi [ARGS]           GNU Shogi through its own (xshogi) protocol; also xshogi:CMD
  any other command line    a USI engine (usi:CMD forces USI)
Options:
  --option NAME:KEY=VALUE   USI setoption for engine NAME (gnushogi: book=PATH|off, random=on|off,
                            args=...; internal: any Hisha option, e.g. USI_Hash=16)
  --games N                 games per pair (default 2); each opening is played once with each colour
  --tc TC | --tc NAME:TC    time control, for all engines or one: st=1 (seconds a move), 600b10
                            (byoyomi), 300i5 (Fischer), 40/300 (moves in time), depth=6, nodes=100000
  --concurrency K           games played at once (default 1)
  --openings FILE|DIR       SFEN / USI position lines, handicap names, or game records (KIF, KI2,
                            CSA, PSN); may be repeated
  --opening-plies N         play at most N moves of each opening
  --out DIR                 write every game as DIR/NNNN-black-vs-white.kif and .csa, and games.txt
  --sprt elo0=A elo1=B alpha=X beta=Y   sequential test on the first pair; stops when it decides
  --resign SCORE:MOVES      adjudicate a loss for an engine whose score is <= -SCORE for MOVES moves
  --max-plies N             end games after N plies (default 512; 0: no limit)
  --at-max draw|count       at the limit: a draw (default) or the 24-point impasse count
  --margin MS | NAME:MS     latency allowed past the clock, for all engines or one (default 100)
  --move-timeout MS         the wait for a move under depth=/nodes= controls (default 60000)
  --grace MS                after the deadline and `stop`, how long a late answer is awaited (default 1000)
  --startup-timeout MS      for usiok/readyok/the banner (default 10000)
  --gauntlet | --round-robin   with more than two engines (default: round robin)
  --log FILE                write every line exchanged with the engines to FILE
  --quiet                   no line per game, only the final table
  --version                 the version
example: hisha match --engine a=hisha --engine b=gnushogi --tc st=1 --games 20 --out games/
)";

struct Pending {
    std::vector<std::pair<std::string, std::string>> options;  // "NAME", "KEY=VALUE"
    std::vector<std::pair<std::string, std::string>> tcs;      // "" or NAME, TC
    std::vector<std::pair<std::string, std::string>> margins;  // "" or NAME, MS
    std::vector<std::string> openings;
    int opening_plies = 0;
    std::string log;
};

match::EngineConfig* find_engine(MatchConfig& c, const std::string& name) {
    for (auto& e : c.engines)
        if (e.spec.name == name)
            return &e;
    return nullptr;
}

std::string parse_sprt(const std::vector<std::string>& words, MatchConfig& c) {
    match::SprtParams s;
    for (const std::string& kv : words) {
        auto eq = kv.find('=');
        std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
        double x = std::strtod(v.c_str(), nullptr);
        if (k == "elo0")
            s.elo0 = x;
        else if (k == "elo1")
            s.elo1 = x;
        else if (k == "alpha")
            s.alpha = x;
        else if (k == "beta")
            s.beta = x;
        else
            return "--sprt: unknown parameter '" + kv + "'";
    }
    if (words.empty() || s.alpha <= 0 || s.alpha >= 1 || s.beta <= 0 || s.beta >= 1 || s.elo0 >= s.elo1)
        return "--sprt needs elo0 < elo1 and 0 < alpha, beta < 1";
    c.sprt = s;
    return {};
}

std::string parse_engine(const std::string& v, MatchConfig& c) {
    auto eq = v.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
        return "--engine wants NAME=CMD, not '" + v + "'";
    match::EngineConfig e;
    e.spec.name = v.substr(0, eq);
    e.spec.command = v.substr(eq + 1);
    if (find_engine(c, e.spec.name))
        return "two engines named " + e.spec.name;
    c.engines.push_back(std::move(e));
    return {};
}

std::string parse_resign(const std::string& v, MatchConfig& c) {
    int score = 0, moves = 0;
    char rest = 0;
    if (std::sscanf(v.c_str(), "%d:%d%c", &score, &moves, &rest) != 2 || score <= 0 || moves <= 0)
        return refusal("--resign", "wants SCORE:MOVES (e.g. 1500:3)", v);
    c.settings.adjudication = match::Adjudication{score, moves};
    return {};
}

// `NAME:VALUE` or `VALUE` of --option, --tc and --margin, into `list`.
std::string named_value(const char* flag, const std::string& v,
                        std::vector<std::pair<std::string, std::string>>& list) {
    auto colon = v.find(':'), eq = v.find('=');
    bool named = colon != std::string::npos && (eq == std::string::npos || colon < eq);
    if (std::string(flag) == "--option" && !named)
        return refusal("--option", "wants NAME:KEY=VALUE", v);
    list.emplace_back(named ? v.substr(0, colon) : "", named ? v.substr(colon + 1) : v);
    return {};
}

// The options of `hisha match`, read into the config and what is applied once all engines are known.
void add_options(Cli& cli, MatchConfig& c, Pending& pending, std::vector<std::string>& sprt) {
    auto& s = c.settings;
    cli.option("--engine", [&c](const std::string& v) { return parse_engine(v, c); });
    cli.app().add_option("--sprt", sprt)->expected(1, 4);
    cli.option("--resign", [&c](const std::string& v) { return parse_resign(v, c); });
    auto number = [&cli](const char* name, int& out, int min) {
        cli.whole(name, out, std::uint64_t(min), 100000000, fmt::format("needs a whole number {}..100000000", min));
    };
    number("--games", c.games, 1);
    number("--concurrency", c.concurrency, 1);
    number("--max-plies", s.rules.max_plies, 0);
    number("--move-timeout", s.move_timeout_ms, 1);
    number("--grace", s.grace_ms, 0);
    number("--opening-plies", pending.opening_plies, 0);
    cli.flag("--gauntlet", [&c] { c.tournament = match::Tournament::Gauntlet; });
    cli.flag("--round-robin", [&c] { c.tournament = match::Tournament::RoundRobin; });
    cli.flag("--quiet", [&c] { c.verbose = false; });
    cli.option("--startup-timeout", [&pending](const std::string& v) {
        auto ms = whole_in(v, 1, 100000000);
        if (!ms)
            return refusal("--startup-timeout", "needs a whole number 1..100000000", v);
        pending.options.emplace_back("", "startup-timeout=" + std::to_string(*ms));
        return std::string();
    });
    cli.option("--out", [&c](const std::string& v) { return c.out_dir = v, std::string(); });
    cli.text("--log", pending.log);
    cli.option("--openings", [&pending](const std::string& v) { return pending.openings.push_back(v), std::string(); });
    cli.option("--at-max", [&s](const std::string& v) {
        s.rules.limit_counts_impasse = v == "count";
        return v == "draw" || v == "count" ? std::string() : refusal("--at-max", "wants draw or count", v);
    });
    cli.option("--option", [&pending](const std::string& v) { return named_value("--option", v, pending.options); });
    cli.option("--tc", [&pending](const std::string& v) { return named_value("--tc", v, pending.tcs); });
    cli.option("--margin", [&pending](const std::string& v) { return named_value("--margin", v, pending.margins); });
}

// Options and controls that name an engine are applied once all engines are known.
bool apply_pending(MatchConfig& c, Pending& pending, std::string& error) {
    int startup = 10000;
    for (auto& [name, kv] : pending.options) {
        if (name.empty()) {
            startup = std::atoi(kv.c_str() + kv.find('=') + 1);
            continue;
        }
        auto* e = find_engine(c, name);
        auto eq = kv.find('=');
        if (!e || eq == std::string::npos || eq == 0) {
            error = !e ? "--option: no engine named " + name : "--option wants NAME:KEY=VALUE";
            return false;
        }
        e->spec.options.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    bool any_tc = false;
    for (int pass = 0; pass < 2; ++pass)  // global controls first, then the named ones
        for (auto& [name, text] : pending.tcs) {
            if (name.empty() != (pass == 0))
                continue;
            auto tc = match::parse_time_control(text);
            if (!tc) {
                error = tc.error();
                return false;
            }
            any_tc = true;
            auto* one = name.empty() ? nullptr : find_engine(c, name);
            if (!name.empty() && !one) {
                error = "--tc: no engine named " + name;
                return false;
            }
            for (auto& e : c.engines)
                if (!one || &e == one)
                    e.tc = *tc;
        }
    if (!any_tc) {
        error = "--tc is required (e.g. --tc st=1 or --tc depth=4)";
        return false;
    }
    for (auto& e : c.engines)
        e.spec.startup_timeout_ms = startup;
    return true;
}

// --margin MS for every engine, then --margin NAME:MS for one.
bool apply_margins(MatchConfig& c, const Pending& pending, std::string& error) {
    for (int pass = 0; pass < 2; ++pass)
        for (const auto& [name, text] : pending.margins) {
            if (name.empty() != (pass == 0))
                continue;
            char* end = nullptr;
            long ms = std::strtol(text.c_str(), &end, 10);
            auto* one = name.empty() ? nullptr : find_engine(c, name);
            if (text.empty() || *end || ms < 0 || ms > 600000 || (!name.empty() && !one)) {
                error = !name.empty() && !one ? "--margin: no engine named " + name : "--margin: bad value " + text;
                return false;
            }
            for (auto& e : c.engines)
                if (!one || &e == one)
                    e.margin_ms = int(ms);
        }
    return true;
}

bool load_openings(MatchConfig& c, const Pending& pending, std::string& error) {
    for (const auto& path : pending.openings) {
        auto r = match::load_openings(path, pending.opening_plies);
        if (!r) {
            error = r.error();
            return false;
        }
        c.openings.insert(c.openings.end(), r->begin(), r->end());
    }
    return true;
}

void install_traffic_log(MatchConfig& c, const std::string& path) {
    if (path.empty())
        return;
    auto file = std::make_shared<std::ofstream>(path, std::ios::app);
    auto mutex = std::make_shared<std::mutex>();
    auto t0 = protocol::SteadyClock::now();
    for (auto& e : c.engines)
        e.spec.log = [file, mutex, t0](const std::string& line) {
            std::lock_guard lock(*mutex);
            *file << protocol::elapsed_ms_since(t0) << ' ' << line << '\n';
            file->flush();
        };
}

extern "C" void on_interrupt(int sig) {
    protocol::ChildProcess::kill_all();
    ::_exit(128 + sig);
}

}  // namespace

int match_command(int argc, char** argv) {
    MatchConfig config;
    config.settings.rules.max_plies = 512;
    Pending pending;
    std::vector<std::string> sprt;
    Cli cli("hisha match", USAGE);
    add_options(cli, config, pending, sprt);
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    if (!sprt.empty())
        if (std::string e = parse_sprt(sprt, config); !e.empty()) {
            std::cerr << "hisha match: " << e << "\n";
            return 2;
        }
    std::string error;
    if (config.engines.size() < 2)
        error = "at least two --engine NAME=CMD are needed";
    if (error.empty() && apply_pending(config, pending, error) && apply_margins(config, pending, error))
        load_openings(config, pending, error);
    if (!error.empty()) {
        std::cerr << "hisha match: " << error << "\n";
        return 2;
    }
    install_traffic_log(config, pending.log);
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
    match::Match m(config, std::cout);
    if (auto r = m.check(); !r) {
        std::cerr << "hisha match: " << r.error() << "\n";
        return 1;
    }
    match::MatchResult result = m.run();
    std::cout << "\n" << match::format_results(result, config);
    return 0;
}

const Subcommand MATCH = {"match", match_command, nullptr};

}  // namespace hisha::app
