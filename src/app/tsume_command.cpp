// `hisha tsume [--time-limit S] [--cpu-time] [--nodes N] [--memory MB] [--convention ordinary|tsume]
// [--stats] [--verify] [--explain] [--explain-budget N|Ns] [--format text|json] [FILE|-]`: reads
// problems (one SFEN or `position ...` per line, or one record file in any format the notation
// module reads, whose start position is the problem) and prints one line per problem:
// `mate <plies> <usi moves>` | `nomate` | `timeout` (see tsume/solver.h); with --explain the
// other defences and the yozume report follow (tsume/explain.h); --format json prints one JSON
// object a line instead.
#include "tsume_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "notation/formats.h"
#include "notation/usi.h"
#include "read_file.h"
#include "tsume/explain.h"
#include "tsume/solver.h"
#include "tsume/verify.h"

namespace hisha::app {

const char* const TSUME_USAGE =
    "usage: hisha tsume [--time-limit S] [--cpu-time] [--nodes N] [--memory MB]\n"
    "                   [--convention ordinary|tsume] [--stats] [--verify]\n"
    "                   [--explain] [--explain-budget N|Ns] [--format text|json] [FILE|-]\n"
    "  one problem per line (SFEN or `position ...`; # starts a comment), or a record file\n"
    "  (KIF, KI2, CSA, PSN ...) whose start position is the problem. Prints per problem:\n"
    "  mate <plies> <usi moves> | nomate | timeout. --cpu-time: the limit counts CPU time, not\n"
    "  wall time. --stats adds nodes and time on stderr (and positions: the positions made, leaf\n"
    "  tests included, the count YaneuraOu-based solvers report as nodes);\n"
    "  --verify replays each mating line through the rules and reports `verify ok` or\n"
    "  `verify error <reason>` on stderr.\n"
    "  --explain: after the line, each other defence on it with the mate the solver proves after\n"
    "  it (or `futile interposition` under --convention tsume), and the yozume report: other\n"
    "  attacker's moves that mate within the plies left. Each such question is a solve bounded by\n"
    "  --explain-budget: N nodes or Ns seconds (default 1000000 nodes); one that runs out is\n"
    "  printed as timeout/undecided. --format json: one JSON object per problem.\n"
    "  example: echo '4k4/9/4P4/9/9/9/9/9/4K4 b G 1' | hisha tsume -\n";

namespace {


// A problem that cannot be read: `error <reason>`, or its JSON form.
void print_error(const std::string& why, bool json) {
    if (json) {
        tsume::Explanation e;
        e.main.status = tsume::Status::Error;
        e.main.error = why;
        std::printf("%s\n", tsume::explanation_json(e).c_str());
    } else {
        std::printf("error %s\n", why.c_str());
    }
    std::fflush(stdout);
}

int usage() {
    std::fputs(TSUME_USAGE, stderr);
    return 2;
}

struct Options {
    tsume::Limits limits;
    bool stats = false;
    bool verify = false;
    bool explain = false;
    bool json = false;
    tsume::ExplainBudget budget;
    std::unique_ptr<tsume::Solver> solver = std::make_unique<tsume::Solver>();
};

void solve_one(core::Position& pos, const Options& opt) {
    if (opt.limits.convention == tsume::Convention::Tsume)
        tsume::complete_defender_hand(pos);
    tsume::Result r;
    if (opt.explain || opt.json) {
        tsume::Explanation e;
        if (opt.explain) {
            e = tsume::explain(pos, opt.limits, opt.budget, *opt.solver);
        } else {
            e.convention = opt.limits.convention;
            e.main = opt.solver->solve(pos, opt.limits);
            e.nodes = e.main.nodes;
            e.time_s = e.main.time_s;
        }
        r = e.main;
        std::string text = opt.json ? tsume::explanation_json(e) + "\n" : tsume::explanation_text(e);
        std::fputs(text.c_str(), stdout);
    } else {
        r = opt.solver->solve(pos, opt.limits);
        std::printf("%s\n", tsume::format_result(r, opt.limits.convention).c_str());
    }
    std::fflush(stdout);
    if (opt.stats)
        std::fprintf(stderr,
                     "info nodes %llu time_ms %.0f cpu_ms %.0f max_depth %d exact %d table_mb %zu positions %llu\n",
                     (unsigned long long)r.nodes, r.time_s * 1000, r.cpu_time_s * 1000, r.max_depth, int(r.exact),
                     r.table_bytes >> 20, (unsigned long long)r.positions);
    if (opt.verify && !r.pv.empty()) {
        std::string why = tsume::line_error(pos, r.pv, int(r.pv.size()), opt.limits.convention);
        if (why.empty() && r.status == tsume::Status::Mate && int(r.pv.size()) != r.length)
            why = "the line has " + std::to_string(r.pv.size()) + " moves, the length says " + std::to_string(r.length);
        std::fprintf(stderr, "verify %s\n", why.empty() ? "ok" : ("error " + why).c_str());
    }
}

// The problem a line of a list states, without the blanks around it; nothing for a blank line
// or a comment (# first).
std::optional<std::string> problem_text(const std::string& line) {
    std::size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#')
        return std::nullopt;
    return line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
}

// A line is an SFEN, `sfen ...` or `position ...` (moves after it are played first).
void solve_line(const std::string& line, const Options& opt) {
    auto problem = problem_text(line);
    if (!problem)
        return;
    const std::string& text = *problem;
    auto rec = notation::parse_usi_position(text);
    if (rec) {
        auto pos = notation::final_position(*rec);
        if (pos) {
            solve_one(**pos, opt);
            return;
        }
    }
    // Composed problems may hold more pieces of a kind than a set: try the relaxed rules.
    core::Position pos;
    if (auto r = pos.set(text, core::SfenRules::Relaxed); !r) {
        print_error(rec ? "illegal moves" : rec.error().to_string(), opt.json);
        return;
    }
    solve_one(pos, opt);
}

// True when the first line that is not blank or a comment reads as a position.
bool is_position_list(const std::string& bytes) {
    std::istringstream lines(bytes);
    for (std::string line; std::getline(lines, line);) {
        auto text = problem_text(line);
        if (!text)
            continue;
        core::Position pos;
        return bool(notation::parse_usi_position(*text)) || bool(pos.set(*text, core::SfenRules::Relaxed));
    }
    return false;
}

bool is_record(notation::Format f) { return f != notation::Format::Sfen && f != notation::Format::Usi; }

int solve_file(const std::string& path, const Options& opt) {
    std::string bytes;
    if (!read_file(path, bytes)) {
        std::fprintf(stderr, "hisha tsume: cannot read %s\n", path.c_str());
        return 1;
    }
    // A record by its extension, or by its content unless it is a list of positions.
    auto by_ext = notation::format_from_extension(path);
    bool record = by_ext ? is_record(*by_ext) : !is_position_list(bytes) && is_record(notation::detect_format(bytes));
    if (record) {
        auto rec = notation::read_record(bytes, path);
        if (!rec) {
            print_error(rec.error().to_string(), opt.json);
            return 1;
        }
        solve_one(*notation::start_position(*rec), opt);
        return 0;
    }
    std::istringstream lines(bytes);
    for (std::string line; std::getline(lines, line);)
        solve_line(line, opt);
    return 0;
}

}  // namespace

int tsume_command(int argc, char** argv) {
    Options opt;
    std::string in = "-";
    std::vector<std::string> files;
    Cli cli("hisha tsume", TSUME_USAGE);
    auto number = [&cli](const char* name, double min, auto set) {
        cli.option(name, [=](const std::string& v) {
            auto x = number_in(v, min, 1e15);
            if (!x)
                return refusal(name, fmt::format("needs a number of at least {:g}", min), v);
            set(*x);
            return std::string();
        });
    };
    number("--time-limit", 0, [&opt](double v) { opt.limits.time_limit_s = v; });
    number("--nodes", 0, [&opt](double v) { opt.limits.max_nodes = std::uint64_t(v); });
    number("--memory", 1, [&opt](double v) { opt.limits.memory_mb = std::size_t(v); });
    cli.option("--convention", [&opt](const std::string& c) {
        if (c != "tsume" && c != "ordinary")
            return refusal("--convention", "is ordinary or tsume", c);
        opt.limits.convention = c == "tsume" ? tsume::Convention::Tsume : tsume::Convention::Ordinary;
        return std::string();
    });
    cli.flag("--stats", [&opt] { opt.stats = true; });
    cli.flag("--verify", [&opt] { opt.verify = true; });
    cli.flag("--cpu-time", [&opt] { opt.limits.cpu_time = true; });
    cli.flag("--explain", [&opt] { opt.explain = true; });
    cli.option("--explain-budget", [&opt](const std::string& v) {
        bool seconds = !v.empty() && v.back() == 's';
        auto x = number_in(seconds ? v.substr(0, v.size() - 1) : v, seconds ? 0.001 : 1, 1e15);
        if (!x)
            return refusal("--explain-budget", "is a number of nodes (at least 1) or of seconds (Ns)", v);
        opt.budget = seconds ? tsume::ExplainBudget{0, *x} : tsume::ExplainBudget{std::uint64_t(*x), 0};
        return std::string();
    });
    cli.option("--format", [&opt](const std::string& f) {
        if (f != "text" && f != "json")
            return refusal("--format", "is text or json", f);
        opt.json = f == "json";
        return std::string();
    });
    cli.positionals("FILE", files);
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    if (files.size() > 1)
        return usage();
    if (!files.empty())
        in = files[0];
    if (in != "-")
        return solve_file(in, opt);
    for (std::string line; std::getline(std::cin, line);)
        solve_line(line, opt);
    return 0;
}

const Subcommand TSUME = {"tsume", tsume_command, TSUME_USAGE};

}  // namespace hisha::app
