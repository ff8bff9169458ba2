// `hisha match`: reads the options into a MatchConfig, runs the match, prints the table.
#include "match_command.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <unistd.h>

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
)";

struct Parser {
    int argc;
    char** argv;
    int i = 0;
    std::string error;

    bool more() const { return i < argc; }
    std::string next() { return i < argc ? argv[i++] : ""; }
    bool value(const std::string& flag, std::string& out) {
        if (i >= argc) {
            error = flag + " needs a value";
            return false;
        }
        out = argv[i++];
        return true;
    }
    bool number(const std::string& flag, int& out, int min) {
        std::string v;
        if (!value(flag, v))
            return false;
        char* end = nullptr;
        long n = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end || n < min || n > 100000000) {
            error = flag + ": bad number '" + v + "'";
            return false;
        }
        out = int(n);
        return true;
    }
};

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

bool parse_sprt(Parser& p, MatchConfig& c) {
    match::SprtParams s;
    int seen = 0;
    while (p.more() && std::strchr(p.argv[p.i], '=') && std::strncmp(p.argv[p.i], "--", 2) != 0) {
        std::string kv = p.next();
        std::string k = kv.substr(0, kv.find('=')), v = kv.substr(kv.find('=') + 1);
        double x = std::strtod(v.c_str(), nullptr);
        if (k == "elo0")
            s.elo0 = x;
        else if (k == "elo1")
            s.elo1 = x;
        else if (k == "alpha")
            s.alpha = x;
        else if (k == "beta")
            s.beta = x;
        else {
            p.error = "--sprt: unknown parameter " + k;
            return false;
        }
        ++seen;
    }
    if (seen == 0 || s.alpha <= 0 || s.alpha >= 1 || s.beta <= 0 || s.beta >= 1 || s.elo0 >= s.elo1) {
        p.error = "--sprt needs elo0 < elo1 and 0 < alpha, beta < 1";
        return false;
    }
    c.sprt = s;
    return true;
}

bool parse_engine(Parser& p, MatchConfig& c) {
    std::string v;
    if (!p.value("--engine", v))
        return false;
    auto eq = v.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == v.size()) {
        p.error = "--engine wants NAME=CMD, got '" + v + "'";
        return false;
    }
    match::EngineConfig e;
    e.spec.name = v.substr(0, eq);
    e.spec.command = v.substr(eq + 1);
    if (find_engine(c, e.spec.name)) {
        p.error = "two engines named " + e.spec.name;
        return false;
    }
    c.engines.push_back(std::move(e));
    return true;
}

bool parse_resign(Parser& p, MatchConfig& c) {
    std::string v;
    if (!p.value("--resign", v))
        return false;
    int score = 0, moves = 0;
    if (std::sscanf(v.c_str(), "%d:%d", &score, &moves) != 2 || score <= 0 || moves <= 0) {
        p.error = "--resign wants SCORE:MOVES (e.g. 1500:3)";
        return false;
    }
    c.settings.adjudication = match::Adjudication{score, moves};
    return true;
}

// One option; false with p.error set on a bad one.
bool parse_option(Parser& p, const std::string& flag, MatchConfig& c, Pending& pending) {
    std::string v;
    auto& s = c.settings;
    if (flag == "--engine")
        return parse_engine(p, c);
    if (flag == "--sprt")
        return parse_sprt(p, c);
    if (flag == "--resign")
        return parse_resign(p, c);
    if (flag == "--games")
        return p.number(flag, c.games, 1);
    if (flag == "--concurrency")
        return p.number(flag, c.concurrency, 1);
    if (flag == "--max-plies")
        return p.number(flag, s.rules.max_plies, 0);
    if (flag == "--move-timeout")
        return p.number(flag, s.move_timeout_ms, 1);
    if (flag == "--grace")
        return p.number(flag, s.grace_ms, 0);
    if (flag == "--opening-plies")
        return p.number(flag, pending.opening_plies, 0);
    if (flag == "--gauntlet" || flag == "--round-robin") {
        c.tournament = flag == "--gauntlet" ? match::Tournament::Gauntlet : match::Tournament::RoundRobin;
        return true;
    }
    if (flag == "--quiet") {
        c.verbose = false;
        return true;
    }
    if (flag == "--startup-timeout") {
        int ms = 0;
        if (!p.number(flag, ms, 1))
            return false;
        pending.options.emplace_back("", "startup-timeout=" + std::to_string(ms));
        return true;
    }
    bool takes_value = false;
    for (const char* f : {"--out", "--log", "--openings", "--at-max", "--option", "--tc", "--margin"})
        takes_value = takes_value || flag == f;
    if (!takes_value) {
        p.error = "unknown option " + flag;
        return false;
    }
    if (!p.value(flag, v))
        return false;
    if (flag == "--out")
        c.out_dir = v;
    else if (flag == "--log")
        pending.log = v;
    else if (flag == "--openings")
        pending.openings.push_back(v);
    else if (flag == "--at-max" && (v == "draw" || v == "count"))
        s.rules.limit_counts_impasse = v == "count";
    else if (flag == "--option" || flag == "--tc" || flag == "--margin") {
        auto colon = v.find(':'), eq = v.find('=');
        bool named = colon != std::string::npos && (eq == std::string::npos || colon < eq);
        if (flag == "--option" && !named) {
            p.error = "--option wants NAME:KEY=VALUE";
            return false;
        }
        (flag == "--option" ? pending.options
         : flag == "--tc"   ? pending.tcs
                            : pending.margins)
            .emplace_back(named ? v.substr(0, colon) : "", named ? v.substr(colon + 1) : v);
    } else {
        p.error = flag == "--at-max" ? "--at-max wants draw or count" : "unknown option " + flag;
        return false;
    }
    return true;
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
    Parser p{argc, argv, 0, {}};
    while (p.more()) {
        std::string flag = p.next();
        if (flag == "--help" || flag == "-h") {
            std::cout << USAGE;
            return 0;
        }
        if (!parse_option(p, flag, config, pending)) {
            std::cerr << "hisha match: " << p.error << "\n" << USAGE;
            return 2;
        }
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
