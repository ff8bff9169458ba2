// Tsume puzzles from played games. A puzzle is a position where the side to move (the attacker)
// has a forced mate of at most a few plies that the tsume solver (tsume/solver.h, ordinary rules)
// proves shortest, and whose first move is unique: no other first move forces mate within the
// same number of plies, proven move by move by the solver (a first move the solver cannot decide
// within the budget rejects the position). Later attacking moves need not be unique: an attempt
// is judged by whether each of the player's moves still mates within the plies left.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/move.h"
#include "core/position.h"
#include "tsume/solver.h"

namespace hisha::puzzle {

/// The solver's budget for one solve (a puzzle's search makes many).
struct Budget {
    std::uint64_t nodes = 100000;
    std::size_t memory_mb = 16;
    std::uint64_t total_nodes = 0;    // all the solves of one find() or judge() together (0: no bound)
    mutable std::uint64_t spent = 0;  // nodes searched so far against total_nodes (judge() starts at 0)
};

/// One line of a puzzle file.
struct Puzzle {
    std::string id;                     // 8 hex digits of the position's hash
    std::string sfen;                   // the start position, attacker to move
    std::vector<std::string> solution;  // USI moves: the attacker's and the defender's longest defence
    int length = 0;                     // plies of the mate
    std::string source;                 // the record it came from
    int ply = 0;                        // plies of that game played before the position
};

/// What `find` saw in a position.
enum class Verdict { Puzzle, NoShortMate, NotUnique, Undecided };
const char* describe(Verdict v);

struct Found {
    Verdict verdict = Verdict::NoShortMate;
    std::vector<core::Move> solution;
    core::Move other;  // NotUnique: another first move that mates within the length
};

/// Looks for a puzzle in `pos` (the side to move attacks): a mate of 1..max_plies plies proven
/// shortest, whose first move is unique. `pos` is left as it was.
Found find(core::Position& pos, int max_plies, tsume::Solver& solver, const Budget& budget);

enum class Mates { Yes, No, Unknown };

/// After an attacking move (the defender to move): does the attacker force mate within `plies`
/// more plies (the defender's included)? Yes when the defender is mated now. When No,
/// `refutation` gets a defender's reply after which no mate within plies-1 exists; when Yes,
/// `defence` gets the reply that delays the mate longest (first of equals; none when mated).
Mates mates_within(core::Position& pos, int plies, tsume::Solver& solver, const Budget& budget,
                   core::Move* refutation = nullptr, core::Move* defence = nullptr);

/// The puzzle's id: 8 hex digits of a 64-bit FNV-1a hash of its SFEN without the move number.
std::string puzzle_id(const std::string& sfen);

/// A puzzle line: id, sfen, solution (space-separated), length, source, ply, tab-separated.
std::string to_line(const Puzzle& p);
/// Reads a puzzle line (checking the SFEN and that the solution is a line of legal moves of
/// `length` plies); the error says what is wrong.
std::optional<Puzzle> from_line(const std::string& line, std::string& error);

/// The judgement of an attempt: the moves played from the puzzle's start (the attacker's and
/// the defender's replies the server gave, alternately).
struct Judgement {
    enum Kind { Correct, Continue, Wrong, BadInput } kind = BadInput;
    std::string reason;      // Wrong: "illegal", "not a check", "no mate"; BadInput: what
    std::string reply;       // Continue: the defender's reply (USI)
    std::string refutation;  // Wrong with "no mate": the defender's reply that escapes (USI)
    int index = 0;           // the move that was judged (0-based)
};
/// The attacker's next move, for a hint, after `moves` (those played from the start, an even
/// number below the length): the solution's while the moves follow it, else the first move of a
/// mate the solver finds within the plies left. Empty with `error` set when the moves are bad or
/// no such mate was found.
std::string hint_move(const Puzzle& p, const std::vector<std::string>& moves, tsume::Solver& solver,
                      const Budget& budget, std::string& error);

Judgement judge(const Puzzle& p, const std::vector<std::string>& moves, tsume::Solver& solver, const Budget& budget);

}  // namespace hisha::puzzle
