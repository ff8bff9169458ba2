// The stored side of vacations and adjournments (issue 20, service/pauses.h): a player's
// vacation, a game's adjournment (an interval its clocks stood still) and an open offer to
// adjourn or resume a game.
#pragma once

#include <cstdint>
#include <string>

namespace hisha::server::store {

/// One vacation of a player: from `started` to `ended`, or, while it lasts (ended 0), until
/// `until` at the latest (the end the player chose, or where the year's allowance runs out).
struct VacationRow {
    std::int64_t id = 0;
    std::string player_key;    // the name's key
    std::int64_t started = 0;  // epoch ms
    std::int64_t until = 0;
    std::int64_t ended = 0;  // ended early (0: not, it ends at `until`)
};

/// An adjournment of a game: its clocks stood still from `started` to `ended` (0: still adjourned).
struct PauseRow {
    std::int64_t game_id = 0;
    std::int64_t started = 0;
    std::int64_t ended = 0;
};

/// An open offer in a game: to adjourn it (or, adjourned, to resume it), made by `color` (0 Black,
/// 1 White) when the game had `ply` entries; it lapses when a move is played.
struct AdjournOfferRow {
    std::int64_t game_id = 0;
    int color = 0;
    bool resume = false;  // an offer to resume an adjourned game
    int ply = 0;
    std::int64_t at = 0;
};

}  // namespace hisha::server::store
