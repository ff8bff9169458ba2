// `hisha gensfen`: training data from self-play. Each game starts from an opening (a line of
// bench/strength/openings-balanced.txt, or the start position), plays a few random legal moves
// early for variety, then the engine's fixed small search (depth or nodes) for both sides
// (an eighth of the nodes, or half the depth, for the moves before the last random one, whose
// positions are not written).
// Every position after the last random move is written (training_data.h) with the search's
// score and best move and, once the game is over, its result, except positions in check, with
// a mate score, whose best move captures or where the side to move has a capture that wins
// material by static exchange (not quiet: a static evaluation cannot see it).
//
// Resumable: games are numbered and game n is played from seed (seed, n), so a run appends to
// the file and restarts where the last one stopped (FILE.state keeps the next game number) and
// never repeats a game; a record cut short by a crash is dropped.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/result.h"
#include "engine/timeman.h"

namespace hisha::engine::nnue {

struct GensfenOptions {
    std::string out;                 // appended to
    std::uint64_t positions = 0;     // stop when the file holds this many records (0: no target)
    std::uint64_t games = 0;         // stop after this many games in this run (0: no limit)
    double seconds = 0;              // stop after this long (0: no limit)
    int depth = 6;                   // search depth per move (used when nodes is 0)
    std::uint64_t nodes = 0;         // search nodes per move (0: by depth)
    int threads = 1;
    int random_moves = 3;            // random legal moves played ...
    int random_max_ply = 16;         // ... at plies chosen among the first ones after the opening
    int max_plies = 320;             // then a draw
    int eval_limit = 3000;           // a score this far from even for 4 plies decides the game
    std::uint64_t seed = 1;
    std::vector<std::string> openings;  // "startpos moves ..." lines (empty: the start position)
    int hash_mb = 16;
    std::string eval_file;  // generate with this network (Evaluation NNUE); empty: Classic
};

struct GensfenStats {
    std::uint64_t games = 0;          // finished in this run
    std::uint64_t written = 0;        // records written in this run
    std::uint64_t in_file = 0;        // records in the file now
    std::uint64_t searched = 0;       // positions searched
    std::uint64_t skipped_check = 0, skipped_mate = 0, skipped_capture = 0, skipped_random = 0;
    std::uint64_t wins_black = 0, wins_white = 0, draws = 0;
    std::uint64_t dropped_bytes = 0;  // of a record cut short in the file before this run
    std::uint64_t first_game = 0;     // the number of this run's first game
    double seconds = 0;               // wall-clock time of this run
    double cpu_seconds = 0;           // CPU time of this run, all threads (a niced run on a busy
                                      // machine gets little of it: positions per CPU second say
                                      // what the generator costs, positions per second what it got)
};

/// The search of one move: the options' nodes or depth, but an eighth of the nodes (at least
/// 1) or half the depth (rounded up) in the prelude, the moves before the last random one, whose
/// positions are never written: their search only picks the move played.
Limits gensfen_limits(const GensfenOptions& opts, bool prelude);

/// Plays games until a target is reached. `progress` (called about every 2 s and at the end, on
/// the calling thread) receives the stats so far; the result is the final stats or an error
/// (the file cannot be written, the net does not load, an opening does not parse).
core::Result<GensfenStats, std::string> gensfen(const GensfenOptions& opts,
                                                std::function<void(const GensfenStats&)> progress = {});

struct ValidateReport {
    std::uint64_t records = 0, bad = 0;
    std::uint64_t wins = 0, draws = 0, losses = 0;  // results, side to move's view
    double mean_abs_score = 0;
    int min_ply = 0, max_ply = 0;
    std::vector<std::string> errors;  // the first ones: "record N (offset B): why"
};

/// Reads a data file back: every record must decode to a legal position with a legal move.
core::Result<ValidateReport, std::string> validate_file(const std::string& path, int max_errors = 20);

}  // namespace hisha::engine::nnue
