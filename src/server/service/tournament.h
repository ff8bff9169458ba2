// Scheduled CSA tournaments, as Floodgate runs them: the operator names game-name patterns with
// an interval (hisha-server --tournament 'floodgate-600-10F*:30m'). A CSA player whose game
// name matches a pattern is not paired on arrival; every interval (at the multiples of it since
// the epoch, UTC: a 30m tournament pairs at :00 and :30) the players waiting under each game
// name of the pattern are paired by rating (pair_round), and their games are rated like any
// other (one Glicko-2 rating per account). The pairing and the option's syntax live here,
// without the service; the rounds are Service members (tournament.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "server/service/clock.h"
#include "server/service/reply.h"

namespace hisha::server::service {

/// One tournament as configured: a game-name pattern (003 PATTERNS: `*`, `?`, groups) and the
/// time between rounds.
struct TournamentSpec {
    std::string pattern;
    Millis interval_ms = 0;
};

/// Reads "PATTERN:INTERVAL" (the interval after the last colon): "floodgate-600-10F*:30" (minutes),
/// ":30m", ":45s", ":2h". The interval is 1 s .. 7 days; the pattern is well formed, at most
/// 64 characters of what a game name may hold (letters, digits, _ - . @ and the pattern's own
/// * ? ! < > ^). An error says what is wrong.
Reply<TournamentSpec> parse_tournament(std::string_view text);

/// When the round after `now` starts: the next multiple of the interval since the epoch.
Millis next_round_at(Millis now, Millis interval_ms);

/// A player waiting for a round, with what the pairing needs of their past games in the
/// tournament (the newest first).
struct Entrant {
    std::string name;
    double rating = 1500;
    Millis since = 0;                      // when they began to wait (the last to come waits when odd)
    std::string last_opponent;             // of their last finished game in the tournament ("" for none)
    int black_games = 0, white_games = 0;  // in their recent games of the tournament
};

struct Pairing {
    std::string black, white;
};

struct RoundPlan {
    std::vector<Pairing> pairs;        // in rating order, strongest first
    std::vector<std::string> waiting;  // left over for the next round (an odd count: one)
};

/// Pairs a round: with an odd count the entrant who came last waits; the others are sorted by
/// rating (then name) and neighbours paired, strongest first. A pair that repeats either
/// player's last game is swapped with the nearest other pair where neither new pair is a
/// repeat (the smaller rating gaps first); when there is none it stays. Black goes to whoever
/// has played Black less often than White (black_games - white_games), a tie to a coin
/// tossed from `seed`.
RoundPlan pair_round(std::vector<Entrant> entrants, std::uint64_t seed);

}  // namespace hisha::server::service
