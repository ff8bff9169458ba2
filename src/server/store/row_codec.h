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
#include <vector>

#include "server/store/records.h"

namespace hisha::server::store::rows {

/// T is Row, const or not (a field list serves reading and writing).
template <class T, class Row>
concept RowOf = std::is_same_v<std::remove_const_t<T>, Row>;

/// The lower-case key of a name (names are looked up case-insensitively).
inline std::string key_of(std::string_view name) {
    std::string k(name);
    for (char& c : k)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return k;
}

/// A table: its name, the columns read_row() reads (SELECT, the key first) and the columns
/// put_new() writes (INSERT, in their order).
struct TableInfo {
    const char* name;
    const char* columns;
    const char* insert;
};
template <class Row>
constexpr TableInfo table{};

template <>
inline constexpr TableInfo table<UserRow>{
    "users",
    "id, name, password_hash, rating, deviation, volatility, wins, losses, draws, created, last_login, last_game, "
    "settings, bot",
    "name, password_hash, rating, deviation, volatility, wins, losses, draws, created, last_login, last_game, "
    "settings, bot, name_key"};
/// (PostgreSQL reads its version after these columns.)
template <>
inline constexpr TableInfo table<GameRow>{
    "games",
    "id, black, white, start_sfen, tc_kind, days, main_ms, byoyomi_ms, increment_ms, csa_seconds, status, "
    "winner, reason, seen_black, seen_white, rem_black, rem_white, turn_started, created, updated, origin, "
    "csa_game_name, rated_applied, undone_ply, undone_text, tournament, rating_black, deviation_black, rating_white, "
    "deviation_white",
    "black, white, start_sfen, tc_kind, days, main_ms, byoyomi_ms, increment_ms, csa_seconds, status, winner, "
    "reason, seen_black, seen_white, rem_black, rem_white, turn_started, created, updated, origin, csa_game_name, "
    "rated_applied, undone_ply, undone_text, tournament, rating_black, deviation_black, rating_white, deviation_white"};
template <>
inline constexpr TableInfo table<MoveRow>{"moves", "ply, text, spent_ms, at, forced, locked, comment",
                                          "game_id, ply, text, spent_ms, at, forced, locked, comment"};
template <>
inline constexpr TableInfo table<ChallengeRow>{
    "challenges",
    "id, challenger, pattern, color, first_move, comment, tc_kind, days, main_ms, byoyomi_ms, increment_ms, created",
    "challenger, pattern, color, first_move, comment, tc_kind, days, main_ms, byoyomi_ms, increment_ms, created"};
template <>
inline constexpr TableInfo table<MessageRow>{"messages", "id, recipient, sender, text, kind, at",
                                             "recipient, sender, text, kind, at, recipient_key"};
template <>
inline constexpr TableInfo table<BanRow>{"bans", "kind, target, reason, by_admin, created, expires",
                                         "kind, target, reason, by_admin, created, expires"};
template <>
inline constexpr TableInfo table<AuditRow>{"audit", "id, at, admin, action, target, detail, peer",
                                           "at, admin, action, target, detail, peer"};

/// "INSERT INTO table (columns) VALUES ($1,$2,...)" for a new Row, one parameter for each column.
template <class Row>
std::string insert_sql() {
    std::string_view columns = table<Row>.insert;
    std::string sql = std::string("INSERT INTO ") + table<Row>.name + " (" + std::string(columns) + ") VALUES (";
    int n = 1 + int(std::count(columns.begin(), columns.end(), ','));
    for (int i = 1; i <= n; ++i)
        sql += (i > 1 ? ",$" : "$") + std::to_string(i);
    return sql + ")";
}

/// "SELECT columns FROM table " + rest (WHERE, ORDER BY ...), for read_row<Row>(); `more`: a
/// store's own columns after them (", version").
template <class Row>
std::string select_sql(std::string_view rest, std::string_view more = {}) {
    return std::string("SELECT ") + table<Row>.columns + std::string(more) + " FROM " + table<Row>.name + " "
         + std::string(rest);
}

// --- each row's fields in column order, once for reading and writing: `f` is called with each
// field in turn (a reference into the row, const when writing). The reader fills each field by
// its type (i32() for int, bool and enums, i64() for ids and times, dbl(), str()); `put` takes
// enums as int.

/// Calls f with each value in turn.
template <class F, class... V>
void each(F& f, V&... v) {
    (f(v), ...);
}

template <class T, class F>
void tc_fields(T& tc, F&& f) {
    each(f, tc.kind, tc.days_per_move, tc.main_ms, tc.byoyomi_ms, tc.increment_ms);
}

/// Every column of users but the id (and the name's key, which only writing adds).
template <RowOf<UserRow> T, class F>
void fields(T& u, F&& f) {
    each(f, u.name, u.password_hash, u.rating, u.deviation, u.volatility, u.wins, u.losses, u.draws, u.created,
         u.last_login, u.last_game, u.settings, u.bot);
}

/// Every column of games but the id (and PostgreSQL's version).
template <RowOf<GameRow> T, class F>
void fields(T& g, F&& f) {
    each(f, g.black, g.white, g.start_sfen);
    tc_fields(g.tc, f);
    each(f, g.tc.csa_seconds, g.status, g.winner, g.reason, g.seen[0], g.seen[1], g.remaining[0], g.remaining[1],
         g.turn_started, g.created, g.updated, g.origin, g.csa_game_name, g.rated_applied, g.undone_ply, g.undone_text,
         g.tournament, g.rating_after[0], g.deviation_after[0], g.rating_after[1], g.deviation_after[1]);
}

/// The columns of moves after the game's id and the ply.
template <RowOf<MoveRow> T, class F>
void fields(T& m, F&& f) {
    each(f, m.text, m.spent_ms, m.at, m.forced, m.locked, m.comment);
}

/// Every column of challenges but the id.
template <RowOf<ChallengeRow> T, class F>
void fields(T& c, F&& f) {
    each(f, c.challenger, c.pattern, c.challenger_color, c.first_move, c.comment);
    tc_fields(c.tc, f);
    each(f, c.created);
}

/// Every column of messages but the id (and the recipient's key, which only writing adds).
template <RowOf<MessageRow> T, class F>
void fields(T& m, F&& f) {
    each(f, m.to, m.from, m.text, m.kind, m.at);
}

template <RowOf<BanRow> T, class F>
void fields(T& b, F&& f) {
    each(f, b.kind, b.target, b.reason, b.by, b.created, b.expires);
}

/// Every column of audit but the id.
template <RowOf<AuditRow> T, class F>
void fields(T& a, F&& f) {
    each(f, a.at, a.admin, a.action, a.target, a.detail, a.peer);
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

/// The key column that comes before the fields: the id, or a move's ply; a ban has none.
template <class Row, class R>
void read_key(Row& row, R& r) {
    if constexpr (std::is_same_v<Row, MoveRow>)
        row.ply = r.i32();
    else if constexpr (requires { row.id; })
        row.id = r.i64();
}

/// A row from a result's current row, read in the order of the table's columns (Table<Row>::columns).
template <class Row, class R>
Row read_row(R& r) {
    Row row;
    read_key(row, r);
    fields(row, Fill<R>{r});
    return row;
}

/// Every remaining row of a result.
template <class Row, class R>
std::vector<Row> read_rows(R& r) {
    std::vector<Row> out;
    while (r.row())
        out.push_back(read_row<Row>(r));
    return out;
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

/// A new row's values in the order of Table<Row>::insert (users and messages add the key of a name).
template <class Row, class Put>
void put_new(Put&& put, const Row& row) {
    fields(row, putter(put));
    if constexpr (std::is_same_v<Row, UserRow>)
        put(key_of(row.name));
    else if constexpr (std::is_same_v<Row, MessageRow>)
        put(key_of(row.to));
}

template <class Put>
void put_move(Put&& put, std::int64_t game_id, int ply, const MoveRow& m) {
    put(game_id);
    put(ply);
    fields(m, putter(put));
}

}  // namespace hisha::server::store::rows
