// The rows' columns, shared by the SQLite and PostgreSQL stores: the column lists their SQL
// names, and how a row is read from a result (a reader that gives i32(), i64(), dbl() and str()
// in turn: SQLite's Stmt, PostgreSQL's Rows) and written as the values of a statement (`put`
// takes them in turn: Stmt::bind, Params::add). Each store keeps its own SQL and transactions.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

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
/// The columns put_new_user() writes, and put_new_game(), put_move(), put_challenge(), put_message(),
/// put_audit(), in their order (insert_sql() makes the statement).
constexpr const char* NEW_USER_COLUMNS =
    "name, password_hash, rating, deviation, volatility, wins, losses, draws, created, last_login, last_game, "
    "settings, bot, name_key";
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
constexpr const char* NEW_MESSAGE_COLUMNS = "recipient, sender, text, kind, at, recipient_key";
/// read_ban() and put_ban(); read_audit() (put_audit() writes them without the id).
constexpr const char* BAN_COLUMNS = "kind, target, reason, by_admin, created, expires";
constexpr const char* AUDIT_COLUMNS = "id, at, admin, action, target, detail, peer";
constexpr const char* NEW_AUDIT_COLUMNS = "at, admin, action, target, detail, peer";

/// "INSERT INTO table (columns) VALUES (?,?,...)": SQLite's placeholders, or PostgreSQL's $1,
/// $2 ... when `numbered`; one for each column.
inline std::string insert_sql(std::string_view table, std::string_view columns, bool numbered) {
    std::string sql = "INSERT INTO " + std::string(table) + " (" + std::string(columns) + ") VALUES (";
    int n = 1 + int(std::count(columns.begin(), columns.end(), ','));
    for (int i = 1; i <= n; ++i)
        sql += (i > 1 ? "," : "") + (numbered ? "$" + std::to_string(i) : std::string("?"));
    return sql + ")";
}

// --- each row's fields in column order, once for reading and writing: `f` is called with each
// field in turn (a reference into the row, const when writing). The reader fills each field by
// its type (i32() for int, bool and enums, i64() for ids and times, dbl(), str()); `put` takes
// enums as int.

template <class T, class F>
void tc_fields(T& tc, F&& f) {
    f(tc.kind);
    f(tc.days_per_move);
    f(tc.main_ms);
    f(tc.byoyomi_ms);
    f(tc.increment_ms);
}

/// Every column of users but the id (and the name's key, which only writing adds).
template <class T, class F>
void user_fields(T& u, F&& f) {
    f(u.name);
    f(u.password_hash);
    f(u.rating);
    f(u.deviation);
    f(u.volatility);
    f(u.wins);
    f(u.losses);
    f(u.draws);
    f(u.created);
    f(u.last_login);
    f(u.last_game);
    f(u.settings);
    f(u.bot);
}

/// Every column of games but the id (and PostgreSQL's version).
template <class T, class F>
void game_fields(T& g, F&& f) {
    f(g.black);
    f(g.white);
    f(g.start_sfen);
    tc_fields(g.tc, f);
    f(g.tc.csa_seconds);
    f(g.status);
    f(g.winner);
    f(g.reason);
    f(g.seen[0]);
    f(g.seen[1]);
    f(g.remaining[0]);
    f(g.remaining[1]);
    f(g.turn_started);
    f(g.created);
    f(g.updated);
    f(g.origin);
    f(g.csa_game_name);
    f(g.rated_applied);
    f(g.undone_ply);
    f(g.undone_text);
    f(g.tournament);
}

/// The columns of moves after the game's id and the ply.
template <class T, class F>
void move_fields(T& m, F&& f) {
    f(m.text);
    f(m.spent_ms);
    f(m.at);
    f(m.forced);
    f(m.locked);
    f(m.comment);
}

/// Every column of challenges but the id.
template <class T, class F>
void challenge_fields(T& c, F&& f) {
    f(c.challenger);
    f(c.pattern);
    f(c.challenger_color);
    f(c.first_move);
    f(c.comment);
    tc_fields(c.tc, f);
    f(c.created);
}

/// Every column of messages but the id (and the recipient's key, which only writing adds).
template <class T, class F>
void message_fields(T& m, F&& f) {
    f(m.to);
    f(m.from);
    f(m.text);
    f(m.kind);
    f(m.at);
}

template <class T, class F>
void ban_fields(T& b, F&& f) {
    f(b.kind);
    f(b.target);
    f(b.reason);
    f(b.by);
    f(b.created);
    f(b.expires);
}

/// Every column of audit but the id.
template <class T, class F>
void audit_fields(T& a, F&& f) {
    f(a.at);
    f(a.admin);
    f(a.action);
    f(a.target);
    f(a.detail);
    f(a.peer);
}

// --- reading

/// Fills each field it is given from a result's next column, by the field's type.
template <class R>
struct Fill {
    R& r;
    void operator()(std::string& v) { v = r.str(); }
    void operator()(double& v) { v = r.dbl(); }
    void operator()(std::int64_t& v) { v = r.i64(); }
    void operator()(int& v) { v = r.i32(); }
    void operator()(bool& v) { v = r.i32() != 0; }
    template <class E>
        requires std::is_enum_v<E>
    void operator()(E& v) {
        v = E(r.i32());
    }
};

template <class R>
UserRow read_user(R& r) {
    UserRow u;
    u.id = r.i64();
    user_fields(u, Fill<R>{r});
    return u;
}

template <class R>
GameRow read_game(R& r) {
    GameRow g;
    g.id = r.i64();
    game_fields(g, Fill<R>{r});
    return g;
}

template <class R>
MoveRow read_move(R& r) {
    MoveRow m;
    m.ply = r.i32();
    move_fields(m, Fill<R>{r});
    return m;
}

template <class R>
ChallengeRow read_challenge(R& r) {
    ChallengeRow c;
    c.id = r.i64();
    challenge_fields(c, Fill<R>{r});
    return c;
}

template <class R>
MessageRow read_message(R& r) {
    MessageRow m;
    m.id = r.i64();
    message_fields(m, Fill<R>{r});
    return m;
}

template <class R>
BanRow read_ban(R& r) {
    BanRow b;
    ban_fields(b, Fill<R>{r});
    return b;
}

template <class R>
AuditRow read_audit(R& r) {
    AuditRow a;
    a.id = r.i64();
    audit_fields(a, Fill<R>{r});
    return a;
}

// --- writing

/// Gives `put` each field it is given (an enum as its int).
template <class Put>
auto putter(Put& put) {
    return [&put](const auto& v) {
        if constexpr (std::is_enum_v<std::decay_t<decltype(v)>>)
            put(int(v));
        else
            put(v);
    };
}

template <class Put>
void put_new_user(Put&& put, const UserRow& u) {
    user_fields(u, putter(put));
    put(key_of(u.name));
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
    game_fields(g, putter(put));
}

template <class Put>
void put_move(Put&& put, std::int64_t game_id, int ply, const MoveRow& m) {
    put(game_id);
    put(ply);
    move_fields(m, putter(put));
}

template <class Put>
void put_challenge(Put&& put, const ChallengeRow& c) {
    challenge_fields(c, putter(put));
}

template <class Put>
void put_message(Put&& put, const MessageRow& m) {
    message_fields(m, putter(put));
    put(key_of(m.to));
}

template <class Put>
void put_ban(Put&& put, const BanRow& b) {
    ban_fields(b, putter(put));
}

template <class Put>
void put_audit(Put&& put, const AuditRow& a) {
    audit_fields(a, putter(put));
}

}  // namespace hisha::server::store::rows
