// Answers people use: the main line of a solved problem, why each other defence on it loses
// (the solver's refutation of it: its mate length and mating line), and the yozume report
// (attacker's moves on the main line other than the one played that also mate within the
// plies left). Every fact printed is a proof of the solver: each question (one other defence,
// one other check) is a fresh solve bounded by a budget, and a question whose budget runs out
// is reported as undecided, never guessed.
//
// A question about another defence d is the solve of the position after d. A question about
// another check c asks every legal reply of the defender after c in turn (futile drop
// interpositions left out under the tsume convention): c mates within r plies when every reply
// is proven mated within r - 2; the first reply that is not (no mate, or a longer one) ends the
// question with "no". A question's budget is shared by its solves.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/move.h"
#include "core/position.h"
#include "solver.h"
#include "types.h"

namespace hisha::tsume {

/// What each question may spend (0: no bound of that kind; both 0 is refused by callers).
struct ExplainBudget {
    std::uint64_t nodes = 1'000'000;
    double seconds = 0;
    double total_seconds = 0;  // every question together (0: no bound): later ones time out
};

enum class Verdict : std::uint8_t {
    Mate,     // proven: a mate of exactly `length` plies (the shortest)
    NoMate,   // proven: no mate (a defence that refutes the main line: never seen on a sound proof)
    Timeout,  // the question's budget ran out first: nothing is claimed
    Futile,   // tsume convention: a futile drop interposition, which is no reply
};

/// Another defence than the main line's, and what the solver proves after it.
struct Refutation {
    core::Move defence;
    Verdict verdict = Verdict::Timeout;
    int length = 0;                // Mate: plies of the shortest mate after the defence
    std::vector<core::Move> line;  // Mate: that mate, the attacker's move first
};

/// A defender's move of the main line where the defender had other legal replies.
struct DefenderChoice {
    int ply = 0;  // index of the defence in the main line (1, 3, ...)
    core::Move played;
    int remaining = 0;  // plies of the main line after `played`
    std::vector<Refutation> others;
};

/// Another attacker's move at an attacker's ply of the main line: a mate within the plies left
/// (yozume), or a question left undecided by the budget.
struct OtherMate {
    int ply = 0;  // index of the attacker's move in the main line (0, 2, ...)
    core::Move played;
    int remaining = 0;  // plies of the main line from `ply` on, `played` included
    core::Move move;
    Verdict verdict = Verdict::Timeout;  // Mate or Timeout
    int length = 0;                      // Mate: plies of the mate `move` starts, `move` included
    std::vector<core::Move> line;        // Mate: `move`, the longest reply, then the solver's line
};

struct Explanation {
    Convention convention = Convention::Ordinary;
    Result main;                          // the solve of the problem itself
    std::vector<DefenderChoice> choices;  // empty unless main.status is Mate
    std::vector<OtherMate> other_mates;   // yozume (Mate) and undecided questions (Timeout)
    int questions = 0;
    int timeouts = 0;
    std::uint64_t nodes = 0;  // nodes of every solve, the main one included
    double time_s = 0;
};

/// Solves `pos` with `limits`, then, when it mates, asks the questions above within `budget`
/// each. `limits.stop` stops every question too. `pos` is left as it was.
Explanation explain(core::Position& pos, const Limits& limits, const ExplainBudget& budget, Solver& solver);

/// Plain text, several lines (see docs/guide: the tsume section).
std::string explanation_text(const Explanation& e);
/// One JSON object: {status, length, exact, moves, unique, defences: [...], yozume: [...],
/// undecided: [...], questions, timeouts, nodes, time_ms}; moves in USI.
std::string explanation_json(const Explanation& e);

const char* verdict_name(Verdict v);

}  // namespace hisha::tsume
