// Store: persistence behind the service. Every write that acknowledges something to a player
// (a move, an undo, a result) runs in one transaction and returns only after it committed.
// Failures come back as false/empty with last_error(); the service answers them as errors.
#pragma once

#include <cctype>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/store/mail_rows.h"
#include "server/store/pause_rows.h"
#include "server/store/puzzle_rows.h"
#include "server/store/records.h"

namespace hisha::server::store {

/// A player's finished game in a list: the row without its moves, and its board moves' count
/// (a handicap removal, a resignation or a declaration is no ply).
struct ListedGame {
    GameRow row;
    int plies = 0;
};

class Store {
public:
    virtual ~Store() = default;
    virtual const std::string& last_error() const = 0;

    // --- users
    /// Inserts a new user (id 0, sets it) or updates an existing one.
    virtual bool save_user(UserRow& u) = 0;
    virtual std::optional<UserRow> find_user(std::string_view name) = 0;  // case-insensitive
    virtual std::vector<UserRow> all_users() = 0;
    /// Deletes an account and its session tokens (an expired guest's).
    virtual bool delete_user(std::string_view name) = 0;
    /// Gives every game of `from` to `to` (a guest who registers keeps its games).
    virtual bool rename_player(std::string_view from, std::string_view to) = 0;

    // --- session tokens (stored as hashes)
    virtual bool save_token(const std::string& token_hash, const std::string& user, Millis expires) = 0;
    virtual std::optional<std::string> token_user(const std::string& token_hash, Millis now) = 0;
    virtual bool delete_token(const std::string& token_hash) = 0;
    /// Every token of one account (log out everywhere, a password reset, a ban).
    virtual bool delete_tokens_of(std::string_view user) = 0;
    /// Forgets the tokens that expired before `now`.
    virtual bool delete_expired_tokens(Millis now) = 0;

    // --- administration: the administrators (by name key; not in the users row, so that
    // `hisha-server admin grant` while a server runs is not undone by its next save of the
    // user), the bans and the audit log
    virtual bool set_admin(std::string_view user, bool admin, Millis at) = 0;
    virtual bool is_admin(std::string_view user) = 0;
    virtual std::vector<std::string> admins() = 0;  // name keys, sorted
    /// Inserts or replaces the ban of (kind, target).
    virtual bool save_ban(const BanRow& b) = 0;
    virtual bool delete_ban(const std::string& kind, const std::string& target) = 0;
    virtual std::vector<BanRow> bans() = 0;
    virtual bool insert_audit(AuditRow& a) = 0;
    /// The newest `limit` entries of the audit log, newest first.
    virtual std::vector<AuditRow> audit(int limit) = 0;

    // --- games
    /// Inserts a new game (id 0, sets it) with its moves.
    virtual bool insert_game(GameRow& g) = 0;
    /// In one transaction: moves from `from_ply` on are replaced by g.moves[from_ply..], the
    /// game row is updated, and `users` (rating changes at the end) are saved.
    virtual bool save_game(const GameRow& g, int from_ply, std::vector<UserRow*> users = {}) = 0;
    virtual std::optional<GameRow> load_game(std::int64_t id) = 0;
    /// Games not finished (offered or active), with their moves.
    virtual std::vector<GameRow> open_games() = 0;
    /// The ids of the open games (offered or active) in which `user` plays.
    virtual std::vector<std::int64_t> open_game_ids_of(std::string_view user) {
        auto key = [](std::string_view name) {
            std::string k(name);
            for (char& c : k)
                c = char(std::tolower(static_cast<unsigned char>(c)));
            return k;
        };
        std::vector<std::int64_t> ids;
        for (auto& g : open_games())
            if (key(g.black) == key(user) || key(g.white) == key(user))
                ids.push_back(g.id);
        return ids;
    }
    /// Finished games of a user, newest first.
    virtual std::vector<GameRow> finished_games(std::string_view user, int limit) = 0;
    /// The finished games (with a result, not aborted) of a user, the last ended first, at most
    /// `limit`; without their moves.
    virtual std::vector<ListedGame> player_games(std::string_view user, int limit) = 0;
    /// The rating history's one-time backfill (service/rating_backfill.cpp): the finished games
    /// counted in the ratings that have no rating point (rated before the history was kept) and
    /// ended before the first game that has one, in the order they ended, without their moves;
    /// none once save_backfill() has recorded it done.
    virtual std::vector<GameRow> games_to_backfill() { return {}; }
    /// Writes the rating points of `games` and records the backfill done, in one transaction.
    virtual bool save_backfill(const std::vector<GameRow>& games) {
        (void)games;
        return true;
    }
    /// The games of a tournament (GameRow::tournament), in any status, newest first, without
    /// their moves; only those of `user` unless it is empty.
    virtual std::vector<GameRow> tournament_games(std::string_view tournament, std::string_view user, int limit) = 0;

    /// Conditional moves (service/conditional.h): the tree a player (name key) left in a game,
    /// as text; "" when none. Saving "" removes it.
    virtual std::string conditional(std::int64_t game_id, const std::string& player_key) {
        (void)game_id, (void)player_key;
        return {};
    }
    virtual bool save_conditional(std::int64_t game_id, const std::string& player_key, const std::string& tree) {
        (void)game_id, (void)player_key, (void)tree;
        return true;
    }

    /// Vacations and adjournments (store/pause_rows.h, service/pauses.h): the vacations started
    /// since `since` (epoch ms); a new one (id 0) is inserted and given its id, a known one's end
    /// updated. A game's adjournments in order; one is inserted or its end updated (by its start).
    /// A game's open offer (color -1: none); saving one with color -1 removes it.
    virtual std::vector<VacationRow> vacations(std::int64_t since) {
        (void)since;
        return {};
    }
    virtual bool save_vacation(VacationRow& v) {
        (void)v;
        return true;
    }
    virtual std::vector<PauseRow> pauses(std::int64_t game_id) {
        (void)game_id;
        return {};
    }
    virtual bool save_pause(const PauseRow& p) {
        (void)p;
        return true;
    }
    virtual std::optional<AdjournOfferRow> adjourn_offer(std::int64_t game_id) {
        (void)game_id;
        return std::nullopt;
    }
    virtual bool save_adjourn_offer(const AdjournOfferRow& o) {
        (void)o;
        return true;
    }

    // --- tsume puzzles (service/puzzles.h): ratings by player key and by puzzle id
    /// Makes the puzzle tables when they are missing (schema::PUZZLES).
    virtual bool prepare_puzzles() = 0;
    virtual std::optional<PuzzleRating> puzzle_player(const std::string& player_key) = 0;
    virtual std::vector<std::pair<std::string, PuzzleRating>> puzzle_ratings() = 0;
    /// The puzzles the player has been rated on.
    virtual std::vector<std::string> puzzles_done(const std::string& player_key) = 0;
    /// Stores a rated attempt and both new ratings in one transaction.
    virtual bool save_puzzle_result(const PuzzleResult& r) = 0;

    // --- mail notifications (service/mail.h; the SQL stores implement them)
    /// The player whose `column` (player_key, confirm_hash or unsubscribe) is `value`.
    virtual std::optional<MailPlayerRow> mail_player(std::string_view column, const std::string& value) {
        (void)column, (void)value;
        return std::nullopt;
    }
    virtual bool save_mail_player(const MailPlayerRow& p) { return (void)p, false; }
    virtual bool insert_mail(MailRow& m) { return (void)m, false; }
    /// Writes a mail's next_try, attempts, state, error and sent.
    virtual bool update_mail(const MailRow& m) { return (void)m, false; }
    /// The queued mails due at `now`, the earliest first, at most `limit`.
    virtual std::vector<MailRow> mails_due(Millis now, int limit) {
        (void)now, (void)limit;
        return {};
    }
    /// When the next queued mail is due (0: none is queued).
    virtual Millis next_mail_due() { return 0; }
    /// A player's mails (queued, sent or failed) made at `since` or later.
    virtual int mails_since(const std::string& player_key, Millis since) { return (void)player_key, (void)since, 0; }
    /// Mails by state: {queued, sent, failed}.
    virtual std::vector<int> mail_counts() { return {0, 0, 0}; }
    /// Forgets the mails sent or given up that were made before `before`, and makes every queued
    /// mail due at `before` at the latest (a restart tries them at once).
    virtual bool forget_mails(Millis before, Millis now) { return (void)before, (void)now, true; }

    // --- challenges
    virtual bool insert_challenge(ChallengeRow& c) = 0;
    virtual bool delete_challenge(std::int64_t id) = 0;
    virtual std::vector<ChallengeRow> challenges() = 0;

    // --- messages left for players who were offline
    virtual bool insert_message(MessageRow& m) = 0;
    virtual std::vector<MessageRow> messages_for(std::string_view user) = 0;
    virtual bool delete_messages(const std::vector<std::int64_t>& ids) = 0;

    // --- group commit: writes between batch_begin() and batch_commit() share one transaction
    // (each write is a savepoint inside it), so one fsync makes many moves durable.
    virtual bool batch_begin() = 0;
    virtual bool batch_commit() = 0;
    virtual bool in_batch() const = 0;
    /// Pipelined group commit: commits the open batch like batch_commit() but may return before
    /// it is on disk; it is durable once a later sync() returned true. The default is durable.
    virtual bool batch_write() { return batch_commit(); }
    /// Makes every commit made so far durable. The one call that may run on another thread
    /// than the store's other calls (one such thread at a time). False: the disk failed.
    virtual bool sync() { return true; }
    virtual std::string sync_error() const { return {}; }
    /// Whether the database answers a trivial read now (the health check); when not, why is in
    /// last_error(). Cheap: a query on the loop's connection.
    virtual bool reachable() { return true; }

    // --- live events between servers sharing one database (PostgreSQL LISTEN/NOTIFY; the
    // SQLite store serves one process and has none). A payload published inside a transaction
    // reaches the others when it commits, so no server hears of a move before it is durable.
    virtual void publish(const std::string& payload) { (void)payload; }
    /// A descriptor that becomes readable when other servers published (-1: never).
    virtual int notification_fd() { return -1; }
    /// Payloads other servers published since the last call (this server's own are left out).
    virtual std::vector<std::string> take_notifications() { return {}; }

    // --- several servers on one database (PostgreSQL). A server's presence and waiting rows
    // belong to its database session: when the process dies, PostgreSQL ends the session and
    // the rows stop counting at once (no lease to wait for); they are swept later.
    /// This server's connections of one player (p.connections 0: it has none left).
    virtual bool set_presence(const PresenceRow& p) {
        (void)p;
        return true;
    }
    /// Players connected to the other servers that are running.
    virtual std::vector<PresenceRow> remote_presence() { return {}; }
    /// True after a write that failed because another server got there first: save_game of a
    /// game whose version moved on, or delete_challenge of a challenge that is gone.
    virtual bool lost_race() const { return false; }
    /// CSA matchmaking across servers, atomically: takes (removes) a player of another server
    /// waiting under `w.game_name` with a compatible colour, or, when there is none, records
    /// `w` as waiting on this server (rival empty). False: the database failed. Only for a
    /// shared() store (a single server pairs in memory).
    virtual bool csa_pair_or_wait(const WaitingRow& w, std::optional<WaitingRow>& rival) {
        (void)w;
        rival.reset();
        return true;
    }
    virtual void csa_unwait(std::string_view name) { (void)name; }
    /// Whether csa_pair_or_wait() does anything (the store is shared by several servers).
    virtual bool shared() const { return false; }
    /// Claims something only one server at a time may run (an engine bot): true when this
    /// server holds it, from then until it stops (a session-level advisory lock in PostgreSQL:
    /// when the process dies, the next server to ask gets it). A single server holds all.
    virtual bool claim(const std::string& what) {
        (void)what;
        return true;
    }
};

/// Opens a store by URL: "sqlite:PATH" (or a bare path), ":memory:" for tests; a suffix
/// "?sync=normal" trades power-cut durability for speed (process crashes still lose nothing),
/// "?wal_mb=N" sets the size the write-ahead log is brought back from (options joined by '&').
/// Returns null and sets `error` when it cannot be opened or migrated.
std::unique_ptr<Store> open_store(const std::string& url, std::string& error);

}  // namespace hisha::server::store
