// read_finished_games(): two queries (the finished games, then their moves in order) over a
// read-only connection, after a look at the schema's version.
#include "server/store/games_reader.h"

#include <libpq-fe.h>
#include <sqlite3.h>

#include <filesystem>
#include <map>
#include <memory>

#include "server/store/schema.h"

namespace hisha::server::store {
namespace {

constexpr const char* GAMES_SQL = "SELECT id, black, white, start_sfen FROM games WHERE status=2 ORDER BY id";
constexpr const char* MOVES_SQL =
    "SELECT m.game_id, m.text FROM moves m JOIN games g ON g.id=m.game_id WHERE g.status=2 "
    "ORDER BY m.game_id, m.ply";

// The schema versions this program knows (the newest is the number of migrations).
int known_version() { return int(schema::migrations(schema::SQLITE, "").size()); }

bool check_version(const std::string& where, const std::string& version, std::string& error) {
    int v = 0;
    try {
        v = std::stoi(version);
    } catch (const std::exception&) {
        v = -1;
    }
    if (v < 1) {
        error = where + ": not a hisha-server database (its schema version is '" + version + "')";
        return false;
    }
    if (v > known_version()) {
        error = where + ": the database schema (version " + version + ") is newer than this program ("
              + std::to_string(known_version()) + ")";
        return false;
    }
    return true;
}

// Adds a move row to its game (the rows come in game and ply order).
void add_move(std::map<std::int64_t, std::size_t>& index, std::vector<GameRow>& games, std::int64_t id,
              std::string text) {
    auto it = index.find(id);
    if (it == index.end())
        return;
    MoveRow m;
    m.ply = int(games[it->second].moves.size());
    m.text = std::move(text);
    games[it->second].moves.push_back(std::move(m));
}

std::map<std::int64_t, std::size_t> index_of(const std::vector<GameRow>& games) {
    std::map<std::int64_t, std::size_t> index;
    for (std::size_t i = 0; i < games.size(); ++i)
        index[games[i].id] = i;
    return index;
}

bool read_sqlite(const std::string& path, std::vector<GameRow>& games, std::string& error) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        error = path + ": no such database file";
        return false;
    }
    sqlite3* raw = nullptr;
    int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
    std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close);
    if (rc != SQLITE_OK) {
        error = path + ": " + (raw ? sqlite3_errmsg(raw) : "cannot open");
        return false;
    }
    sqlite3_busy_timeout(raw, 5000);
    auto query = [&](const char* sql, auto&& row) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(raw, sql, -1, &st, nullptr) != SQLITE_OK) {
            error = sqlite3_errmsg(raw);
            sqlite3_finalize(st);
            return false;
        }
        int step = SQLITE_ROW;
        while ((step = sqlite3_step(st)) == SQLITE_ROW)
            row(st);
        if (step != SQLITE_DONE)
            error = sqlite3_errmsg(raw);
        sqlite3_finalize(st);
        return step == SQLITE_DONE;
    };
    auto text = [](sqlite3_stmt* st, int col) {
        const unsigned char* t = sqlite3_column_text(st, col);
        return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
    };
    std::string version;
    if (!query("SELECT version FROM schema_version", [&](sqlite3_stmt* st) { version = text(st, 0); })) {
        error = path + ": not a hisha-server database (" + error + ")";
        return false;
    }
    if (!check_version(path, version, error))
        return false;
    bool ok = query(GAMES_SQL, [&](sqlite3_stmt* st) {
        GameRow g;
        g.id = sqlite3_column_int64(st, 0);
        g.black = text(st, 1);
        g.white = text(st, 2);
        g.start_sfen = text(st, 3);
        g.status = GameStatus::Finished;
        games.push_back(std::move(g));
    });
    auto index = index_of(games);
    ok = ok
      && query(MOVES_SQL, [&](sqlite3_stmt* st) { add_move(index, games, sqlite3_column_int64(st, 0), text(st, 1)); });
    if (!ok)
        error = path + ": " + error;
    return ok;
}

bool read_postgres(const std::string& url, std::vector<GameRow>& games, std::string& error) {
    std::unique_ptr<PGconn, void (*)(PGconn*)> conn(PQconnectdb(url.c_str()), PQfinish);
    auto fail = [&](const std::string& what) {
        std::string why = PQerrorMessage(conn.get());
        while (!why.empty() && (why.back() == '\n' || why.back() == ' '))
            why.pop_back();
        error = "the PostgreSQL database: " + what + (why.empty() ? "" : ": " + why);
        return false;
    };
    if (!conn || PQstatus(conn.get()) != CONNECTION_OK)
        return fail("cannot connect");
    auto query = [&](const char* sql) {
        return std::unique_ptr<PGresult, void (*)(PGresult*)>(PQexec(conn.get(), sql), PQclear);
    };
    if (PQresultStatus(query("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY").get()) != PGRES_COMMAND_OK)
        return fail("cannot make the session read-only");
    auto v = query("SELECT version FROM hisha_schema_version");
    if (PQresultStatus(v.get()) != PGRES_TUPLES_OK || PQntuples(v.get()) != 1)
        return fail("not a hisha-server database (no schema version)");
    if (!check_version("the PostgreSQL database", PQgetvalue(v.get(), 0, 0), error))
        return false;
    auto g = query(GAMES_SQL);
    if (PQresultStatus(g.get()) != PGRES_TUPLES_OK)
        return fail("reading the games");
    for (int i = 0; i < PQntuples(g.get()); ++i) {
        GameRow row;
        row.id = std::stoll(PQgetvalue(g.get(), i, 0));
        row.black = PQgetvalue(g.get(), i, 1);
        row.white = PQgetvalue(g.get(), i, 2);
        row.start_sfen = PQgetvalue(g.get(), i, 3);
        row.status = GameStatus::Finished;
        games.push_back(std::move(row));
    }
    auto index = index_of(games);
    auto m = query(MOVES_SQL);
    if (PQresultStatus(m.get()) != PGRES_TUPLES_OK)
        return fail("reading the moves");
    for (int i = 0; i < PQntuples(m.get()); ++i)
        add_move(index, games, std::stoll(PQgetvalue(m.get(), i, 0)), PQgetvalue(m.get(), i, 1));
    return true;
}

}  // namespace

bool read_finished_games(const std::string& url, std::vector<GameRow>& games, std::string& error) {
    games.clear();
    if (url.starts_with("postgresql://") || url.starts_with("postgres://"))
        return read_postgres(url, games, error);
    std::string path = url.starts_with("sqlite://") ? url.substr(9) : url.starts_with("sqlite:") ? url.substr(7) : url;
    path = path.substr(0, path.find('?'));  // (the server's options do not matter to a reader)
    if (path.empty()) {
        error = "empty database path";
        return false;
    }
    return read_sqlite(path, games, error);
}

}  // namespace hisha::server::store
