// `hisha puzzles [--max-plies N] [--nodes N] [--out FILE] RECORD|DIR...`: walks every position
// of each game record (KIF, KI2, CSA, PSN ...; directories recursively, in name order) and writes
// one puzzle line per position where the side to move has a unique mate of 1..N plies
// (puzzle/puzzle.h): id, sfen, solution, length, source, ply, tab-separated. The same records
// give the same file.
#include "puzzles_command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "cli.h"
#include "core/rules.h"
#include "notation/formats.h"
#include "notation/usi.h"
#include "puzzle/puzzle.h"
#include "read_file.h"

namespace hisha::app {

const char* const PUZZLES_USAGE =
    "usage: hisha puzzles [--max-plies N] [--nodes N] [--out FILE] RECORD|DIR...\n"
    "  tsume puzzles from played games: every position of each record (KIF, KI2, CSA, PSN ...;\n"
    "  directories are read recursively) where the side to move has a mate of 1..N plies (default\n"
    "  7) that the solver proves shortest, and no other first move mates within as many plies\n"
    "  (proven move by move; a move the solver cannot decide within --nodes, default 100000 a\n"
    "  solve, rejects the position). Writes one line a puzzle (stdout, or --out FILE): id, sfen,\n"
    "  solution (USI moves), length, source, ply, tab-separated; a summary goes to stderr.\n"
    "  hisha-server --puzzles FILE serves them.\n"
    "  example: hisha puzzles --max-plies 5 --out puzzles.tsv games/\n";

namespace {

struct Options {
    int max_plies = 7;
    std::uint64_t nodes = 100000;
    std::string out;
    std::vector<std::string> inputs;
};

struct Tally {
    int records = 0, unreadable = 0, positions = 0, puzzles = 0, not_unique = 0, undecided = 0;
};

std::vector<std::filesystem::path> record_files(const std::vector<std::string>& inputs) {
    std::vector<std::filesystem::path> files;
    for (const std::string& in : inputs) {
        std::error_code ec;
        if (!std::filesystem::is_directory(in, ec)) {
            files.emplace_back(in);
            continue;
        }
        std::vector<std::filesystem::path> found;
        for (const auto& e : std::filesystem::recursive_directory_iterator(in, ec))
            if (e.is_regular_file() && notation::format_from_extension(e.path().string()))
                found.push_back(e.path());
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

// The puzzles of one game, in ply order; `seen` holds the ids written so far.
void game_puzzles(const std::string& source, const notation::GameRecord& rec, const Options& opt, tsume::Solver& solver,
                  std::set<std::string>& seen, Tally& tally, std::ostream& out) {
    auto pos = notation::start_position(rec);
    const std::vector<core::Move> line = rec.main_line();
    const puzzle::Budget budget{opt.nodes, 16};
    for (std::size_t ply = 0;; ++ply) {
        ++tally.positions;
        puzzle::Found f = puzzle::find(*pos, opt.max_plies, solver, budget);
        tally.not_unique += f.verdict == puzzle::Verdict::NotUnique;
        tally.undecided += f.verdict == puzzle::Verdict::Undecided;
        if (f.verdict == puzzle::Verdict::Puzzle) {
            puzzle::Puzzle p;
            p.sfen = pos->sfen();
            p.id = puzzle::puzzle_id(p.sfen);
            for (core::Move m : f.solution)
                p.solution.push_back(notation::write_usi_move(m));
            p.length = int(p.solution.size());
            p.source = source;
            p.ply = int(ply);
            if (seen.insert(p.id).second) {
                out << puzzle::to_line(p) << '\n';
                ++tally.puzzles;
            }
        }
        if (ply == line.size() || !pos->is_legal(line[ply]))
            break;
        pos->play(line[ply]);
    }
}

int run(const Options& opt) {
    std::ofstream file;
    if (!opt.out.empty()) {
        file.open(opt.out, std::ios::binary);
        if (!file) {
            std::fprintf(stderr, "hisha puzzles: cannot write %s\n", opt.out.c_str());
            return 1;
        }
    }
    std::ostream& out = opt.out.empty() ? std::cout : file;
    tsume::Solver solver;
    std::set<std::string> seen;
    Tally tally;
    for (const auto& f : record_files(opt.inputs)) {
        std::string bytes;
        auto rec =
            read_file(f, bytes) ? notation::read_record(bytes, f.string()) : notation::read_record("", f.string());
        if (!rec) {
            std::fprintf(stderr, "hisha puzzles: %s: %s\n", f.string().c_str(), rec.error().to_string().c_str());
            ++tally.unreadable;
            continue;
        }
        ++tally.records;
        game_puzzles(f.string(), *rec, opt, solver, seen, tally, out);
        out.flush();
    }
    if (!out.flush()) {
        std::fprintf(stderr, "hisha puzzles: cannot write %s\n", opt.out.c_str());
        return 1;
    }
    std::fprintf(stderr, "records=%d unreadable=%d positions=%d puzzles=%d not_unique=%d undecided=%d\n", tally.records,
                 tally.unreadable, tally.positions, tally.puzzles, tally.not_unique, tally.undecided);
    return tally.records > 0 ? 0 : 1;
}

}  // namespace

int puzzles_command(int argc, char** argv) {
    Options opt;
    Cli cli("hisha puzzles", PUZZLES_USAGE);
    cli.whole("--max-plies", opt.max_plies, 1, 15, "needs a number from 1 to 15");
    cli.whole("--nodes", opt.nodes, 1000, 100000000, "needs a number from 1000 to 100000000");
    cli.text("--out", opt.out);
    cli.positionals("RECORD", opt.inputs);
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    if (opt.inputs.empty()) {
        std::fputs(PUZZLES_USAGE, stderr);
        return 2;
    }
    return run(opt);
}

const Subcommand PUZZLES = {"puzzles", puzzles_command, PUZZLES_USAGE};

}  // namespace hisha::app
