// The rows' columns, shared by the SQLite and PostgreSQL stores: the column lists their SQL
// names, and how a row is read from a result (a reader that gives i32(), i64(), dbl() and str()
// in turn: SQLite's Stmt, PostgreSQL's Rows) and written as the values of a statement (`put`
// takes them in turn: Stmt::bind, Params::add). Each store keeps its own SQL and transactions.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

#include "server/store/records.h"

namespace hisha::server::store::rows {

/// The lower-case key of a name (names are looked up case-insensitively).
inline std::string key_of(std::string_view name) {
    std::string k(name);
    for (char& c : k)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return k;
}

constexpr const char* USER_COLUMNS =
    "id, name, password_hash, rating, deviation, volatility, wins, losses, draws, created, last_login, last_game, "
    "settings, bot";
/// The games columns read by read_game() (PostgreSQL adds its version after them).
constexpr const char* GAME_COLUMNS =
    "id, black, white, start_sfen, tc_kind, days, main_ms, byoyomi_ms, increment_ms, csa_seconds, status, "
    "winner, reason, seen_black, seen_white, rem_black, rem_white, turn_started, created, updated, origin, "
    "csa_game_name, rated_applied, undone_ply, undone_text, tournament";
/// The columns put_new_user() writes, and put_new_game(), put_move(), put_challenge(), put_message().
constexpr const char* NEW_USER_COLUMNS =
    "name, name_key, password_hash, rating, deviation, volatility, wins, losses, draws, created, last_login, "
    "last_game, settings, bot";
constexpr const char* NEW_GAME_COLUMNS =
    "black, white, start_sfen, tc_kind, days, main_ms, byoyomi_ms, increment_ms, csa_seconds, status, winner, "
    "reason, seen_black, seen_white, rem_black, rem_white, turn_started, created, updated, origin, csa_game_name, "
    "rated_applied, undone_ply, undone_text, tournament";
constexpr const char* MOVE_COLUMNS = "ply, text, spent_ms, at, forced, locked, comment";
constexpr const char* NEW_MOVE_COLUMNS = "game_id, ply, text, spent_ms, at, forced, locked, comment";
constexpr const char* CHALLENGE_COLUMNS =
    "id, challenger, pattern, color, first_move, comment, tc_kind, days, main_ms, byoyomi_ms, increment_ms, created";
constexpr const char* NEW_CHALLENGE_COLUMNS =
    "challenger, pattern, color, first_move, comment, tc_kind, days, main_ms, byoyomi_ms, increment_ms, created";
constexpr const char* MESSAGE_COLUMNS = "id, recipient, sender, text, kind, at";
constexpr const char* NEW_MESSAGE_COLUMNS = "recipient_key, recipient, sender, text, kind, at";
/// read_ban() and put_ban(); read_audit() (put_audit() writes them without the id).
constexpr const char* BAN_COLUMNS = "kind, target, reason, by_admin, created, expires";
constexpr const char* AUDIT_COLUMNS = "id, at, admin, action, target, detail, peer";

// --- reading

template <class R>
void read_tc(R& r, TimeControl& tc) {
    tc.kind = service::TimeKind(r.i32());
    tc.days_per_move = r.i32();
    tc.main_ms = r.i64();
    tc.byoyomi_ms = r.i64();
    tc.increment_ms = r.i64();
}

template <class R>
UserRow read_user(R& r) {
    UserRow u;
    u.id = r.i64();
    u.name = r.str();
    u.password_hash = r.str();
    u.rating = r.dbl();
    u.deviation = r.dbl();
    u.volatility = r.dbl();
    u.wins = r.i32();
    u.losses = r.i32();
    u.draws = r.i32();
    u.created = r.i64();
    u.last_login = r.i64();
    u.last_game = r.i64();
    u.settings = r.str();
    u.bot = r.str();
    return u;
}

template <class R>
GameRow read_game(R& r) {
    GameRow g;
    g.id = r.i64();
    g.black = r.str();
    g.white = r.str();
    g.start_sfen = r.str();
    read_tc(r, g.tc);
    g.tc.csa_seconds = r.i32() != 0;
    g.status = GameStatus(r.i32());
    g.winner = r.str();
    g.reason = r.str();
    g.seen[0] = r.i32();
    g.seen[1] = r.i32();
    g.remaining[0] = r.i64();
    g.remaining[1] = r.i64();
    g.turn_started = r.i64();
    g.created = r.i64();
    g.updated = r.i64();
    g.origin = r.str();
    g.csa_game_name = r.str();
    g.rated_applied = r.i32() != 0;
    g.undone_ply = r.i32();
    g.undone_text = r.str();
    g.tournament = r.str();
    return g;
}

template <class R>
MoveRow read_move(R& r) {
    MoveRow m;
    m.ply = r.i32();
    m.text = r.str();
    m.spent_ms = r.i64();
    m.at = r.i64();
    m.forced = r.i32() != 0;
    m.locked = r.i32() != 0;
    m.comment = r.str();
    return m;
}

template <class R>
ChallengeRow read_challenge(R& r) {
    ChallengeRow c;
    c.id = r.i64();
    c.challenger = r.str();
    c.pattern = r.str();
    c.challenger_color = r.i32();
    c.first_move = r.str();
    c.comment = r.str();
    read_tc(r, c.tc);
    c.created = r.i64();
    return c;
}

template <class R>
MessageRow read_message(R& r) {
    MessageRow m;
    m.id = r.i64();
    m.to = r.str();
    m.from = r.str();
    m.text = r.str();
    m.kind = r.str();
    m.at = r.i64();
    return m;
}

// --- writing

template <class Put>
void put_tc(Put&& put, const TimeControl& tc) {
    put(int(tc.kind));
    put(tc.days_per_move);
    put(tc.main_ms);
    put(tc.byoyomi_ms);
    put(tc.increment_ms);
}

template <class Put>
void put_new_user(Put&& put, const UserRow& u) {
    put(u.name);
    put(key_of(u.name));
    put(u.password_hash);
    put(u.rating);
    put(u.deviation);
    put(u.volatility);
    put(u.wins);
    put(u.losses);
    put(u.draws);
    put(u.created);
    put(u.last_login);
    put(u.last_game);
    put(u.settings);
    put(u.bot);
}

/// password_hash, rating, deviation, volatility, wins, losses, draws, last_login, last_game,
/// settings, bot, and the id last (UPDATE ... WHERE id).
template <class Put>
void put_user_update(Put&& put, const UserRow& u) {
    put(u.password_hash);
    put(u.rating);
    put(u.deviation);
    put(u.volatility);
    put(u.wins);
    put(u.losses);
    put(u.draws);
    put(u.last_login);
    put(u.last_game);
    put(u.settings);
    put(u.bot);
    put(u.id);
}

template <class Put>
void put_new_game(Put&& put, const GameRow& g) {
    put(g.black);
    put(g.white);
    put(g.start_sfen);
    put_tc(put, g.tc);
    put(g.tc.csa_seconds);
    put(int(g.status));
    put(g.winner);
    put(g.reason);
    put(g.seen[0]);
    put(g.seen[1]);
    put(g.remaining[0]);
    put(g.remaining[1]);
    put(g.turn_started);
    put(g.created);
    put(g.updated);
    put(g.origin);
    put(g.csa_game_name);
    put(g.rated_applied);
    put(g.undone_ply);
    put(g.undone_text);
    put(g.tournament);
}

template <class Put>
void put_move(Put&& put, std::int64_t game_id, int ply, const MoveRow& m) {
    put(game_id);
    put(ply);
    put(m.text);
    put(m.spent_ms);
    put(m.at);
    put(m.forced);
    put(m.locked);
    put(m.comment);
}

template <class Put>
void put_challenge(Put&& put, const ChallengeRow& c) {
    put(c.challenger);
    put(c.pattern);
    put(c.challenger_color);
    put(c.first_move);
    put(c.comment);
    put_tc(put, c.tc);
    put(c.created);
}

template <class Put>
void put_message(Put&& put, const MessageRow& m) {
    put(key_of(m.to));
    put(m.to);
    put(m.from);
    put(m.text);
    put(m.kind);
    put(m.at);
}

template <class R>
BanRow read_ban(R& r) {
    BanRow b;
    b.kind = r.str();
    b.target = r.str();
    b.reason = r.str();
    b.by = r.str();
    b.created = r.i64();
    b.expires = r.i64();
    return b;
}

template <class Put>
void put_ban(Put&& put, const BanRow& b) {
    put(b.kind);
    put(b.target);
    put(b.reason);
    put(b.by);
    put(b.created);
    put(b.expires);
}

template <class R>
AuditRow read_audit(R& r) {
    AuditRow a;
    a.id = r.i64();
    a.at = r.i64();
    a.admin = r.str();
    a.action = r.str();
    a.target = r.str();
    a.detail = r.str();
    a.peer = r.str();
    return a;
}

template <class Put>
void put_audit(Put&& put, const AuditRow& a) {
    put(a.at);
    put(a.admin);
    put(a.action);
    put(a.target);
    put(a.detail);
    put(a.peer);
}

}  // namespace hisha::server::store::rows
