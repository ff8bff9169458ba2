// `hisha tsume [--time-limit S] [--nodes N] [--memory MB] [--convention ordinary|tsume]
// [--stats] [FILE|-]`: reads problems (one SFEN or `position ...` per line, or one record file
// in any format the notation module reads, whose start position is the problem) and prints
// one line per problem: `mate <plies> <usi moves>` | `nomate` | `timeout` (see tsume/solver.h).
#include "tsume_command.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "notation/formats.h"
#include "notation/usi.h"
#include "tsume/solver.h"

namespace hisha::app {

namespace {

int usage() {
    std::fprintf(stderr,
                 "usage: hisha tsume [--time-limit S] [--nodes N] [--memory MB] [--convention ordinary|tsume]\n"
                 "                   [--stats] [FILE|-]\n"
                 "  one problem per line (SFEN or `position ...`; # starts a comment), or a record file\n"
                 "  (KIF, KI2, CSA, PSN ...) whose start position is the problem. Prints per problem:\n"
                 "  mate <plies> <usi moves> | nomate | timeout. --stats adds nodes and time on stderr.\n");
    return 2;
}

struct Options {
    tsume::Limits limits;
    bool stats = false;
    std::unique_ptr<tsume::Solver> solver = std::make_unique<tsume::Solver>();
};

void solve_one(core::Position& pos, const Options& opt) {
    if (opt.limits.convention == tsume::Convention::Tsume)
        tsume::complete_defender_hand(pos);
    tsume::Result r = opt.solver->solve(pos, opt.limits);
    std::printf("%s\n", tsume::format_result(r, opt.limits.convention).c_str());
    std::fflush(stdout);
    if (opt.stats)
        std::fprintf(stderr, "info nodes %llu time_ms %.0f max_depth %d exact %d table_mb %zu\n",
                     (unsigned long long)r.nodes, r.time_s * 1000, r.max_depth, int(r.exact), r.table_bytes >> 20);
}

// A line is an SFEN, `sfen ...` or `position ...` (moves after it are played first).
void solve_line(const std::string& line, const Options& opt) {
    std::size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#')
        return;
    std::string text = line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
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
        std::printf("error %s\n", rec ? "illegal moves" : rec.error().to_string().c_str());
        std::fflush(stdout);
        return;
    }
    solve_one(pos, opt);
}

// True when the first line that is not blank or a comment reads as a position.
bool is_position_list(const std::string& bytes) {
    std::istringstream lines(bytes);
    for (std::string line; std::getline(lines, line);) {
        std::size_t b = line.find_first_not_of(" \t\r");
        if (b == std::string::npos || line[b] == '#')
            continue;
        core::Position pos;
        std::string text = line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
        return bool(notation::parse_usi_position(text)) || bool(pos.set(text, core::SfenRules::Relaxed));
    }
    return false;
}

bool is_record(notation::Format f) {
    return f != notation::Format::Sfen && f != notation::Format::Usi;
}

int solve_file(const std::string& path, const Options& opt) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        std::fprintf(stderr, "hisha tsume: cannot read %s\n", path.c_str());
        return 1;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    std::string bytes = ss.str();
    // A record by its extension, or by its content unless it is a list of positions.
    auto by_ext = notation::format_from_extension(path);
    bool record = by_ext ? is_record(*by_ext) : !is_position_list(bytes) && is_record(notation::detect_format(bytes));
    if (record) {
        auto rec = notation::read_record(bytes, path);
        if (!rec) {
            std::printf("error %s\n", rec.error().to_string().c_str());
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
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        bool has_value = i + 1 < argc;
        if (a == "--time-limit" && has_value)
            opt.limits.time_limit_s = std::atof(argv[++i]);
        else if (a == "--nodes" && has_value)
            opt.limits.max_nodes = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--memory" && has_value)
            opt.limits.memory_mb = std::size_t(std::max(1LL, std::atoll(argv[++i])));
        else if (a == "--convention" && has_value) {
            std::string c = argv[++i];
            if (c != "tsume" && c != "ordinary")
                return usage();
            opt.limits.convention = c == "tsume" ? tsume::Convention::Tsume : tsume::Convention::Ordinary;
        } else if (a == "--stats")
            opt.stats = true;
        else if (a == "-h" || a == "--help")
            return usage();
        else if (!a.empty() && a[0] == '-' && a != "-") {
            std::fprintf(stderr, "hisha tsume: unknown option '%s'\n", a.c_str());
            return usage();
        } else
            in = a;
    }
    if (in != "-")
        return solve_file(in, opt);
    for (std::string line; std::getline(std::cin, line);)
        solve_line(line, opt);
    return 0;
}

}  // namespace hisha::app
