// The rows the service keeps and the store persists: users, games with their moves,
// challenges, messages, session tokens, bans and the administrators' audit log. Plain data, no
// behaviour.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "server/service/clock.h"

namespace hisha::server {

using service::Millis;
using service::TimeControl;

struct UserRow {
    std::int64_t id = 0;
    std::string name;           // as registered; looked up case-insensitively
    std::string password_hash;  // libsodium crypto_pwhash_str (argon2id)
    double rating = 1500.0, deviation = 350.0, volatility = 0.06;
    int wins = 0, losses = 0, draws = 0;
    Millis created = 0, last_login = 0;
    Millis last_game = 0;       // when the last rated game ended (0: none)
    std::string settings;       // "KEY=VALUE;..." (SET BLACK/WHITE/THREATENED/DRAGON/KANJI/PSTYLE/BSTYLE)
    std::string bot;            // engine level for bot accounts ("" for people)
};

/// One entry of a game's move list. Besides board moves the list holds the 003 specials
/// that UNDO can take back: a handicap removal and a resignation.
struct MoveRow {
    int ply = 0;               // 0-based index in the list
    std::string text;          // USI move, "HANDICAP:L@1a,R@8b", "RESIGN" or "DECLARE"
    Millis spent_ms = 0;       // time charged
    Millis at = 0;             // wall time (epoch ms) when played
    bool forced = false;       // the first move forced by NEW: cannot be undone
    bool locked = false;       // replayed after an undo: cannot be undone again
    std::string comment;       // the mover's comment (CSA: Floodgate's "* <score> <pv>"), or empty
};

enum class GameStatus : std::uint8_t { Offered, Active, Finished, Aborted };

struct GameRow {
    std::int64_t id = 0;
    std::string black, white;
    std::string start_sfen;          // the even start; a handicap is a move in `moves`
    TimeControl tc;
    GameStatus status = GameStatus::Active;
    std::string winner;              // "black", "white", "draw" or ""
    std::string reason;              // core::describe(EndReason) text, or "" while open
    int seen[2] = {0, 0};            // plies each side has seen (black, white)
    Millis remaining[2] = {0, 0};    // real-time main time left
    Millis turn_started = 0;         // epoch ms when the side to move got the turn
    Millis created = 0, updated = 0;
    std::string origin;              // "text", "csa", "web"
    std::string csa_game_name;       // floodgate-600-10F ...; the CSA Game_ID is derived from it
    std::string tournament;          // the pattern of the scheduled tournament that paired it, or ""
    bool rated_applied = false;      // the result has been counted in ratings and W/L/D
    int undone_ply = -1;             // the last undo: the ply and the move it took back
    std::string undone_text;
    double rating_after[2] = {0, 0};     // the players' ratings and deviations once the result
    double deviation_after[2] = {0, 0};  // was rated (black, white); 0: not rated (or before they were kept)
    std::int64_t version = 0;        // saves so far; a store shared by several servers refuses a
                                     // save based on an older version (another server won the race)
    std::vector<MoveRow> moves;
};

struct ChallengeRow {
    std::int64_t id = 0;
    std::string challenger;
    std::string pattern;             // who may accept (003 PATTERNS)
    int challenger_color = 0;        // 0 Black, 1 White
    std::string first_move;          // the challenger's first move as Black, or the forced
                                     // first move of the acceptor when the challenger is White
    std::string comment;
    TimeControl tc;
    Millis created = 0;
};

/// A player connected to one server process (WHO across servers sharing a database).
struct PresenceRow {
    std::string name;
    std::string protocol;            // of the oldest connection
    Millis since = 0;                // when the oldest connection logged in
    int connections = 0;             // 0: none left on that server
};

/// A CSA player waiting for an opponent under a game name on some server.
struct WaitingRow {
    std::string name, game_name;
    int color = -1;                  // 0 Black, 1 White, -1 either
};

struct MessageRow {
    std::int64_t id = 0;
    std::string to, from;
    std::string text;
    std::string kind;                // "tell", "say"
    Millis at = 0;
};

/// A ban: an account (target: its name key) or an address (target: "203.0.113.7" or a network,
/// "203.0.113.0/24", "2001:db8::/32") refused at login and, for an address, at connection.
struct BanRow {
    std::string kind;                // "user" or "address"
    std::string target;
    std::string reason;
    std::string by;                  // the administrator
    Millis created = 0;
    Millis expires = 0;              // 0: until lifted
};

/// One administrator's action, as the audit log keeps it.
struct AuditRow {
    std::int64_t id = 0;
    Millis at = 0;
    std::string admin;               // who (as registered), or "hisha-server admin" for the command line
    std::string action;              // "ban", "unban", "kick", "abort", "adjudicate", "announce", ...
    std::string target;              // the account, address or game it acted on
    std::string detail;              // the reason, text or outcome
    std::string peer;                // the administrator's address ("" from the command line)
};

}  // namespace hisha::server
