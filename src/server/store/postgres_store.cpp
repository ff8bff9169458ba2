// The PostgreSQL implementation of Store over plain libpq. Every connection LISTENs on
// hisha_events, where the servers sharing the database publish their live events. Parameters go as text ($1, $2 ...);
// every multi-row write is one transaction, a savepoint inside a group-commit batch. Migrations
// run under an advisory lock so that two servers starting on one database do not race.
#include "server/store/postgres_store.h"
#include "server/store/row_codec.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <set>

namespace hisha::server::store {
namespace {

// The schema, one migration per entry (the SQLite schema in PostgreSQL's types).
constexpr const char* MIGRATIONS[] = {
    R"sql(
CREATE TABLE users (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL, deviation DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL,
    wins INTEGER NOT NULL, losses INTEGER NOT NULL, draws INTEGER NOT NULL,
    created BIGINT NOT NULL, last_login BIGINT NOT NULL,
    settings TEXT NOT NULL, bot TEXT NOT NULL);
CREATE TABLE tokens (hash TEXT PRIMARY KEY, username TEXT NOT NULL, expires BIGINT NOT NULL);
CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
    black TEXT NOT NULL, white TEXT NOT NULL, start_sfen TEXT NOT NULL,
    tc_kind INTEGER NOT NULL, days INTEGER NOT NULL, main_ms BIGINT NOT NULL,
    byoyomi_ms BIGINT NOT NULL, increment_ms BIGINT NOT NULL, csa_seconds INTEGER NOT NULL,
    status INTEGER NOT NULL, winner TEXT NOT NULL, reason TEXT NOT NULL,
    seen_black INTEGER NOT NULL, seen_white INTEGER NOT NULL,
    rem_black BIGINT NOT NULL, rem_white BIGINT NOT NULL, turn_started BIGINT NOT NULL,
    created BIGINT NOT NULL, updated BIGINT NOT NULL,
    origin TEXT NOT NULL, csa_game_name TEXT NOT NULL, rated_applied INTEGER NOT NULL,
    undone_ply INTEGER NOT NULL, undone_text TEXT NOT NULL);
CREATE INDEX games_status ON games(status);
CREATE TABLE moves (
    game_id BIGINT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
    text TEXT NOT NULL, spent_ms BIGINT NOT NULL, at BIGINT NOT NULL,
    forced INTEGER NOT NULL, locked INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply));
CREATE TABLE challenges (
    id BIGSERIAL PRIMARY KEY,
    challenger TEXT NOT NULL, pattern TEXT NOT NULL, color INTEGER NOT NULL,
    first_move TEXT NOT NULL, comment TEXT NOT NULL,
    tc_kind INTEGER NOT NULL, days INTEGER NOT NULL, main_ms BIGINT NOT NULL,
    byoyomi_ms BIGINT NOT NULL, increment_ms BIGINT NOT NULL, created BIGINT NOT NULL);
CREATE TABLE messages (
    id BIGSERIAL PRIMARY KEY,
    recipient_key TEXT NOT NULL, recipient TEXT NOT NULL, sender TEXT NOT NULL,
    text TEXT NOT NULL, kind TEXT NOT NULL, at BIGINT NOT NULL);
CREATE INDEX messages_recipient ON messages(recipient_key);
)sql",
    // Several servers on one database: a game's version arbitrates concurrent writes; who is
    // online and who waits for a CSA game, per server session (pid and start of the backend).
    R"sql(
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
)sql",
    // Administration (the administrators, bans of accounts and addresses, the audit log of their
    // actions); tokens found by account (log out everywhere).
    R"sql(
CREATE TABLE admins (name_key TEXT PRIMARY KEY, granted BIGINT NOT NULL);
CREATE TABLE bans (
    kind TEXT NOT NULL, target TEXT NOT NULL, reason TEXT NOT NULL, by_admin TEXT NOT NULL,
    created BIGINT NOT NULL, expires BIGINT NOT NULL,
    PRIMARY KEY (kind, target));
CREATE TABLE audit (
    id BIGSERIAL PRIMARY KEY, at BIGINT NOT NULL, admin TEXT NOT NULL,
    action TEXT NOT NULL, target TEXT NOT NULL, detail TEXT NOT NULL, peer TEXT NOT NULL);
CREATE INDEX tokens_user ON tokens(username);
)sql",
    // A move's comment (the evaluation comment a CSA engine sends after its move).
    R"sql(
ALTER TABLE moves ADD COLUMN comment TEXT NOT NULL DEFAULT '';
)sql",
    // Scheduled tournaments (the one that paired a game) and the public rating list (when an
    // account's last rated game ended: its last finished game so far).
    R"sql(
ALTER TABLE games ADD COLUMN tournament TEXT NOT NULL DEFAULT '';
CREATE INDEX games_tournament ON games(tournament, id);
ALTER TABLE users ADD COLUMN last_game BIGINT NOT NULL DEFAULT 0;
UPDATE users SET last_game = COALESCE((SELECT max(g.updated) FROM games g WHERE g.status = 2 AND g.rated_applied != 0
    AND (lower(g.black) = users.name_key OR lower(g.white) = users.name_key)), 0);
)sql",
};

// A row's server session is still running. backend_start is NULL in pg_stat_activity for a
// role that may not see another role's sessions; the pid alone decides then.
constexpr const char* SESSION_ALIVE =
    "EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = t.backend_pid "
    "AND (a.backend_start IS NULL OR t.backend_start IS NULL OR a.backend_start = t.backend_start))";


// An arbitrary key for pg_advisory_lock around migrations.
constexpr const char* MIGRATION_LOCK = "SELECT pg_advisory_lock(72687368)";
constexpr const char* MIGRATION_UNLOCK = "SELECT pg_advisory_unlock(72687368)";

using rows::key_of;
using rows::USER_COLUMNS;

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

/// The columns of rows::read_game(), then the version.
const std::string GAME_COLUMNS = std::string(rows::GAME_COLUMNS) + ", version";

/// The values of a statement in turn, for the row codec.
auto adder(Params& p) {
    return [&p](const auto& v) { p.add(v); };
}

class PostgresStore final : public Store {
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
        if (!migrate() || !exec("LISTEN hisha_events"))
            return false;
        backend_pid_ = PQbackendPID(conn_);
        Params p;
        Rows r(query("SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()", p));
        if (r.row())
            backend_start_ = r.str();
        return true;
    }

    const std::string& last_error() const override { return error_; }

    bool reachable() override {
        if (PQstatus(conn_) != CONNECTION_OK) {
            error_ = "the connection to the database is lost: " + trimmed(PQerrorMessage(conn_));
            return false;
        }
        return exec("SELECT 1");
    }

    bool save_user(UserRow& u) override {
        if (u.id == 0) {
            Params p;
            rows::put_new_user(adder(p), u);
            Rows r(query(rows::insert_sql("users", rows::NEW_USER_COLUMNS, true) + " RETURNING id", p));
            if (!r.row())
                return fail(r);
            u.id = r.i64();
            return true;
        }
        Params p;
        rows::put_user_update(adder(p), u);
        return command("UPDATE users SET password_hash=$1, rating=$2, deviation=$3, volatility=$4, wins=$5, "
                       "losses=$6, draws=$7, last_login=$8, last_game=$9, settings=$10, bot=$11 WHERE id=$12",
                       p);
    }

    std::optional<UserRow> find_user(std::string_view name) override {
        Params p;
        p.add(key_of(name));
        Rows r(query(std::string("SELECT ") + USER_COLUMNS + " FROM users WHERE name_key=$1", p));
        if (!r.row())
            return std::nullopt;
        return rows::read_user(r);
    }

    std::vector<UserRow> all_users() override {
        Params p;
        Rows r(query(std::string("SELECT ") + USER_COLUMNS + " FROM users ORDER BY name_key", p));
        std::vector<UserRow> out;
        while (r.row())
            out.push_back(rows::read_user(r));
        return out;
    }

    bool save_token(const std::string& hash, const std::string& user, Millis expires) override {
        Params p;
        p.add(hash).add(user).add(expires);
        return command("INSERT INTO tokens (hash, username, expires) VALUES ($1,$2,$3) "
                       "ON CONFLICT (hash) DO UPDATE SET username=EXCLUDED.username, expires=EXCLUDED.expires",
                       p);
    }
    std::optional<std::string> token_user(const std::string& hash, Millis now) override {
        Params p;
        p.add(hash).add(now);
        Rows r(query("SELECT username FROM tokens WHERE hash=$1 AND expires>$2", p));
        if (!r.row())
            return std::nullopt;
        return r.str();
    }
    bool delete_token(const std::string& hash) override {
        Params p;
        p.add(hash);
        return command("DELETE FROM tokens WHERE hash=$1", p);
    }
    bool delete_tokens_of(std::string_view user) override {
        Params p;
        p.add(user);
        return command("DELETE FROM tokens WHERE username=$1", p);
    }
    bool delete_expired_tokens(Millis now) override {
        Params p;
        p.add(now);
        return command("DELETE FROM tokens WHERE expires<=$1", p);
    }

    bool set_admin(std::string_view user, bool admin, Millis at) override {
        Params p;
        p.add(key_of(user));
        if (!admin)
            return command("DELETE FROM admins WHERE name_key=$1", p);
        p.add(at);
        return command("INSERT INTO admins (name_key, granted) VALUES ($1,$2) ON CONFLICT (name_key) DO NOTHING", p);
    }
    bool is_admin(std::string_view user) override {
        Params p;
        p.add(key_of(user));
        Rows r(query("SELECT 1 FROM admins WHERE name_key=$1", p));
        return r.row();
    }
    std::vector<std::string> admins() override {
        Params p;
        Rows r(query("SELECT name_key FROM admins ORDER BY name_key", p));
        std::vector<std::string> out;
        while (r.row())
            out.push_back(r.str());
        return out;
    }
    bool save_ban(const BanRow& b) override {
        Params p;
        rows::put_ban(adder(p), b);
        return command("INSERT INTO bans (kind, target, reason, by_admin, created, expires) VALUES ($1,$2,$3,$4,$5,$6) "
                       "ON CONFLICT (kind, target) DO UPDATE SET reason=EXCLUDED.reason, by_admin=EXCLUDED.by_admin, "
                       "created=EXCLUDED.created, expires=EXCLUDED.expires",
                       p);
    }
    bool delete_ban(const std::string& kind, const std::string& target) override {
        Params p;
        p.add(kind).add(target);
        return command("DELETE FROM bans WHERE kind=$1 AND target=$2", p);
    }
    std::vector<BanRow> bans() override {
        Params p;
        Rows r(query(std::string("SELECT ") + rows::BAN_COLUMNS + " FROM bans ORDER BY kind, target", p));
        std::vector<BanRow> out;
        while (r.row())
            out.push_back(rows::read_ban(r));
        return out;
    }
    bool insert_audit(AuditRow& a) override {
        Params p;
        rows::put_audit(adder(p), a);
        Rows r(query(rows::insert_sql("audit", rows::NEW_AUDIT_COLUMNS, true) + " RETURNING id", p));
        if (!r.row())
            return fail(r);
        a.id = r.i64();
        return true;
    }
    std::vector<AuditRow> audit(int limit) override {
        Params p;
        p.add(limit);
        Rows r(query(std::string("SELECT ") + rows::AUDIT_COLUMNS + " FROM audit ORDER BY id DESC LIMIT $1", p));
        std::vector<AuditRow> out;
        while (r.row())
            out.push_back(rows::read_audit(r));
        return out;
    }

    bool insert_game(GameRow& g) override {
        if (!begin())
            return false;
        Params p;
        rows::put_new_game(adder(p), g);
        Rows r(query(rows::insert_sql("games", rows::NEW_GAME_COLUMNS, true) + " RETURNING id", p));
        if (!r.row()) {
            fail(r);
            return rollback();
        }
        g.id = r.i64();
        if (!insert_moves(g, 0))
            return rollback();
        return commit();
    }

    bool save_game(const GameRow& g, int from_ply, std::vector<UserRow*> users) override {
        lost_race_ = false;
        if (!begin())
            return false;
        Params p;
        p.add(int(g.status))
            .add(g.winner)
            .add(g.reason)
            .add(g.seen[0])
            .add(g.seen[1])
            .add(g.remaining[0])
            .add(g.remaining[1])
            .add(g.turn_started)
            .add(g.updated)
            .add(g.rated_applied)
            .add(g.undone_ply)
            .add(g.undone_text)
            .add(g.black)
            .add(g.white)
            .add(g.id)
            .add(g.version);
        // Written only over the version this server read, the game row first: when another
        // server wrote the game since, no row matches (its UPDATE holds the row until it
        // commits, then this one re-reads it and finds the newer version), and nothing of this
        // save is kept. The moves follow under the row's lock.
        Rows r(query("UPDATE games SET status=$1, winner=$2, reason=$3, seen_black=$4, seen_white=$5, rem_black=$6, "
                     "rem_white=$7, turn_started=$8, updated=$9, rated_applied=$10, undone_ply=$11, "
                     "undone_text=$12, black=$13, white=$14, version=version+1 WHERE id=$15 AND version=$16",
                     p));
        if (!r.ok()) {
            fail(r);
            return rollback();
        }
        if (std::string_view(PQcmdTuples(r.get())) != "1") {
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

    std::optional<GameRow> load_game(std::int64_t id) override {
        Params p;
        p.add(id);
        Rows r(query(std::string("SELECT ") + GAME_COLUMNS + " FROM games WHERE id=$1", p));
        if (!r.row())
            return std::nullopt;
        GameRow g = read_game(r);
        load_moves(g);
        return g;
    }

    std::vector<GameRow> open_games() override {
        Params p;
        p.add(int(GameStatus::Finished));
        Rows r(query(std::string("SELECT ") + GAME_COLUMNS + " FROM games WHERE status<$1 ORDER BY id", p));
        return read_games(r);
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

    std::vector<GameRow> finished_games(std::string_view user, int limit) override {
        Params p;
        p.add(int(GameStatus::Finished)).add(key_of(user)).add(limit);
        Rows r(query(std::string("SELECT ") + GAME_COLUMNS
                         + " FROM games WHERE status>=$1 AND (lower(black)=$2 OR lower(white)=$2) ORDER BY id DESC "
                           "LIMIT $3",
                     p));
        return read_games(r);
    }

    std::vector<GameRow> tournament_games(std::string_view tournament, std::string_view user, int limit) override {
        Params p;
        p.add(std::string(tournament)).add(key_of(user)).add(limit);
        Rows r(query(std::string("SELECT ") + GAME_COLUMNS
                         + " FROM games WHERE tournament=$1 AND ($2='' OR lower(black)=$2 OR lower(white)=$2) "
                           "ORDER BY id DESC LIMIT $3",
                     p));
        std::vector<GameRow> out;
        while (r.row())
            out.push_back(read_game(r));
        return out;
    }

    bool insert_challenge(ChallengeRow& c) override {
        Params p;
        rows::put_challenge(adder(p), c);
        Rows r(query(rows::insert_sql("challenges", rows::NEW_CHALLENGE_COLUMNS, true) + " RETURNING id", p));
        if (!r.row())
            return fail(r);
        c.id = r.i64();
        return true;
    }
    bool delete_challenge(std::int64_t id) override {
        lost_race_ = false;
        Params p;
        p.add(id);
        Rows r(query("DELETE FROM challenges WHERE id=$1", p));
        if (!r.ok())
            return fail(r);
        if (std::string_view(PQcmdTuples(r.get())) != "1") {  // another server took it first
            lost_race_ = true;
            error_ = "challenge " + std::to_string(id) + " is no longer open";
            return false;
        }
        return true;
    }
    std::vector<ChallengeRow> challenges() override {
        Params p;
        Rows r(query("SELECT id, challenger, pattern, color, first_move, comment, tc_kind, days, main_ms, "
                     "byoyomi_ms, increment_ms, created FROM challenges ORDER BY id",
                     p));
        std::vector<ChallengeRow> out;
        while (r.row())
            out.push_back(rows::read_challenge(r));
        return out;
    }

    bool insert_message(MessageRow& m) override {
        Params p;
        rows::put_message(adder(p), m);
        Rows r(query(rows::insert_sql("messages", rows::NEW_MESSAGE_COLUMNS, true) + " RETURNING id", p));
        if (!r.row())
            return fail(r);
        m.id = r.i64();
        return true;
    }
    std::vector<MessageRow> messages_for(std::string_view user) override {
        Params p;
        p.add(key_of(user));
        Rows r(
            query("SELECT id, recipient, sender, text, kind, at FROM messages WHERE recipient_key=$1 ORDER BY id", p));
        std::vector<MessageRow> out;
        while (r.row())
            out.push_back(rows::read_message(r));
        return out;
    }
    bool delete_messages(const std::vector<std::int64_t>& ids) override {
        if (!begin())
            return false;
        for (auto id : ids) {
            Params p;
            p.add(id);
            if (!command("DELETE FROM messages WHERE id=$1", p))
                return rollback();
        }
        return commit();
    }

    bool batch_begin() override {
        if (batch_)
            return true;
        if (!exec("BEGIN"))
            return false;
        batch_ = true;
        return true;
    }
    bool batch_commit() override {
        if (!batch_)
            return true;
        batch_ = false;
        if (exec("COMMIT"))
            return true;
        std::string keep = error_;
        exec("ROLLBACK");
        error_ = keep;
        return false;
    }
    bool in_batch() const override { return batch_; }

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
    bool fail(const Rows& r) {
        (void)r;
        error_ = trimmed(PQerrorMessage(conn_));
        if (error_.empty())
            error_ = "no row returned";
        return false;
    }
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
    // Inside a batch a write is a savepoint, so that a failed write is undone alone.
    bool begin() { return exec(batch_ ? "SAVEPOINT w" : "BEGIN"); }
    bool commit() { return exec(batch_ ? "RELEASE SAVEPOINT w" : "COMMIT") || rollback(); }
    bool rollback() {
        std::string keep = error_;
        if (batch_) {
            exec("ROLLBACK TO SAVEPOINT w");
            exec("RELEASE SAVEPOINT w");
        } else {
            exec("ROLLBACK");
        }
        error_ = keep;
        return false;
    }

    bool migrate() {
        if (!exec(MIGRATION_LOCK))
            return false;
        bool ok = run_migrations();
        std::string keep = error_;
        exec(MIGRATION_UNLOCK);
        error_ = keep;
        return ok;
    }
    bool run_migrations() {
        if (!exec("CREATE TABLE IF NOT EXISTS hisha_schema_version (version INTEGER NOT NULL)"))
            return false;
        int version = 0;
        {
            Params p;
            Rows r(query("SELECT version FROM hisha_schema_version", p));
            if (r.row())
                version = r.i32();
            else if (!exec("INSERT INTO hisha_schema_version (version) VALUES (0)"))
                return false;
        }
        int target = int(std::size(MIGRATIONS));
        if (version > target) {
            error_ = "the database schema (version " + std::to_string(version) + ") is newer than this server ("
                   + std::to_string(target) + ")";
            return false;
        }
        for (int v = version; v < target; ++v) {
            if (!begin())
                return false;
            if (!exec(MIGRATIONS[v]))
                return rollback();
            Params p;
            p.add(v + 1);
            if (!command("UPDATE hisha_schema_version SET version=$1", p))
                return rollback();
            if (!commit())
                return false;
        }
        return true;
    }

    static GameRow read_game(Rows& r) {
        GameRow g = rows::read_game(r);
        g.version = r.i64();
        return g;
    }

    std::vector<GameRow> read_games(Rows& r) {
        std::vector<GameRow> out;
        while (r.row())
            out.push_back(read_game(r));
        for (auto& g : out)
            load_moves(g);
        return out;
    }

    void load_moves(GameRow& g) {
        Params p;
        p.add(g.id);
        Rows r(query("SELECT ply, text, spent_ms, at, forced, locked, comment FROM moves WHERE game_id=$1 ORDER BY ply", p));
        while (r.row())
            g.moves.push_back(rows::read_move(r));
    }

    bool insert_moves(const GameRow& g, int from_ply) {
        for (std::size_t i = std::size_t(std::max(0, from_ply)); i < g.moves.size(); ++i) {
            const MoveRow& m = g.moves[i];
            Params p;
            rows::put_move(adder(p), g.id, int(i), m);
            static const std::string sql = rows::insert_sql("moves", rows::NEW_MOVE_COLUMNS, true);
            if (!command(sql, p))
                return false;
        }
        return true;
    }

    PGconn* conn_ = nullptr;
    int backend_pid_ = 0;
    std::string backend_start_;  // of this session's backend, as PostgreSQL prints it
    std::int64_t last_sweep_ = 0;
    bool lost_race_ = false;
    std::set<std::string> claimed_;  // claim(): the advisory locks this session holds
    std::string error_;
    bool batch_ = false;
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
