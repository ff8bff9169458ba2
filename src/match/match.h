// Matches and tournaments: two engines, a gauntlet (the first engine against each other one)
// or a round robin (every pair), each pair playing every opening once with each colour.
// Games run `concurrency` at a time, each worker with its own engine processes. After each
// game a progress line shows the pair's W/L/D, score and Elo so far; at the end a table per
// pair gives W/L/D, score, Elo with its 95% interval and LOS, and an optional SPRT stops the
// match once it decides. Every game can be written as KIF and CSA.
#pragma once

#include <atomic>
#include <iosfwd>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "elo.h"
#include "openings.h"
#include "protocol/engine_player.h"
#include "referee.h"
#include "time_control.h"

namespace hisha::match {

struct EngineConfig {
    protocol::EngineSpec spec;
    TimeControl tc;
    int margin_ms = 100;  // latency allowed past its clock (process start-up, pipes, overshoot)
};

enum class Tournament { Auto, Gauntlet, RoundRobin };  // Auto: a gauntlet for 2 engines is the same match

struct MatchConfig {
    std::vector<EngineConfig> engines;
    int games = 2;                   // per pair
    int concurrency = 1;
    std::vector<Opening> openings;   // empty: the even start
    std::string out_dir;             // empty: no game files
    GameSettings settings;           // margins, adjudication, rules (tc is set per game)
    std::optional<SprtParams> sprt;  // for the first pair, pentanomial (over game pairs)
    Tournament tournament = Tournament::Auto;
    bool verbose = true;             // a line per game
};

/// One scheduled game.
struct GameTask {
    int number = 0;  // 1-based, in schedule order
    int pair = 0;
    int black = 0, white = 0;  // engine indices
    int opening = -1;          // index into the openings (-1: even start)
    int round = 0;             // g, the pair's game number from 0: games 2k and 2k+1 are a pair
};

struct PairResult {
    int first = 0, second = 0;  // engine indices; the score is the first's
    Score score;
    Pentanomial pairs;               // over finished game pairs (one opening, both colours)
    std::map<int, int> half_points;  // pair k -> half points of the first in its finished game
    int aborted = 0;
    std::map<std::string, int> endings;  // "checkmate" -> 12 ...
};

struct GameSummary {
    GameTask task;
    std::string result;  // "1-0" ...
    std::string detail;
    int plies = 0;
    Failure failure = Failure::None;
    std::string file;    // the KIF file, when written
};

struct MatchResult {
    std::vector<PairResult> pairs;
    std::vector<GameSummary> games;  // in the order they finished
    std::optional<SprtStatus> sprt;
    bool stopped_early = false;      // SPRT decided, or cancelled
};

/// The pairs of engine indices a tournament plays.
std::vector<std::pair<int, int>> pairings(int engines, Tournament t);
/// Every game of the match in order: each pair plays game g with opening g/2, colours swapped
/// on odd g; rounds of all pairs alternate so that partial results stay balanced.
std::vector<GameTask> schedule(const MatchConfig& config);

class Match {
public:
    Match(MatchConfig config, std::ostream& out);
    /// Starts every engine once and readies it for a game under its control, so that a
    /// wrong command or option fails before the first game rather than forfeiting them all.
    core::Result<void, std::string> check();
    MatchResult run();
    /// Stops taking new games; running games are aborted after their current move.
    void cancel() { cancel_ = true; }

private:
    void worker();
    void record(const GameTask& task, GameOutcome& outcome);
    std::string write_files(const GameTask& task, const GameOutcome& outcome);
    void progress_line(const GameTask& task, const GameOutcome& outcome);

    MatchConfig config_;
    std::ostream& out_;
    std::vector<GameTask> tasks_;
    std::atomic<std::size_t> next_{0};
    std::atomic<bool> cancel_{false};
    std::mutex mutex_;  // guards result_ and out_
    MatchResult result_;
};

/// The final table: one row per pair (games, W, L, D, score, Elo with 95% interval, LOS),
/// the pentanomial counts and the Elo they give, the endings, aborted games, the SPRT verdict,
/// and a last line `summary: key=value ...` of the first pair for scripts.
std::string format_results(const MatchResult& result, const MatchConfig& config);

}  // namespace hisha::match
