// The tsume solver's public API: solve(position, limits) -> Result. The side to move attacks
// and must give check with every move; the other side defends with any legal reply.
//
// What is computed (default, Convention::Ordinary): the SHORTEST forced mate under ordinary
// rules. A first df-pn search finds some mate and its length L; searches limited to L-2
// plies follow until one fails, so L is proven minimal ("minimum length" mode). The line
// returned has the attacker mate as fast as possible and the defender resist as long as
// possible: at each defender's move a reply is taken whose exact remaining length is the
// longest, preferring, among equals, king moves and captures, then moved interpositions, then
// drops that are not futile (is_futile_drop), then futile drops. Hands are exactly as given;
// a pawn-drop mate is illegal; a repetition never mates (perpetual check loses).
//
// Convention::Tsume (tsume-shogi, 000 "Mating problems") changes the defender's replies: a
// futile drop interposition is not a reply, so it neither prolongs the mate nor saves the
// king; a position whose only replies are futile drops is mate. A drop is futile when the
// checker (a slider, not adjacent) takes it for free and that capture mates: no other
// defender piece can take back, the king cannot (the square is not next to it, or another
// attacker piece guards it), and after the capture the defender has no reply. A drop whose
// capture does not mate at once counts as a reply, as under ordinary rules: the composers'
// futility (the capture only adds two plies and the piece stays in the attacker's hand, the
// "2-ply longer with a piece left over" custom) is not modelled, so lengths may exceed the
// published ones by such pairs of plies. Among defender's replies of equal length
// the line leaving the attacker the fewest pieces in hand is taken, and the result says
// whether another first move also mates within the length ("yozume"). Moved interpositions
// always count. complete_defender_hand() applies the input
// convention that pieces neither on the board nor in the attacker's hand are the defender's.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/move.h"
#include "core/position.h"
#include "types.h"

namespace hisha::tsume {

enum class Status : std::uint8_t {
    Mate,     // a forced mate; `exact` says whether its length is proven shortest
    NoMate,   // proven: no forced mate at any length
    Timeout,  // a limit was reached first (a mate found so far is in pv/length, exact = false)
    Error,    // the position is no mating problem (see `error`)
};

struct Limits {
    double time_limit_s = 0;      // 0: none
    bool cpu_time = false;        // time_limit_s counts the solving thread's CPU time, not wall time
    std::uint64_t max_nodes = 0;  // 0: none
    std::size_t memory_mb = 256;  // transposition table size
    Convention convention = Convention::Ordinary;
    bool shortest = true;                     // prove the length minimal (else report the first mate found)
    const std::atomic<bool>* stop = nullptr;  // set from another thread to stop early
};

struct Result {
    Status status = Status::Timeout;
    int length = 0;               // plies of the mate (not exact: a proved bound, a mate within it)
    std::vector<core::Move> pv;   // the mating line (length moves when exact; else see format_result)
    bool exact = false;           // the length is proven to be the shortest
    std::uint64_t nodes = 0;      // nodes searched
    std::uint64_t positions = 0;  // positions made (leaf tests included; see positions_made)
    double time_s = 0;            // wall time
    double cpu_time_s = 0;        // CPU time of the solving thread (table allocation included)
    int max_depth = 0;            // the deepest ply the search reached
    std::size_t table_bytes = 0;
    // Convention::Tsume only: whether the first move is the only one that mates within `length`.
    bool unique = true;
    core::Move other_first_move;  // another mating first move when !unique
    std::string error;
};

class TranspositionTable;

/// A solver that keeps its transposition table between problems (allocating one is the
/// slow part of a short problem).
class Solver {
public:
    Solver();
    ~Solver();
    Solver(const Solver&) = delete;
    Solver& operator=(const Solver&) = delete;
    /// Solves the mating problem of `pos` (the side to move attacks). Never throws.
    Result solve(const core::Position& pos, const Limits& limits);

private:
    std::unique_ptr<TranspositionTable> tt_;
    std::size_t tt_mb_ = 0;
};

/// A one-off solve with a table of its own.
Result solve(const core::Position& pos, const Limits& limits);

/// Tsume input convention: when the defender's hand is empty, gives it every piece that is
/// neither on the board nor in the attacker's hand. Returns true when it changed the position.
bool complete_defender_hand(core::Position& pos);

/// One line: "mate <plies> <usi moves>", "nomate", "timeout" (followed by "mate-found <plies>
/// <usi moves>" when a mate was found but not proven shortest: a mate within <plies> exists; the
/// line's defender moves are not proved best, so it may be shorter, and when it was read before
/// the shortening proved a smaller bound it is that first mate's line, longer) or "error <reason>". Under
/// the tsume convention a mate line ends with "unique" or "yozume <move>".
std::string format_result(const Result& r, Convention conv);

}  // namespace hisha::tsume
