// The PostgreSQL implementation of Store over plain libpq. Every connection LISTENs on
// hisha_events, where the servers sharing the database publish their live events. Parameters go as text ($1, $2 ...);
// every multi-row write is one transaction, a savepoint inside a group-commit batch. Migrations
// run under an advisory lock so that two servers starting on one database do not race.
#include "server/store/postgres_store.h"
#include "server/store/sql_store.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <set>

namespace hisha::server::store {
namespace {

// Several servers on one database: a game's version arbitrates concurrent writes; who is
// online and who waits for a CSA game, per server session (pid and start of the backend).
constexpr const char* SEVERAL_SERVERS = R"sql(
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
CREATE TABLE presence (
    backend_pid INTEGER NOT NULL, backend_start TIMESTAMPTZ,
    user_key TEXT NOT NULL, name TEXT NOT NULL, protocol TEXT NOT NULL,
    since BIGINT NOT NULL, connections INTEGER NOT NULL,
    PRIMARY KEY (backend_pid, user_key));
CREATE TABLE csa_waiting (
    user_key TEXT PRIMARY KEY, name TEXT NOT NULL, game_name TEXT NOT NULL, color INTEGER NOT NULL,
    backend_pid INTEGER NOT NULL, backend_start TIMESTAMPTZ, since BIGINT NOT NULL);
CREATE INDEX csa_waiting_game ON csa_waiting(game_name);
)sql";

/// The schema, one migration per entry (schema.h); the database keeps how many ran.
const std::vector<std::string>& migrations() {
    static const std::vector<std::string> all = schema::migrations(schema::POSTGRES, SEVERAL_SERVERS);
    return all;
}

// A row's server session is still running. backend_start is NULL in pg_stat_activity for a
// role that may not see another role's sessions; the pid alone decides then.
constexpr const char* SESSION_ALIVE =
    "EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = t.backend_pid "
    "AND (a.backend_start IS NULL OR t.backend_start IS NULL OR a.backend_start = t.backend_start))";

// An arbitrary key for pg_advisory_lock around migrations.
constexpr const char* MIGRATION_LOCK = "SELECT pg_advisory_lock(72687368)";
constexpr const char* MIGRATION_UNLOCK = "SELECT pg_advisory_unlock(72687368)";

using rows::key_of;

/// A result with column reading in order (row by row).
class Rows {
public:
    explicit Rows(PGresult* r) : r_(r) {}
    ~Rows() { PQclear(r_); }
    Rows(const Rows&) = delete;
    Rows& operator=(const Rows&) = delete;

    PGresult* get() const { return r_; }
    bool ok() const {
        auto s = PQresultStatus(r_);
        return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
    }
    /// Moves to the next row: true when there is one.
    bool row() {
        col_ = 0;
        return ok() && ++row_ < PQntuples(r_);
    }
    std::string str() { return PQgetvalue(r_, row_, col_++); }
    std::int64_t i64() {
        const char* v = PQgetvalue(r_, row_, col_++);
        std::int64_t n = 0;
        std::from_chars(v, v + std::char_traits<char>::length(v), n);
        return n;
    }
    int i32() { return int(i64()); }
    double dbl() { return std::strtod(PQgetvalue(r_, row_, col_++), nullptr); }

private:
    PGresult* r_;
    int row_ = -1, col_ = 0;
};

/// Parameters of one statement, all sent as text.
class Params {
public:
    Params& add(std::int64_t v) { return add_text(std::to_string(v)); }
    Params& add(int v) { return add_text(std::to_string(v)); }
    Params& add(bool v) { return add_text(v ? "1" : "0"); }
    Params& add(double v) {
        char buf[64];
        auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
        return add_text(std::string(buf, end));
    }
    Params& add(std::string_view v) { return add_text(std::string(v)); }
    Params& add(const std::string& v) { return add_text(v); }
    Params& add(const char* v) { return add_text(v); }
    /// A text value, or SQL NULL when it is empty.
    Params& add_or_null(const std::string& v) {
        add_text(v);
        nulls_.resize(values_.size());
        nulls_.back() = v.empty();
        return *this;
    }

    int size() const { return int(values_.size()); }
    const char* const* values() {
        ptrs_.clear();
        for (std::size_t i = 0; i < values_.size(); ++i)
            ptrs_.push_back(i < nulls_.size() && nulls_[i] ? nullptr : values_[i].c_str());
        return ptrs_.data();
    }

private:
    Params& add_text(std::string v) {
        values_.push_back(std::move(v));
        return *this;
    }
    std::vector<std::string> values_;
    std::vector<bool> nulls_;
    std::vector<const char*> ptrs_;
};

class PostgresStore;

/// A statement with its parameters, run when its first row or its end is asked for.
class Query {
public:
    Query(PGconn* conn, std::string sql, std::int64_t& changed)
        : conn_(conn), sql_(std::move(sql)), changed_(changed) {}
    template <class V>
    Query& bind(const V& v) {
        params_.add(v);
        return *this;
    }
    bool exec() { return run().ok(); }
    bool row() { return run().row(); }
    std::int64_t i64() { return rows_->i64(); }
    int i32() { return rows_->i32(); }
    double dbl() { return rows_->dbl(); }
    std::string str() { return rows_->str(); }

private:
    Rows& run() {
        if (!rows_) {
            rows_.emplace(
                PQexecParams(conn_, sql_.c_str(), params_.size(), nullptr, params_.values(), nullptr, nullptr, 0));
            const char* n = PQcmdTuples(rows_->get());
            changed_ = n && *n ? std::atoll(n) : 0;
        }
        return *rows_;
    }
    PGconn* conn_;
    std::string sql_;
    std::int64_t& changed_;
    Params params_;
    std::optional<Rows> rows_;
};

class PostgresStore final : public SqlStore<PostgresStore> {
public:
    ~PostgresStore() override {
        if (conn_)
            PQfinish(conn_);
    }

    bool open(const std::string& url) {
        conn_ = PQconnectdb(url.c_str());
        if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
            error_ = conn_ ? trimmed(PQerrorMessage(conn_)) : "out of memory";
            return false;
        }
        if (!exec("SET synchronous_commit = on") || !exec("SET client_min_messages = warning"))
            return false;
        if (!migrate_locked() || !exec("LISTEN hisha_events"))
            return false;
        backend_pid_ = PQbackendPID(conn_);
        Params p;
        Rows r(query("SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()", p));
        if (r.row())
            backend_start_ = r.str();
        return true;
    }

    bool reachable() override {
        if (PQstatus(conn_) != CONNECTION_OK) {
            error_ = "the connection to the database is lost: " + trimmed(PQerrorMessage(conn_));
            return false;
        }
        return exec("SELECT 1");
    }

    bool save_game(const GameRow& g, int from_ply, std::vector<UserRow*> users) override {
        lost_race_ = false;
        if (!begin())
            return false;
        // Written only over the version this server read, the game row first: when another
        // server wrote the game since, no row matches (its UPDATE holds the row until it
        // commits, then this one re-reads it and finds the newer version), and nothing of this
        // save is kept. The moves follow under the row's lock.
        if (!update_game(g, ", version=version+1 WHERE id=$19 AND version=$20", g.id, g.version))
            return rollback();
        if (changed_ != 1) {
            lost_race_ = true;
            error_ = "game " + std::to_string(g.id) + " was changed on another server meanwhile";
            return rollback();
        }
        Params d;
        d.add(g.id).add(from_ply);
        if (!command("DELETE FROM moves WHERE game_id=$1 AND ply>=$2", d) || !insert_moves(g, from_ply))
            return rollback();
        for (UserRow* u : users)
            if (u && !save_user(*u))
                return rollback();
        return commit();
    }

    std::vector<std::int64_t> open_game_ids_of(std::string_view user) override {
        Params p;
        p.add(int(GameStatus::Finished)).add(key_of(user));
        Rows r(query("SELECT id FROM games WHERE status<$1 AND (lower(black)=$2 OR lower(white)=$2) ORDER BY id", p));
        std::vector<std::int64_t> ids;
        while (r.row())
            ids.push_back(r.i64());
        return ids;
    }

    bool delete_challenge(std::int64_t id) override {
        lost_race_ = false;
        if (!run("DELETE FROM challenges WHERE id=$1", id))
            return false;
        if (changed_ != 1) {  // another server took it first
            lost_race_ = true;
            error_ = "challenge " + std::to_string(id) + " is no longer open";
            return false;
        }
        return true;
    }

    void publish(const std::string& payload) override {
        Params p;
        p.add(payload.substr(0, 7000));  // NOTIFY payloads stay under 8000 bytes
        Rows r(query("SELECT pg_notify('hisha_events', $1)", p));
        (void)r;
    }
    int notification_fd() override { return PQsocket(conn_); }
    std::vector<std::string> take_notifications() override {
        std::vector<std::string> out;
        PQconsumeInput(conn_);
        while (PGnotify* n = PQnotifies(conn_)) {
            if (n->be_pid != backend_pid_)
                out.emplace_back(n->extra);
            PQfreemem(n);
        }
        return out;
    }

    bool set_presence(const PresenceRow& pr) override {
        Params p;
        p.add(backend_pid_).add(key_of(pr.name));
        if (pr.connections <= 0)
            return command("DELETE FROM presence WHERE backend_pid=$1 AND user_key=$2", p);
        p.add_or_null(backend_start_).add(pr.name).add(pr.protocol).add(pr.since).add(pr.connections);
        // A row of a dead session with this pid (PostgreSQL reuses pids) is replaced.
        return command(
            "INSERT INTO presence (backend_pid, user_key, backend_start, name, protocol, since, connections) "
            "VALUES ($1,$2,$3::timestamptz,$4,$5,$6,$7) ON CONFLICT (backend_pid, user_key) DO UPDATE SET "
            "backend_start=EXCLUDED.backend_start, name=EXCLUDED.name, protocol=EXCLUDED.protocol, "
            "since=EXCLUDED.since, connections=EXCLUDED.connections",
            p);
    }
    std::vector<PresenceRow> remote_presence() override {
        sweep();
        Params p;
        p.add(backend_pid_);
        Rows r(query(std::string("SELECT name, protocol, since, connections FROM presence t WHERE backend_pid<>$1 AND ")
                         + SESSION_ALIVE + " ORDER BY user_key",
                     p));
        std::vector<PresenceRow> out;
        while (r.row()) {
            PresenceRow pr;
            pr.name = r.str();
            pr.protocol = r.str();
            pr.since = r.i64();
            pr.connections = r.i32();
            out.push_back(std::move(pr));
        }
        return out;
    }
    bool lost_race() const override { return lost_race_; }
    bool shared() const override { return true; }

    bool claim(const std::string& what) override {
        if (claimed_.contains(what))
            return true;  // held already (asking again would only count the lock twice)
        Params p;
        p.add(what);
        Rows r(query("SELECT pg_try_advisory_lock(72687370, hashtext($1))", p));
        if (!r.row())
            return fail(r);
        if (r.str() != "t")
            return false;
        claimed_.insert(what);
        return true;
    }

    bool csa_pair_or_wait(const WaitingRow& w, std::optional<WaitingRow>& rival) override {
        rival.reset();
        // One game name at a time across all servers (a transaction-scoped advisory lock on
        // its hash), so that two players arriving at once on two servers cannot both wait.
        if (!begin())
            return false;
        Params lock;
        lock.add(w.game_name);
        if (!command("SELECT pg_advisory_xact_lock(72687369, hashtext($1))", lock))
            return rollback();
        Params p;
        p.add(w.game_name).add(key_of(w.name)).add(w.color);
        Rows r(query(std::string("DELETE FROM csa_waiting WHERE user_key = (SELECT user_key FROM csa_waiting t "
                                 "WHERE game_name=$1 AND user_key<>$2 AND (color<0 OR $3::int<0 OR color<>$3::int) "
                                 "AND ")
                         + SESSION_ALIVE + " ORDER BY since, user_key LIMIT 1) RETURNING name, game_name, color",
                     p));
        if (!r.ok()) {
            fail(r);
            return rollback();
        }
        if (r.row()) {
            rival.emplace();
            rival->name = r.str();
            rival->game_name = r.str();
            rival->color = r.i32();
        } else {
            Params q;
            q.add(key_of(w.name)).add(w.name).add(w.game_name).add(w.color).add(backend_pid_);
            q.add_or_null(backend_start_).add(now_ms());
            if (!command(
                    "INSERT INTO csa_waiting (user_key, name, game_name, color, backend_pid, backend_start, since) "
                    "VALUES ($1,$2,$3,$4,$5,$6::timestamptz,$7) ON CONFLICT (user_key) DO UPDATE SET "
                    "name=EXCLUDED.name, game_name=EXCLUDED.game_name, color=EXCLUDED.color, "
                    "backend_pid=EXCLUDED.backend_pid, backend_start=EXCLUDED.backend_start, since=EXCLUDED.since",
                    q))
                return rollback();
        }
        return commit();
    }
    void csa_unwait(std::string_view name) override {
        Params p;
        p.add(key_of(name)).add(backend_pid_);
        command("DELETE FROM csa_waiting WHERE user_key=$1 AND backend_pid=$2", p);
    }

private:
    // Presence and waiting rows of sessions that ended (a server that crashed), at most once a second.
    void sweep() {
        std::int64_t t = now_ms();
        if (t - last_sweep_ < 1000)
            return;
        last_sweep_ = t;
        Params p;
        command(std::string("DELETE FROM presence t WHERE NOT ") + SESSION_ALIVE, p);
        command(std::string("DELETE FROM csa_waiting t WHERE NOT ") + SESSION_ALIVE, p);
    }
    static std::int64_t now_ms() {
        using namespace std::chrono;
        return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    }
    static std::string trimmed(std::string s) {
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
            s.pop_back();
        return s;
    }
    bool fail(const Rows&) { return fail(); }
    PGresult* query(const std::string& sql, Params& p) {
        return PQexecParams(conn_, sql.c_str(), p.size(), nullptr, p.values(), nullptr, nullptr, 0);
    }
    bool command(const std::string& sql, Params& p) {
        Rows r(query(sql, p));
        if (!r.ok())
            return fail(r);
        return true;
    }
    bool exec(const char* sql) {
        Rows r(PQexec(conn_, sql));
        if (!r.ok())
            return fail(r);
        return true;
    }
    bool migrate_locked() {
        if (!exec(MIGRATION_LOCK))
            return false;
        bool ok = migrate(migrations());
        std::string keep = error_;
        exec(MIGRATION_UNLOCK);
        error_ = keep;
        return ok;
    }

    // --- what SqlStore asks of a database (sql_store.h)
    friend class SqlStore<PostgresStore>;
    static constexpr const schema::Dialect& DIALECT = schema::POSTGRES;

    Query statement(std::string sql) { return Query(conn_, std::move(sql), changed_); }
    static bool inserted(Query& q, std::int64_t& id) {
        if (!q.row())
            return false;
        id = q.i64();
        return true;
    }
    bool exec_often(const char* sql) { return exec(sql); }
    bool fail() {
        error_ = trimmed(PQerrorMessage(conn_));
        if (error_.empty())
            error_ = "no row returned";
        return false;
    }
    std::string error_now() const { return error_; }
    static void read_more(Query& q, GameRow& g) { g.version = q.i64(); }
    static void game_inserted(const GameRow&) {}
    static void batch_lost() {}

    PGconn* conn_ = nullptr;
    int backend_pid_ = 0;
    std::string backend_start_;  // of this session's backend, as PostgreSQL prints it
    std::int64_t last_sweep_ = 0;
    bool lost_race_ = false;
    std::set<std::string> claimed_;  // claim(): the advisory locks this session holds
    std::int64_t changed_ = 0;       // rows the last statement() changed
};

}  // namespace

std::unique_ptr<Store> open_postgres(const std::string& url, std::string& error) {
    auto s = std::make_unique<PostgresStore>();
    if (!s->open(url)) {
        error = "PostgreSQL: " + s->last_error();
        return nullptr;
    }
    return s;
}

}  // namespace hisha::server::store
