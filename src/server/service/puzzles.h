// Tsume puzzles on the server (issue 20): the set `hisha-server --puzzles FILE` loads (lines of
// `hisha puzzles`, puzzle/puzzle.h), each player's and each puzzle's Glicko-2 rating (a rated
// attempt is one game between them, as lichess/lishogi rate puzzles), the next puzzle for a
// player, attempts judged by the solver and hints. A player is rated on a puzzle once: on the
// first attempt that ends (solved, or a wrong move) or when they ask for the move as a hint;
// later attempts are judged but not rated. Guests are never rated (their solved puzzles are
// remembered in memory only). The calls are safe from several threads.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "puzzle/puzzle.h"
#include "server/store/puzzle_rows.h"
#include "server/store/store.h"

namespace hisha::server::service {

class Puzzles {
public:
    /// A puzzle's rating before anyone tried it: 1100 + 100 a ply (a mate in 1: 1200).
    static store::PuzzleRating first_rating(const puzzle::Puzzle& p);
    /// Reads a puzzle file; the error names the first bad line.
    static std::optional<std::vector<puzzle::Puzzle>> read(const std::string& path, std::string& error);

    Puzzles(store::Store& store, std::vector<puzzle::Puzzle> set);

    std::size_t size() const { return set_.size(); }
    const puzzle::Puzzle* find(const std::string& id) const;
    store::PuzzleRating rating(const std::string& id) const;
    /// A player's puzzle rating (the first one when they have none yet).
    store::PuzzleRating player(const std::string& player_key);

    /// The puzzle nearest the player's rating that they have not done; none when all are done.
    const puzzle::Puzzle* next(const std::string& player_key, bool guest);

    struct Outcome {
        puzzle::Judgement judgement;
        bool rated = false;  // this attempt changed the ratings
        store::PuzzleRating before, after;
        bool stored = true;  // false: the store refused the rated result
    };
    /// Judges an attempt (the moves from the puzzle's start) and rates it when it ends.
    Outcome attempt(const std::string& player_key, bool guest, const puzzle::Puzzle& p,
                    const std::vector<std::string>& moves, std::int64_t now);
    /// The search bound of one attempt or hint (puzzle::judge, puzzle::hint_move): the server
    /// judges with it on a solver thread (a job of its queue), then record() rates on the loop.
    puzzle::Budget budget() const { return budget_; }
    /// Rates an attempt that `judgement` (puzzle::judge with budget()) ended; the outcome holds it.
    Outcome record(const std::string& player_key, bool guest, const puzzle::Puzzle& p, puzzle::Judgement judgement,
                   std::int64_t now);
    /// The attacker's next move after `moves` for a hint (puzzle::hint_move); empty with `error`.
    std::string hint(const puzzle::Puzzle& p, const std::vector<std::string>& moves, std::string& error);
    /// Rates a player's first look at a puzzle's move (a hint that gives the move) as a failure.
    Outcome gave_up(const std::string& player_key, bool guest, const puzzle::Puzzle& p, std::int64_t now);

private:
    Outcome rate(const std::string& player_key, bool guest, const puzzle::Puzzle& p, bool solved, std::int64_t now);
    bool done(const std::string& player_key, const std::string& id);
    store::PuzzleRating rating_of(const std::string& id) const;

    // The solver and the ratings are shared by the calls (a JSON request runs on any thread of
    // the server's loop).
    mutable std::mutex mu_;

    store::Store& store_;
    std::vector<puzzle::Puzzle> set_;
    std::unordered_map<std::string, std::size_t> index_;
    std::unordered_map<std::string, store::PuzzleRating> ratings_;
    std::map<std::string, std::set<std::string>> guests_done_;  // bounded: cleared at 10,000 guests
    tsume::Solver solver_;
    puzzle::Budget budget_{20000, 8, 200000};  // at most 200,000 nodes an attempt or hint
};

}  // namespace hisha::server::service
