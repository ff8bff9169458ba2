// Glicko-2 ratings (Glickman 2013): each finished game is one rating period for both players.
#pragma once

namespace hisha::server::service {

struct Rating {
    double rating = 1500.0;     // Glicko scale
    double deviation = 350.0;   // RD
    double volatility = 0.06;
};

/// The new rating of `player` after one game against `opponent` with `score` 1, 0.5 or 0.
Rating glicko2_update(const Rating& player, const Rating& opponent, double score, double tau = 0.5);

}  // namespace hisha::server::service
