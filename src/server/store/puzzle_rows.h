// The stored side of tsume puzzles (issue 20): a player's or a puzzle's Glicko-2 rating and the
// puzzles a player has been rated on (service/puzzles.h).
#pragma once

#include <cstdint>
#include <string>

namespace hisha::server::store {

struct PuzzleRating {
    double rating = 1500.0;
    double deviation = 350.0;
    double volatility = 0.06;
    int plays = 0;  // rated attempts
};

/// One rated attempt: the player's and the puzzle's ratings after it.
struct PuzzleResult {
    std::string player_key;
    std::string puzzle_id;
    bool solved = false;
    std::int64_t at = 0;  // epoch ms
    PuzzleRating player, puzzle;
};

}  // namespace hisha::server::store
