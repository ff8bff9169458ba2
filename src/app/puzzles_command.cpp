// `hisha puzzles [--max-plies N] [--nodes N] [--out FILE] [--database URL] RECORD|DIR...`: walks
// every position of each game record (KIF, KI2, CSA, PSN ...; directories recursively, in name
// order; the finished games of a hisha-server database, by id) and writes
// one puzzle line per position where the side to move has a unique mate of 1..N plies
// (puzzle/puzzle.h): id, sfen, solution, length, source, ply, tab-separated. The same records
// give the same file.
#include "puzzles_command.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cli.h"
#include "core/rules.h"
#include "notation/formats.h"
#include "notation/usi.h"
#include "puzzle/puzzle.h"
#include "read_file.h"
#include "server/service/move_record.h"
#include "server/store/games_reader.h"

namespace hisha::app {

const char* const PUZZLES_USAGE =
    "usage: hisha puzzles [--max-plies N] [--nodes N] [--out FILE] [--database URL] [RECORD|DIR...]\n"
    "  tsume puzzles from played games: every position of each record (KIF, KI2, CSA, PSN ...;\n"
    "  directories are read recursively) where the side to move has a mate of 1..N plies (default\n"
    "  7) that the solver proves shortest, and no other first move mates within as many plies\n"
    "  (proven move by move; a move the solver cannot decide within --nodes, default 100000 a\n"
    "  solve, rejects the position). Writes one line a puzzle (stdout, or --out FILE): id, sfen,\n"
    "  solution (USI moves), length, source, ply, tab-separated; a summary goes to stderr.\n"
    "  hisha-server --puzzles FILE serves them. --database URL also reads the finished games of a\n"
    "  hisha-server database (sqlite:PATH or a path, postgresql://...), without changing it; their\n"
    "  source is \"game N\".\n"
    "  example: hisha puzzles --max-plies 5 --out puzzles.tsv games/\n"
    "           hisha puzzles --database /var/lib/hisha/hisha.db --out puzzles.tsv\n";

namespace {

struct Options {
    int max_plies = 7;
    std::uint64_t nodes = 100000;
    std::string out;
    std::string database;  // a hisha-server database's URL (--database)
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

// The puzzles of one game (from `pos`, its moves `line`), in ply order; `seen` holds the ids
// written so far.
void game_puzzles(const std::string& source, std::unique_ptr<core::Position> pos, const std::vector<core::Move>& line,
                  const Options& opt, tsume::Solver& solver, std::set<std::string>& seen, Tally& tally,
                  std::ostream& out) {
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

// The finished games of a hisha-server database (--database), each replayed through the core as
// the server stores it (a handicap's removal, a resignation ...); false when it cannot be read.
bool database_puzzles(const Options& opt, tsume::Solver& solver, std::set<std::string>& seen, Tally& tally,
                      std::ostream& out) {
    std::vector<server::GameRow> games;
    std::string error;
    if (!server::store::read_finished_games(opt.database, games, error)) {
        std::fprintf(stderr, "hisha puzzles: %s\n", error.c_str());
        return false;
    }
    for (const server::GameRow& g : games) {
        core::Game game;
        auto replayed = server::service::replay(g, game);
        std::string source = "game " + std::to_string(g.id);
        if (!replayed.error.empty()) {  // what replays is kept: the positions before the error
            std::fprintf(stderr, "hisha puzzles: %s: %s\n", source.c_str(), replayed.error.c_str());
            ++tally.unreadable;
        }
        auto pos = std::make_unique<core::Position>();
        if (!pos->set(game.start_sfen(), core::SfenRules::Relaxed))
            continue;
        ++tally.records;
        game_puzzles(source, std::move(pos), game.moves(), opt, solver, seen, tally, out);
        out.flush();
    }
    return true;
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
        game_puzzles(f.string(), notation::start_position(*rec), rec->main_line(), opt, solver, seen, tally, out);
        out.flush();
    }
    if (!opt.database.empty() && !database_puzzles(opt, solver, seen, tally, out))
        return 1;
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
    cli.text("--database", opt.database);
    cli.positionals("RECORD", opt.inputs);
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    if (opt.inputs.empty() && opt.database.empty()) {
        std::fputs(PUZZLES_USAGE, stderr);
        return 2;
    }
    return run(opt);
}

const Subcommand PUZZLES = {"puzzles", puzzles_command, PUZZLES_USAGE};

}  // namespace hisha::app
