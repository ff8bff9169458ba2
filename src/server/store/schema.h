// The schema the SQLite and PostgreSQL stores share, written once with the types that differ
// between them as {ID}, {I64}, {REAL} and {TOKEN_USER} (`user` is a reserved word in
// PostgreSQL); each store lists its migrations from these parts and its own.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hisha::server::store::schema {

/// How a database's SQL differs: its words in the schema, and what the stores' shared
/// statements (sql_store.h) need.
struct Dialect {
    std::string_view id;                 // an id that numbers itself, the table's key
    std::string_view i64;                // a 64-bit integer (times, milliseconds, ids)
    std::string_view real;               // a double
    std::string_view token_user;         // the tokens' column of the account
    const char* begin;                   // how a write transaction starts
    const char* returning_id;            // what an INSERT adds to give the new row's id
    const char* version_table;           // where the schema's version is kept
    std::string_view more_game_columns;  // the store's own columns of games, after the shared ones
};
// (Packed: eight named fields a line each would read as one list written twice.)
// clang-format off
inline constexpr Dialect SQLITE{.id = "INTEGER PRIMARY KEY AUTOINCREMENT", .i64 = "INTEGER", .real = "REAL",
                                .token_user = "user", .begin = "BEGIN IMMEDIATE", .returning_id = "",
                                .version_table = "schema_version", .more_game_columns = ""};
inline constexpr Dialect POSTGRES{.id = "BIGSERIAL PRIMARY KEY", .i64 = "BIGINT", .real = "DOUBLE PRECISION",
                                  .token_user = "username", .begin = "BEGIN", .returning_id = " RETURNING id",
                                  .version_table = "hisha_schema_version", .more_game_columns = ", version"};
// clang-format on

/// `sql` in the dialect's words.
inline std::string in(const Dialect& d, std::string_view sql) {
    std::string out;
    while (!sql.empty()) {
        std::size_t open = sql.find('{');
        out += sql.substr(0, open);
        if (open == std::string_view::npos)
            break;
        std::size_t close = sql.find('}', open);
        std::string_view name = sql.substr(open + 1, close - open - 1);
        out += name == "ID" ? d.id : name == "I64" ? d.i64 : name == "REAL" ? d.real : d.token_user;
        sql.remove_prefix(close + 1);
    }
    return out;
}

/// Migration 1: accounts, their login tokens, games, moves, challenges, messages.
constexpr const char* TABLES = R"sql(
CREATE TABLE users (
    id {ID},
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    rating {REAL} NOT NULL, deviation {REAL} NOT NULL, volatility {REAL} NOT NULL,
    wins INTEGER NOT NULL, losses INTEGER NOT NULL, draws INTEGER NOT NULL,
    created {I64} NOT NULL, last_login {I64} NOT NULL,
    settings TEXT NOT NULL, bot TEXT NOT NULL);
CREATE TABLE tokens (hash TEXT PRIMARY KEY, {TOKEN_USER} TEXT NOT NULL, expires {I64} NOT NULL);
CREATE TABLE games (
    id {ID},
    black TEXT NOT NULL, white TEXT NOT NULL, start_sfen TEXT NOT NULL,
    tc_kind INTEGER NOT NULL, days INTEGER NOT NULL, main_ms {I64} NOT NULL,
    byoyomi_ms {I64} NOT NULL, increment_ms {I64} NOT NULL, csa_seconds INTEGER NOT NULL,
    status INTEGER NOT NULL, winner TEXT NOT NULL, reason TEXT NOT NULL,
    seen_black INTEGER NOT NULL, seen_white INTEGER NOT NULL,
    rem_black {I64} NOT NULL, rem_white {I64} NOT NULL, turn_started {I64} NOT NULL,
    created {I64} NOT NULL, updated {I64} NOT NULL,
    origin TEXT NOT NULL, csa_game_name TEXT NOT NULL, rated_applied INTEGER NOT NULL,
    undone_ply INTEGER NOT NULL, undone_text TEXT NOT NULL);
CREATE INDEX games_status ON games(status);
CREATE TABLE moves (
    game_id {I64} NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
    text TEXT NOT NULL, spent_ms {I64} NOT NULL, at {I64} NOT NULL,
    forced INTEGER NOT NULL, locked INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply));
CREATE TABLE challenges (
    id {ID},
    challenger TEXT NOT NULL, pattern TEXT NOT NULL, color INTEGER NOT NULL,
    first_move TEXT NOT NULL, comment TEXT NOT NULL,
    tc_kind INTEGER NOT NULL, days INTEGER NOT NULL, main_ms {I64} NOT NULL,
    byoyomi_ms {I64} NOT NULL, increment_ms {I64} NOT NULL, created {I64} NOT NULL);
CREATE TABLE messages (
    id {ID},
    recipient_key TEXT NOT NULL, recipient TEXT NOT NULL, sender TEXT NOT NULL,
    text TEXT NOT NULL, kind TEXT NOT NULL, at {I64} NOT NULL);
CREATE INDEX messages_recipient ON messages(recipient_key);
)sql";

/// Administration: the administrators, bans of accounts and addresses, the audit log of their
/// actions; tokens found by account (log out everywhere).
constexpr const char* ADMINISTRATION = R"sql(
CREATE TABLE admins (name_key TEXT PRIMARY KEY, granted {I64} NOT NULL);
CREATE TABLE bans (
    kind TEXT NOT NULL, target TEXT NOT NULL, reason TEXT NOT NULL, by_admin TEXT NOT NULL,
    created {I64} NOT NULL, expires {I64} NOT NULL,
    PRIMARY KEY (kind, target));
CREATE TABLE audit (
    id {ID}, at {I64} NOT NULL, admin TEXT NOT NULL,
    action TEXT NOT NULL, target TEXT NOT NULL, detail TEXT NOT NULL, peer TEXT NOT NULL);
CREATE INDEX tokens_user ON tokens({TOKEN_USER});
)sql";

/// A move's comment (the evaluation comment a CSA engine sends after its move).
constexpr const char* MOVE_COMMENTS = R"sql(
ALTER TABLE moves ADD COLUMN comment TEXT NOT NULL DEFAULT '';
)sql";

/// Scheduled tournaments (the one that paired a game) and the public rating list (when an
/// account's last rated game ended: its last finished game so far).
constexpr const char* TOURNAMENTS = R"sql(
ALTER TABLE games ADD COLUMN tournament TEXT NOT NULL DEFAULT '';
CREATE INDEX games_tournament ON games(tournament, id);
ALTER TABLE users ADD COLUMN last_game {I64} NOT NULL DEFAULT 0;
UPDATE users SET last_game = COALESCE((SELECT max(g.updated) FROM games g WHERE g.status = 2 AND g.rated_applied != 0
    AND (lower(g.black) = users.name_key OR lower(g.white) = users.name_key)), 0);
)sql";

/// Conditional moves (issue 20): the tree a player left in a game (service/conditional.h). (IF NOT
/// EXISTS: the tests that turn a database back to an older version leave it.)
constexpr const char* CONDITIONAL_MOVES = R"sql(
CREATE TABLE IF NOT EXISTS conditional_moves (
    game_id {I64} NOT NULL, player_key TEXT NOT NULL, tree TEXT NOT NULL,
    PRIMARY KEY (game_id, player_key));
)sql";

/// Tsume puzzles (issue 20, service/puzzles.h): the players' and the puzzles' Glicko-2 ratings
/// and each player's rated attempts (one a puzzle). Made by Store::prepare_puzzles() when a server
/// loads puzzles (hisha-server --puzzles), not a numbered migration: a database that never serves
/// puzzles has none of these tables, and one that does gets them however old it is.
constexpr const char* PUZZLES = R"sql(
CREATE TABLE IF NOT EXISTS puzzle_players (
    player_key TEXT PRIMARY KEY, rating {REAL} NOT NULL, deviation {REAL} NOT NULL,
    volatility {REAL} NOT NULL, plays INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS puzzle_ratings (
    puzzle_id TEXT PRIMARY KEY, rating {REAL} NOT NULL, deviation {REAL} NOT NULL,
    volatility {REAL} NOT NULL, plays INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    player_key TEXT NOT NULL, puzzle_id TEXT NOT NULL, solved INTEGER NOT NULL, at {I64} NOT NULL,
    PRIMARY KEY (player_key, puzzle_id));
)sql";

/// Rating history: each player's rating and deviation once a game's result was rated (0 for the
/// games rated before: their history is not known), and a player's finished games found by name.
constexpr const char* RATING_HISTORY = R"sql(
ALTER TABLE games ADD COLUMN rating_black {REAL} NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN deviation_black {REAL} NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rating_white {REAL} NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN deviation_white {REAL} NOT NULL DEFAULT 0;
CREATE INDEX games_black ON games(lower(black), status);
CREATE INDEX games_white ON games(lower(white), status);
)sql";

/// Mail notifications (issue 20, service/mail.h): each player's address, its confirmation and
/// unsubscribe tokens and what they want mailed; the outgoing queue, each mail kept until sent or
/// given up (a restart loses none) and counted per player for the hourly limit. (IF NOT EXISTS:
/// the tests that turn a database back to an older version leave them.)
constexpr const char* MAIL = R"sql(
CREATE TABLE IF NOT EXISTS mail_players (
    player_key TEXT PRIMARY KEY, address TEXT NOT NULL, confirmed INTEGER NOT NULL, kinds TEXT NOT NULL,
    confirm_hash TEXT NOT NULL, confirm_expires {I64} NOT NULL, unsubscribe TEXT NOT NULL, notified TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS mail_players_confirm ON mail_players(confirm_hash);
CREATE INDEX IF NOT EXISTS mail_players_unsubscribe ON mail_players(unsubscribe);
CREATE TABLE IF NOT EXISTS mail_queue (
    id {ID}, player_key TEXT NOT NULL, address TEXT NOT NULL, kind TEXT NOT NULL, game_id {I64} NOT NULL,
    message TEXT NOT NULL, created {I64} NOT NULL, next_try {I64} NOT NULL, attempts INTEGER NOT NULL,
    state INTEGER NOT NULL, error TEXT NOT NULL, sent {I64} NOT NULL);
CREATE INDEX IF NOT EXISTS mail_queue_due ON mail_queue(state, next_try);
CREATE INDEX IF NOT EXISTS mail_queue_player ON mail_queue(player_key, created);
)sql";

/// Vacations and adjournments (issue 20, service/pauses.h): each player's vacations (the clock of
/// their correspondence games stands still on their turn), each game's adjournments (both clocks
/// stand still) and its open offer to adjourn or resume. (IF NOT EXISTS: the tests that turn a
/// database back to an older version leave them.)
constexpr const char* VACATIONS = R"sql(
CREATE TABLE IF NOT EXISTS vacations (
    id {ID}, player_key TEXT NOT NULL, started {I64} NOT NULL, until {I64} NOT NULL, ended {I64} NOT NULL);
CREATE INDEX IF NOT EXISTS vacations_started ON vacations(started);
CREATE TABLE IF NOT EXISTS game_pauses (
    game_id {I64} NOT NULL, started {I64} NOT NULL, ended {I64} NOT NULL, PRIMARY KEY (game_id, started));
CREATE TABLE IF NOT EXISTS adjourn_offers (
    game_id {I64} PRIMARY KEY, color INTEGER NOT NULL, resume INTEGER NOT NULL, ply INTEGER NOT NULL,
    at {I64} NOT NULL);
)sql";

/// A store's migrations, in order: the tables, the store's own second migration, administration,
/// move comments, tournaments, conditional moves, rating history, vacations, mail. A database keeps
/// how many it has run: new ones go at the end.
inline std::vector<std::string> migrations(const Dialect& d, std::string_view own) {
    return {in(d, TABLES),         std::string(own),   in(d, ADMINISTRATION),
            MOVE_COMMENTS,         in(d, TOURNAMENTS), in(d, CONDITIONAL_MOVES),
            in(d, RATING_HISTORY), in(d, VACATIONS),   in(d, MAIL)};
}

}  // namespace hisha::server::store::schema
