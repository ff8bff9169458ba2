// What the SQLite and PostgreSQL stores share, written once: the statements of the Store
// interface (every one in SQL both databases read: $1, $2 ... parameters, which SQLite numbers
// by their first appearance, and ON CONFLICT), the transactions, the migrations. Each store
// is a Db deriving from SqlStore<Db> and gives the few things that differ:
//   statement(sql)          a statement with bind(value), exec(), row() and the readers i32(),
//                           i64(), dbl(), str() (SQLite's prepared Stmt, PostgreSQL's Query)
//   inserted(stmt, id)      runs an INSERT and gives the new row's id
//   exec(sql), exec_often(sql)   a statement without parameters (exec_often: one run on every
//                           write, which SQLite keeps prepared)
//   fail()                  takes the database's last error into error_ and returns false
//   error_now()             the error to keep across a rollback
//   read_more(stmt, game)   a game's columns after the shared ones (PostgreSQL's version)
//   game_inserted(game), batch_lost()   what a store remembers about the rows it wrote
//   DIALECT                 how its SQL differs (schema.h)
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "server/store/row_codec.h"
#include "server/store/schema.h"
#include "server/store/store.h"

namespace hisha::server::store {

template <class Db>
class SqlStore : public Store {
public:
    const std::string& last_error() const override { return error_; }

    // --- accounts and their login tokens

    bool save_user(UserRow& u) override {
        if (u.id == 0)
            return insert_row(u);
        return run("UPDATE users SET password_hash=$1, rating=$2, deviation=$3, volatility=$4, wins=$5, losses=$6, "
                   "draws=$7, last_login=$8, last_game=$9, settings=$10, bot=$11 WHERE id=$12",
                   u.password_hash, u.rating, u.deviation, u.volatility, u.wins, u.losses, u.draws, u.last_login,
                   u.last_game, u.settings, u.bot, u.id);
    }
    std::optional<UserRow> find_user(std::string_view name) override {
        return first(select<UserRow>("WHERE name_key=$1", rows::key_of(name)));
    }
    std::vector<UserRow> all_users() override { return select<UserRow>("ORDER BY name_key"); }
    bool delete_user(std::string_view name) override {
        static const std::string sql = schema::in(Db::DIALECT, "DELETE FROM tokens WHERE lower({TOKEN_USER})=$1");
        if (!begin())
            return false;
        if (!run(sql, rows::key_of(name)) || !run("DELETE FROM users WHERE name_key=$1", rows::key_of(name)))
            return rollback();
        return commit();
    }
    bool rename_player(std::string_view from, std::string_view to) override {
        if (!begin())
            return false;
        if (!run("UPDATE games SET black=$1 WHERE lower(black)=$2", to, rows::key_of(from))
            || !run("UPDATE games SET white=$1 WHERE lower(white)=$2", to, rows::key_of(from)))
            return rollback();
        return commit();
    }

    bool save_token(const std::string& hash, const std::string& user, Millis expires) override {
        static const std::string sql = schema::in(
            Db::DIALECT, "INSERT INTO tokens (hash, {TOKEN_USER}, expires) VALUES ($1,$2,$3) ON CONFLICT (hash) DO "
                         "UPDATE SET {TOKEN_USER}=excluded.{TOKEN_USER}, expires=excluded.expires");
        return run(sql, hash, user, expires);
    }
    std::optional<std::string> token_user(const std::string& hash, Millis now) override {
        static const std::string sql =
            schema::in(Db::DIALECT, "SELECT {TOKEN_USER} FROM tokens WHERE hash=$1 AND expires>$2");
        return first(texts(sql, hash, now));
    }
    bool delete_token(const std::string& hash) override { return run("DELETE FROM tokens WHERE hash=$1", hash); }
    bool delete_tokens_of(std::string_view user) override {
        static const std::string sql = schema::in(Db::DIALECT, "DELETE FROM tokens WHERE {TOKEN_USER}=$1");
        return run(sql, user);
    }
    bool delete_expired_tokens(Millis now) override { return run("DELETE FROM tokens WHERE expires<=$1", now); }

    // --- conditional moves

    std::string conditional(std::int64_t game_id, const std::string& player_key) override {
        auto t =
            first(texts("SELECT tree FROM conditional_moves WHERE game_id=$1 AND player_key=$2", game_id, player_key));
        return t ? *t : std::string();
    }
    bool save_conditional(std::int64_t game_id, const std::string& player_key, const std::string& tree) override {
        if (tree.empty())
            return run("DELETE FROM conditional_moves WHERE game_id=$1 AND player_key=$2", game_id, player_key);
        return run("INSERT INTO conditional_moves (game_id, player_key, tree) VALUES ($1,$2,$3) ON CONFLICT "
                   "(game_id, player_key) DO UPDATE SET tree=excluded.tree",
                   game_id, player_key, tree);
    }

    // --- mail notifications

    std::optional<MailPlayerRow> mail_player(std::string_view column, const std::string& value) override {
        if (column != "player_key" && column != "confirm_hash" && column != "unsubscribe")
            return std::nullopt;
        return first(select<MailPlayerRow>("WHERE " + std::string(column) + "=$1", value));
    }
    bool save_mail_player(const MailPlayerRow& p) override {
        static const std::string sql = rows::insert_sql<MailPlayerRow>()
                                     + " ON CONFLICT (player_key) DO UPDATE SET address=excluded.address, "
                                       "confirmed=excluded.confirmed, kinds=excluded.kinds, confirm_hash="
                                       "excluded.confirm_hash, confirm_expires=excluded.confirm_expires, "
                                       "unsubscribe=excluded.unsubscribe, notified=excluded.notified";
        auto s = db().statement(sql);
        rows::put_new(binder(s), p);
        return s.exec() || db().fail();
    }
    bool insert_mail(MailRow& m) override { return insert_row(m); }
    bool update_mail(const MailRow& m) override {
        return run("UPDATE mail_queue SET next_try=$1, attempts=$2, state=$3, error=$4, sent=$5 WHERE id=$6",
                   m.next_try, m.attempts, m.state, m.error, m.sent, m.id);
    }
    std::vector<MailRow> mails_due(Millis now, int limit) override {
        return select<MailRow>("WHERE state=0 AND next_try<=$1 ORDER BY next_try, id LIMIT $2", now, limit);
    }
    Millis next_mail_due() override {
        auto t = first(texts("SELECT COALESCE(min(next_try), 0) FROM mail_queue WHERE state=0"));
        return t ? std::stoll(*t) : 0;
    }
    int mails_since(const std::string& player_key, Millis since) override {
        auto n = first(texts("SELECT count(*) FROM mail_queue WHERE player_key=$1 AND created>=$2", player_key, since));
        return n ? std::stoi(*n) : 0;
    }
    std::vector<int> mail_counts() override {
        std::vector<int> out{0, 0, 0};
        auto s = db().statement("SELECT state, count(*) FROM mail_queue GROUP BY state");
        while (s.row()) {
            int state = s.i32();
            int n = int(s.i64());
            if (state >= 0 && state < 3)
                out[std::size_t(state)] = n;
        }
        return out;
    }
    bool forget_mails(Millis before, Millis now) override {
        return run("DELETE FROM mail_queue WHERE state<>0 AND created<$1", before)
            && run("UPDATE mail_queue SET next_try=$1 WHERE state=0 AND next_try>$1", now);
    }

    // --- vacations and adjournments (pause_rows.h)

    std::vector<VacationRow> vacations(std::int64_t since) override {
        auto s = db().statement("SELECT id, player_key, started, until, ended FROM vacations WHERE started>=$1 "
                                "OR ended=0 ORDER BY started, id");
        s.bind(since);
        std::vector<VacationRow> out;
        while (s.row()) {
            VacationRow v;
            v.id = s.i64();
            v.player_key = s.str();
            v.started = s.i64();
            v.until = s.i64();
            v.ended = s.i64();
            out.push_back(std::move(v));
        }
        return out;
    }
    bool save_vacation(VacationRow& v) override {
        if (v.id != 0)
            return run("UPDATE vacations SET until=$1, ended=$2 WHERE id=$3", v.until, v.ended, v.id);
        static const std::string sql =
            std::string("INSERT INTO vacations (player_key, started, until, ended) VALUES ($1,$2,$3,$4)")
            + Db::DIALECT.returning_id;
        auto s = db().statement(sql);
        s.bind(v.player_key);
        s.bind(v.started);
        s.bind(v.until);
        s.bind(v.ended);
        return db().inserted(s, v.id) || db().fail();
    }
    std::vector<PauseRow> pauses(std::int64_t game_id) override {
        auto s = db().statement("SELECT started, ended FROM game_pauses WHERE game_id=$1 ORDER BY started");
        s.bind(game_id);
        std::vector<PauseRow> out;
        while (s.row()) {
            PauseRow p{game_id, 0, 0};
            p.started = s.i64();
            p.ended = s.i64();
            out.push_back(p);
        }
        return out;
    }
    bool save_pause(const PauseRow& p) override {
        return run("INSERT INTO game_pauses (game_id, started, ended) VALUES ($1,$2,$3) ON CONFLICT (game_id, started) "
                   "DO UPDATE SET ended=excluded.ended",
                   p.game_id, p.started, p.ended);
    }
    std::optional<AdjournOfferRow> adjourn_offer(std::int64_t game_id) override {
        auto s = db().statement("SELECT color, resume, ply, at FROM adjourn_offers WHERE game_id=$1");
        s.bind(game_id);
        if (!s.row())
            return std::nullopt;
        AdjournOfferRow o;
        o.game_id = game_id;
        o.color = s.i32();
        o.resume = s.i32() != 0;
        o.ply = s.i32();
        o.at = s.i64();
        return o;
    }
    bool save_adjourn_offer(const AdjournOfferRow& o) override {
        if (o.color < 0)
            return run("DELETE FROM adjourn_offers WHERE game_id=$1", o.game_id);
        return run("INSERT INTO adjourn_offers (game_id, color, resume, ply, at) VALUES ($1,$2,$3,$4,$5) ON CONFLICT "
                   "(game_id) DO UPDATE SET color=excluded.color, resume=excluded.resume, ply=excluded.ply, "
                   "at=excluded.at",
                   o.game_id, o.color, int(o.resume), o.ply, o.at);
    }

    // --- tsume puzzles

    bool prepare_puzzles() override {
        static const std::string sql = schema::in(Db::DIALECT, schema::PUZZLES);
        return db().exec(sql.c_str()) || db().fail();
    }
    std::optional<PuzzleRating> puzzle_player(const std::string& player_key) override {
        auto r =
            ratings("SELECT player_key, rating, deviation, volatility, plays FROM puzzle_players WHERE player_key=$1",
                    player_key);
        return r.empty() ? std::nullopt : std::optional<PuzzleRating>(r[0].second);
    }
    std::vector<std::pair<std::string, PuzzleRating>> puzzle_ratings() override {
        return ratings("SELECT puzzle_id, rating, deviation, volatility, plays FROM puzzle_ratings ORDER BY puzzle_id");
    }
    std::vector<std::string> puzzles_done(const std::string& player_key) override {
        return texts("SELECT puzzle_id FROM puzzle_attempts WHERE player_key=$1 ORDER BY puzzle_id", player_key);
    }
    bool save_puzzle_result(const PuzzleResult& r) override {
        if (!begin())
            return false;
        const auto& p = r.player;
        const auto& q = r.puzzle;
        bool ok = run("INSERT INTO puzzle_attempts (player_key, puzzle_id, solved, at) VALUES ($1,$2,$3,$4)",
                      r.player_key, r.puzzle_id, int(r.solved), r.at)
               && run("INSERT INTO puzzle_players (player_key, rating, deviation, volatility, plays) VALUES "
                      "($1,$2,$3,$4,$5) ON CONFLICT (player_key) DO UPDATE SET rating=excluded.rating, "
                      "deviation=excluded.deviation, volatility=excluded.volatility, plays=excluded.plays",
                      r.player_key, p.rating, p.deviation, p.volatility, p.plays)
               && run("INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, plays) VALUES "
                      "($1,$2,$3,$4,$5) ON CONFLICT (puzzle_id) DO UPDATE SET rating=excluded.rating, "
                      "deviation=excluded.deviation, volatility=excluded.volatility, plays=excluded.plays",
                      r.puzzle_id, q.rating, q.deviation, q.volatility, q.plays);
        return ok ? commit() : rollback();
    }

    // --- administration

    bool set_admin(std::string_view user, bool admin, Millis at) override {
        if (!admin)
            return run("DELETE FROM admins WHERE name_key=$1", rows::key_of(user));
        return run("INSERT INTO admins (name_key, granted) VALUES ($1,$2) ON CONFLICT (name_key) DO NOTHING",
                   rows::key_of(user), at);
    }
    bool is_admin(std::string_view user) override {
        return !texts("SELECT name_key FROM admins WHERE name_key=$1", rows::key_of(user)).empty();
    }
    std::vector<std::string> admins() override { return texts("SELECT name_key FROM admins ORDER BY name_key"); }
    bool save_ban(const BanRow& b) override {
        static const std::string sql = rows::insert_sql<BanRow>()
                                     + " ON CONFLICT (kind, target) DO UPDATE SET reason=excluded.reason, "
                                       "by_admin=excluded.by_admin, created=excluded.created, expires=excluded.expires";
        auto s = db().statement(sql);
        rows::put_new(binder(s), b);
        return s.exec() || db().fail();
    }
    bool delete_ban(const std::string& kind, const std::string& target) override {
        return run("DELETE FROM bans WHERE kind=$1 AND target=$2", kind, target);
    }
    std::vector<BanRow> bans() override { return select<BanRow>("ORDER BY kind, target"); }
    bool insert_audit(AuditRow& a) override { return insert_row(a); }
    std::vector<AuditRow> audit(int limit) override { return select<AuditRow>("ORDER BY id DESC LIMIT $1", limit); }

    // --- games

    bool insert_game(GameRow& g) override {
        if (!begin())
            return false;
        if (!insert_row(g) || !insert_moves(g, 0))
            return rollback();
        if (!commit())
            return false;
        db().game_inserted(g);
        return true;
    }
    std::optional<GameRow> load_game(std::int64_t id) override {
        auto game = first(select<GameRow>("WHERE id=$1", id));
        if (game)
            load_moves(*game);
        return game;
    }
    std::vector<GameRow> open_games() override {
        return with_moves(select<GameRow>("WHERE status<$1 ORDER BY id", int(GameStatus::Finished)));
    }
    std::vector<GameRow> finished_games(std::string_view user, int limit) override {
        return with_moves(
            select<GameRow>("WHERE status>=$1 AND (lower(black)=$2 OR lower(white)=$2) ORDER BY id DESC LIMIT $3",
                            int(GameStatus::Finished), rows::key_of(user), limit));
    }
    std::vector<ListedGame> player_games(std::string_view user, int limit) override {
        static const std::string mine = "WHERE g.status=$1 AND (lower(g.black)=$2 OR lower(g.white)=$2)";
        std::string key = rows::key_of(user);
        std::vector<ListedGame> out;
        auto rows = select<GameRow>("g " + mine + " ORDER BY g.updated DESC, g.id DESC LIMIT $3",
                                    int(GameStatus::Finished), key, limit);
        for (GameRow& g : rows)
            out.push_back({std::move(g), 0});
        // The board moves of each (a handicap removal, a resignation, a declaration are none).
        auto s = db().statement("SELECT m.game_id, count(*) FROM moves m JOIN games g ON g.id=m.game_id " + mine
                                + " AND m.text NOT LIKE 'HANDICAP%' AND m.text NOT LIKE 'RESIGN%' "
                                  "AND m.text <> 'DECLARE' GROUP BY m.game_id");
        s.bind(int(GameStatus::Finished));
        s.bind(key);
        std::unordered_map<std::int64_t, int> plies;
        while (s.row()) {
            std::int64_t id = s.i64();
            plies[id] = int(s.i64());
        }
        for (ListedGame& l : out)
            l.plies = plies[l.row.id];
        return out;
    }
    std::vector<GameRow> games_to_backfill() override {
        if (!db().exec("CREATE TABLE IF NOT EXISTS backfills (name TEXT PRIMARY KEY)")
            || first(texts("SELECT name FROM backfills WHERE name='rating_history'")))
            return {};
        // Every rated game has both points since migration 7: those without that ended before
        // the first with them were rated before it (after it, an unrated game has none).
        return select<GameRow>("WHERE status=$1 AND rated_applied<>0 AND rating_black=0 AND rating_white=0 AND "
                               "updated < COALESCE((SELECT min(updated) FROM games WHERE rating_black>0 "
                               "OR rating_white>0), $2) ORDER BY updated, id",
                               int(GameStatus::Finished), std::numeric_limits<std::int64_t>::max());
    }
    bool save_backfill(const std::vector<GameRow>& games) override {
        if (!begin())
            return false;
        for (const GameRow& g : games)
            if (!run("UPDATE games SET rating_black=$1, deviation_black=$2, rating_white=$3, deviation_white=$4 "
                     "WHERE id=$5",
                     g.rating_after[0], g.deviation_after[0], g.rating_after[1], g.deviation_after[1], g.id))
                return rollback();
        if (!run("INSERT INTO backfills (name) VALUES ('rating_history') ON CONFLICT DO NOTHING"))
            return rollback();
        return commit();
    }
    /// (Without their moves: a list.)
    std::vector<GameRow> tournament_games(std::string_view tournament, std::string_view user, int limit) override {
        return select<GameRow>(
            "WHERE tournament=$1 AND ($2='' OR lower(black)=$2 OR lower(white)=$2) ORDER BY id DESC LIMIT $3",
            tournament, rows::key_of(user), limit);
    }

    // --- challenges and messages

    bool insert_challenge(ChallengeRow& c) override { return insert_row(c); }
    bool delete_challenge(std::int64_t id) override { return run("DELETE FROM challenges WHERE id=$1", id); }
    std::vector<ChallengeRow> challenges() override { return select<ChallengeRow>("ORDER BY id"); }
    bool insert_message(MessageRow& m) override { return insert_row(m); }
    std::vector<MessageRow> messages_for(std::string_view user) override {
        return select<MessageRow>("WHERE recipient_key=$1 ORDER BY id", rows::key_of(user));
    }
    bool delete_messages(const std::vector<std::int64_t>& ids) override {
        if (!begin())
            return false;
        for (auto id : ids)
            if (!run("DELETE FROM messages WHERE id=$1", id))
                return rollback();
        return commit();
    }

    // --- group commit

    bool batch_begin() override {
        if (batch_)
            return true;
        if (!db().exec(Db::DIALECT.begin))
            return false;
        batch_ = true;
        return true;
    }
    bool batch_commit() override {
        if (!batch_)
            return true;
        batch_ = false;
        if (db().exec("COMMIT"))
            return true;
        std::string keep = error_;
        db().batch_lost();  // the batch's writes are not there after all
        db().exec("ROLLBACK");
        error_ = keep;
        return false;
    }
    bool in_batch() const override { return batch_; }

protected:
    /// The rows of `SELECT columns FROM Row's table rest`, the values bound in turn.
    template <class Row, class... Value>
    std::vector<Row> select(std::string_view rest, const Value&... values) {
        std::string_view more = std::is_same_v<Row, GameRow> ? Db::DIALECT.more_game_columns : "";
        auto s = db().statement(rows::select_sql<Row>(rest, more));
        (s.bind(values), ...);
        std::vector<Row> out;
        while (s.row()) {
            out.push_back(rows::read_row<Row>(s));
            if constexpr (std::is_same_v<Row, GameRow>)
                db().read_more(s, out.back());
        }
        return out;
    }
    /// The first column of every row, as text.
    template <class... Value>
    std::vector<std::string> texts(const std::string& sql, const Value&... values) {
        auto s = db().statement(sql);
        (s.bind(values), ...);
        std::vector<std::string> out;
        while (s.row())
            out.push_back(s.str());
        return out;
    }
    /// Rows of (key, rating, deviation, volatility, plays).
    template <class... Value>
    std::vector<std::pair<std::string, PuzzleRating>> ratings(const std::string& sql, const Value&... values) {
        auto s = db().statement(sql);
        (s.bind(values), ...);
        std::vector<std::pair<std::string, PuzzleRating>> out;
        while (s.row()) {
            std::string key = s.str();
            PuzzleRating r;
            r.rating = s.dbl();
            r.deviation = s.dbl();
            r.volatility = s.dbl();
            r.plays = s.i32();
            out.emplace_back(std::move(key), r);
        }
        return out;
    }
    /// A statement that returns no rows, the values bound in turn.
    template <class... Value>
    bool run(const std::string& sql, const Value&... values) {
        auto s = db().statement(sql);
        (s.bind(values), ...);
        return s.exec() || db().fail();
    }
    /// Inserts a new row and sets its id.
    template <class Row>
    bool insert_row(Row& row) {
        static const std::string sql = rows::insert_sql<Row>() + Db::DIALECT.returning_id;
        auto s = db().statement(sql);
        rows::put_new(binder(s), row);
        return db().inserted(s, row.id) || db().fail();
    }
    template <class Row>
    static std::optional<Row> first(std::vector<Row>&& found) {
        if (found.empty())
            return std::nullopt;
        return std::move(found.front());
    }

    std::vector<GameRow> with_moves(std::vector<GameRow> games) {
        for (auto& g : games)
            load_moves(g);
        return games;
    }
    void load_moves(GameRow& g) { g.moves = select<MoveRow>("WHERE game_id=$1 ORDER BY ply", g.id); }
    /// Writes the moves from `from_ply` on (there are none there yet).
    bool insert_moves(const GameRow& g, int from_ply) {
        static const std::string sql = rows::insert_sql<MoveRow>();
        for (std::size_t i = std::size_t(std::max(0, from_ply)); i < g.moves.size(); ++i) {
            auto s = db().statement(sql);
            rows::put_move(binder(s), g.id, int(i), g.moves[i]);
            if (!s.exec())
                return db().fail();
        }
        return true;
    }

    /// Writes the columns of a game's row that change after it began; `where` (from $19 on)
    /// says which row, the values after the game's.
    template <class... Value>
    bool update_game(const GameRow& g, std::string_view where, const Value&... values) {
        auto s = db().statement("UPDATE games SET status=$1, winner=$2, reason=$3, seen_black=$4, seen_white=$5, "
                                "rem_black=$6, rem_white=$7, turn_started=$8, updated=$9, rated_applied=$10, "
                                "undone_ply=$11, undone_text=$12, black=$13, white=$14, rating_black=$15, "
                                "deviation_black=$16, rating_white=$17, deviation_white=$18"
                                + std::string(where));
        for_each(binder(s), int(g.status), g.winner, g.reason, g.seen[0], g.seen[1], g.remaining[0], g.remaining[1],
                 g.turn_started, g.updated, g.rated_applied, g.undone_ply, g.undone_text, g.black, g.white,
                 g.rating_after[0], g.deviation_after[0], g.rating_after[1], g.deviation_after[1], values...);
        return s.exec() || db().fail();
    }
    template <class F, class... Value>
    static void for_each(F&& f, const Value&... values) {
        (f(values), ...);
    }

    // Inside a batch a write is a savepoint, so that a failed write is undone alone.
    bool begin() { return batch_ ? db().exec_often("SAVEPOINT w") : db().exec(Db::DIALECT.begin); }
    bool commit() { return (batch_ ? db().exec_often("RELEASE SAVEPOINT w") : db().exec("COMMIT")) || rollback(); }
    /// Undoes the write and returns false, keeping the error that made it fail.
    bool rollback() {
        std::string keep = db().error_now();
        if (batch_) {
            db().exec("ROLLBACK TO SAVEPOINT w");
            db().exec("RELEASE SAVEPOINT w");
        } else {
            db().exec("ROLLBACK");
        }
        error_ = keep;
        return false;
    }

    /// Runs the migrations the database has not run yet, each in a transaction with the new version.
    bool migrate(const std::vector<std::string>& migrations) {
        const std::string table = Db::DIALECT.version_table;
        if (!db().exec(("CREATE TABLE IF NOT EXISTS " + table + " (version INTEGER NOT NULL)").c_str()))
            return false;
        auto version = first(texts("SELECT version FROM " + table));
        if (!version && !db().exec(("INSERT INTO " + table + " (version) VALUES (0)").c_str()))
            return false;
        int done = version ? std::stoi(*version) : 0, target = int(migrations.size());
        if (done > target) {
            error_ = "the database schema (version " + std::to_string(done) + ") is newer than this server ("
                   + std::to_string(target) + ")";
            return false;
        }
        for (int v = done; v < target; ++v) {
            if (!begin())
                return false;
            if (!db().exec(migrations[std::size_t(v)].c_str()) || !run("UPDATE " + table + " SET version=$1", v + 1))
                return rollback();
            if (!commit())
                return false;
        }
        return true;
    }

    /// The values of a statement in turn, for the row codec.
    template <class Statement>
    static auto binder(Statement& s) {
        return [&s](const auto& v) { s.bind(v); };
    }

    std::string error_;
    bool batch_ = false;

private:
    Db& db() { return static_cast<Db&>(*this); }
};

}  // namespace hisha::server::store
