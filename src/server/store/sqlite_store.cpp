// The SQLite implementation of Store. Statements are prepared once and kept; every multi-row
// write is one transaction.
#include "server/store/sqlite_store.h"

#include "server/store/sql_store.h"

#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace hisha::server::store {
namespace {

// Migration 2: moves kept in one B-tree ordered by (game_id, ply), with no rowid table beside the key
// index: a move is one insertion, and a commit writes about half the pages.
constexpr const char* MOVES_WITHOUT_ROWID = R"sql(
CREATE TABLE moves_by_game (
    game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
    text TEXT NOT NULL, spent_ms INTEGER NOT NULL, at INTEGER NOT NULL,
    forced INTEGER NOT NULL, locked INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
INSERT INTO moves_by_game (game_id, ply, text, spent_ms, at, forced, locked)
    SELECT game_id, ply, text, spent_ms, at, forced, locked FROM moves;
DROP TABLE moves;
ALTER TABLE moves_by_game RENAME TO moves;
)sql";

/// The schema, one migration per entry (schema.h); the database keeps how many ran.
const std::vector<std::string>& migrations() {
    static const std::vector<std::string> all = schema::migrations(schema::SQLITE, MOVES_WITHOUT_ROWID);
    return all;
}

using rows::key_of;

// Prepared statements, kept for the life of the connection: a move's writes are the same
// few statements every time, and parsing them again cost more than running them. A look-up
// allocates nothing (the map is searched by string_view; being in use is a flag).
class StmtCache {
public:
    struct Entry {
        sqlite3_stmt* st = nullptr;
        bool in_use = false;
    };
    explicit StmtCache(sqlite3*& db) : db_(db) {}
    ~StmtCache() { clear(); }
    void clear() {
        for (auto& [sql, e] : cache_)
            sqlite3_finalize(e.st);
        cache_.clear();
    }
    /// The cached entry for `sql`, marked in use, its statement reset and unbound; or null
    /// with a new statement in `own` that the caller must finalize (the cached one is in use
    /// by an enclosing statement), or null with `own` null when `sql` does not compile.
    Entry* get(const char* sql, sqlite3_stmt*& own) {
        own = nullptr;
        auto it = cache_.find(std::string_view(sql));
        if (it != cache_.end() && !it->second.in_use) {
            it->second.in_use = true;
            return &it->second;
        }
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, nullptr) != SQLITE_OK) {
            sqlite3_finalize(st);
            return nullptr;
        }
        if (it != cache_.end()) {
            own = st;
            return nullptr;
        }
        Entry& e = cache_.emplace(std::string(sql), Entry{st, true}).first->second;
        return &e;  // unordered_map nodes stay put
    }
    static void put(Entry& e) {
        sqlite3_reset(e.st);
        sqlite3_clear_bindings(e.st);
        e.in_use = false;
    }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view v) const noexcept { return std::hash<std::string_view>{}(v); }
    };
    sqlite3*& db_;
    std::unordered_map<std::string, Entry, Hash, std::equal_to<>> cache_;
};

// A prepared statement with positional binding and column reading.
class Stmt {
public:
    Stmt(StmtCache& cache, const char* sql) {
        entry_ = cache.get(sql, st_);
        if (entry_)
            st_ = entry_->st;
        ok_ = st_ != nullptr;
    }
    ~Stmt() {
        if (entry_)
            StmtCache::put(*entry_);
        else if (st_)
            sqlite3_finalize(st_);
    }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;
    bool ok() const { return ok_; }

    Stmt& bind(std::int64_t v) {
        sqlite3_bind_int64(st_, ++n_, v);
        return *this;
    }
    Stmt& bind(int v) {
        sqlite3_bind_int64(st_, ++n_, v);
        return *this;
    }
    Stmt& bind(bool v) {
        sqlite3_bind_int64(st_, ++n_, v ? 1 : 0);
        return *this;
    }
    Stmt& bind(double v) {
        sqlite3_bind_double(st_, ++n_, v);
        return *this;
    }
    Stmt& bind(std::string_view v) {
        sqlite3_bind_text(st_, ++n_, v.data(), int(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Stmt& bind(const std::string& v) { return bind(std::string_view(v)); }
    Stmt& bind(const char* v) { return bind(std::string_view(v)); }

    /// Steps once: true when a row is available.
    bool row() {
        rc_ = sqlite3_step(st_);
        col_ = 0;
        return rc_ == SQLITE_ROW;
    }
    /// Runs to completion: true on success.
    bool exec() {
        if (!ok_)
            return false;
        rc_ = sqlite3_step(st_);
        return rc_ == SQLITE_DONE || rc_ == SQLITE_ROW;
    }
    bool done_ok() const { return ok_ && (rc_ == SQLITE_DONE || rc_ == SQLITE_ROW); }

    std::int64_t i64() { return sqlite3_column_int64(st_, col_++); }
    int i32() { return int(sqlite3_column_int64(st_, col_++)); }
    double dbl() { return sqlite3_column_double(st_, col_++); }
    std::string str() {
        const unsigned char* t = sqlite3_column_text(st_, col_);
        int n = sqlite3_column_bytes(st_, col_++);
        return t ? std::string(reinterpret_cast<const char*>(t), std::size_t(n)) : std::string();
    }

private:
    StmtCache::Entry* entry_ = nullptr;  // null: st_ is this statement's own
    sqlite3_stmt* st_ = nullptr;
    bool ok_ = false;
    int n_ = 0, col_ = 0, rc_ = 0;
};

class SqliteStore final : public SqlStore<SqliteStore> {
public:
    ~SqliteStore() override {
        if (checkpointer_.joinable()) {
            {
                std::lock_guard lock(ckpt_mutex_);
                ckpt_stop_ = true;
            }
            ckpt_cv_.notify_one();
            checkpointer_.join();
        }
        stmts_.clear();
        sqlite3_close(db_);
        sqlite3_close(ckpt_db_);
        if (wal_fd_ >= 0)
            ::close(wal_fd_);
    }

    bool open(const std::string& path, const std::string& sync, int wal_mb) {
        catch_up_frames_ = std::max(1, wal_mb) * 256;
        if (path != ":memory:") {
            std::error_code ec;
            auto parent = std::filesystem::path(path).parent_path();
            if (!parent.empty())
                std::filesystem::create_directories(parent, ec);
        }
        // NOMUTEX: each connection is used by one thread only (this one by the event loop, the
        // second below by the checkpoint thread), so SQLite need not lock it on every call.
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                            nullptr)
            != SQLITE_OK)
            return fail();
        sqlite3_busy_timeout(db_, 5000);
        // FULL durability is kept by this store itself rather than by SQLite's synchronous=FULL:
        // SQLite runs with NORMAL (the WAL is synced before each checkpoint, the database file
        // after it, so that the files stay consistent), and every commit is followed by an
        // fdatasync of the WAL file, which makes it durable. For a group commit the caller may
        // run that fdatasync on another thread (batch_write(), then sync()) while the next batch
        // is collected. Checkpoints run on a thread of their own with a second connection.
        if (!exec("PRAGMA journal_mode=WAL") || !exec("PRAGMA synchronous=NORMAL") || !exec("PRAGMA foreign_keys=ON"))
            return false;
        if (!migrate(migrations()))
            return false;
        if (path == ":memory:" || path.starts_with("file:"))
            return true;
        if (struct stat st{}; ::stat(path.c_str(), &st) == 0) {
            path_ = path;
            file_ino_ = st.st_ino;
            file_dev_ = st.st_dev;
        }
        // The log file is kept, at its size, when the database is closed. Frames then overwrite
        // blocks the file already has: an fdatasync has only data to write, where appending to
        // the file also commits its new size to the file system's journal (about 0.4 ms against
        // 0.15 ms a sync on the benchmark's disk). The file grows to its bound (wal_mb) once.
        int persist = 1;
        sqlite3_file_control(db_, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
        if (sync == "FULL") {
            wal_fd_ = ::open((path + "-wal").c_str(), O_RDONLY | O_CLOEXEC);
            if (wal_fd_ < 0) {
                error_ = "cannot open the write-ahead log " + path + "-wal: " + std::strerror(errno);
                return false;
            }
            if (::fdatasync(wal_fd_) != 0) {  // the migrations
                error_ = std::string("cannot sync the write-ahead log: ") + std::strerror(errno);
                return false;
            }
        }
        if (sqlite3_open_v2(path.c_str(), &ckpt_db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK
            || sqlite3_exec(ckpt_db_, "PRAGMA synchronous=NORMAL", nullptr, nullptr, nullptr) != SQLITE_OK) {
            error_ = std::string("cannot open a second connection: ") + sqlite3_errmsg(ckpt_db_);
            return false;
        }
        sqlite3_file_control(ckpt_db_, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);  // it may close last
        sqlite3_wal_hook(db_, &SqliteStore::on_wal_commit, this);
        checkpointer_ = std::thread([this] {
            pthread_setname_np(pthread_self(), "checkpoint");
            checkpoint_loop();
        });
        return true;
    }

    bool batch_write() override {
        if (!batch_)
            return true;
        deferred_ = true;
        bool ok = batch_commit();
        deferred_ = false;
        return ok;
    }

    bool sync() override {
        if (wal_fd_ < 0)
            return true;
        if (::fdatasync(wal_fd_) != 0) {
            sync_error_ = std::string("fdatasync of the write-ahead log: ") + std::strerror(errno);
            return false;
        }
        return true;
    }
    std::string sync_error() const override { return sync_error_; }

    // The file is still the one opened (not moved, deleted or replaced: SQLite would go on
    // writing to the old one, which nobody reads), and it answers a read of its schema.
    bool reachable() override {
        if (file_ino_ != 0) {
            struct stat st {};
            if (::stat(path_.c_str(), &st) != 0 || st.st_ino != file_ino_ || st.st_dev != file_dev_) {
                error_ = "the database file " + path_ + " is not the one the server opened (moved or deleted?)";
                return false;
            }
        }
        Stmt s(stmts_, "SELECT count(*) FROM sqlite_master");
        if (!s.exec()) {
            error_ = std::string("the database does not answer: ") + sqlite3_errmsg(db_);
            return false;
        }
        return true;
    }

    bool save_game(const GameRow& g, int from_ply, std::vector<UserRow*> users) override {
        if (!begin())
            return false;
        auto undo = [&] {
            stored_.erase(g.id);
            return rollback();
        };
        // Moves from from_ply on are replaced; when the game's stored moves are known to end
        // there (a move was added, the common case), there is nothing to delete.
        auto known = stored_.find(g.id);
        if (known == stored_.end() || from_ply < known->second.moves) {
            Stmt d(stmts_, "DELETE FROM moves WHERE game_id=? AND ply>=?");
            d.bind(g.id).bind(from_ply);
            if (!d.exec())
                return undo();
        }
        if (!insert_moves(g, from_ply))
            return undo();
        bool narrow = known != stored_.end() && known->second.same_rest(g);
        if (narrow) {
            // Only what a move changes: the row keeps its other columns, and the index on
            // status is left alone.
            Stmt s(stmts_, "UPDATE games SET seen_black=?, seen_white=?, rem_black=?, rem_white=?, turn_started=?, "
                           "updated=? WHERE id=?");
            s.bind(g.seen[0])
                .bind(g.seen[1])
                .bind(g.remaining[0])
                .bind(g.remaining[1])
                .bind(g.turn_started)
                .bind(g.updated)
                .bind(g.id);
            if (!s.exec())
                return undo();
        } else if (!update_game(g, " WHERE id=$19", g.id)) {
            return undo();
        }
        for (UserRow* u : users)
            if (u && !save_user(*u))
                return undo();
        if (!commit()) {
            stored_.erase(g.id);
            return false;
        }
        if (g.status >= GameStatus::Finished)
            stored_.erase(g.id);  // a finished game's moves are not written again
        else if (narrow)
            known->second.moves = int(g.moves.size());
        else
            stored_[g.id].keep(g);
        return true;
    }

private:
    // --- what SqlStore asks of a database (sql_store.h)
    friend class SqlStore<SqliteStore>;
    static constexpr const schema::Dialect& DIALECT = schema::SQLITE;

    Stmt statement(const std::string& sql) { return Stmt(stmts_, sql.c_str()); }
    bool inserted(Stmt& s, std::int64_t& id) {
        if (!s.exec())
            return false;
        id = sqlite3_last_insert_rowid(db_);
        return true;
    }
    bool exec_often(const char* sql) {
        Stmt s(stmts_, sql);
        return s.exec() || fail();
    }
    bool fail() {
        error_ = db_ ? sqlite3_errmsg(db_) : "cannot open database";
        return false;
    }
    std::string error_now() const { return sqlite3_errmsg(db_); }
    static void read_more(Stmt&, GameRow&) {}
    void game_inserted(const GameRow& g) { stored_[g.id].keep(g); }
    void batch_lost() { stored_.clear(); }

    bool exec(const char* sql) {
        char* msg = nullptr;
        if (sqlite3_exec(db_, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
            error_ = msg ? msg : "sqlite error";
            sqlite3_free(msg);
            return false;
        }
        return true;
    }

    // After every commit (SQLite calls it with the WAL's size in frames): the fdatasync that
    // makes the commit durable, unless batch_write() leaves it to sync(); and a checkpoint
    // request when the WAL has grown; and the writer's catch-up once it has reached its bound.
    static int on_wal_commit(void* self, sqlite3*, const char*, int frames) {
        auto* s = static_cast<SqliteStore*>(self);
        s->wal_frames_.store(frames, std::memory_order_relaxed);
        if (frames < s->ckpt_asked_at_)
            s->ckpt_asked_at_ = 0;  // the log started again
        // A checkpoint for every CHECKPOINT_FRAMES new frames (each costs two fdatasyncs),
        // not after every commit once the log is that long.
        if (frames >= s->ckpt_asked_at_ + CHECKPOINT_FRAMES) {
            s->ckpt_asked_at_ = frames;
            {
                std::lock_guard lock(s->ckpt_mutex_);
                s->ckpt_wanted_ = true;
            }
            s->ckpt_cv_.notify_one();
        }
        if (s->wal_fd_ >= 0 && !s->deferred_ && ::fdatasync(s->wal_fd_) != 0)
            return SQLITE_IOERR;  // the statement reports it: nothing is acknowledged
        s->catch_up();            // the commit is over (SQLite's own auto-checkpoint runs here too)
        return SQLITE_OK;
    }

    void checkpoint_loop() {
        std::unique_lock lock(ckpt_mutex_);
        for (;;) {
            ckpt_cv_.wait(lock, [this] { return ckpt_wanted_ || ckpt_stop_; });
            if (ckpt_stop_)
                return;
            ckpt_wanted_ = false;
            lock.unlock();
            // PASSIVE: copies what it can without waiting for the writer, which goes on.
            {
                std::lock_guard run(ckpt_run_);
                int log = 0, done = 0;  // unless it is the writer's turn (catch_up())
                if (!writer_catches_up()
                    && sqlite3_wal_checkpoint_v2(ckpt_db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, &log, &done)
                           == SQLITE_OK)
                    ckpt_seen_.store((std::int64_t(log) << 32) | std::uint32_t(done), std::memory_order_relaxed);
            }
            lock.lock();
        }
    }

    // Keeping the write-ahead log small. Under a steady stream of commits the checkpoint
    // thread never copies the last frames before the next commit adds more, so SQLite never
    // starts the log again from its beginning: it grows without end, every frame goes to a new
    // page of the file (allocated, zeroed, and its size synced with the data), and the
    // checkpoint reads ever further. So once it holds catch_up_frames_, right after a batch is
    // committed, the writer copies itself the frames the checkpoint thread has not yet (at
    // most CATCH_UP_REST, the thread's last pass being recent): the whole log is then in the
    // database, and the next batch's commit starts the log again. This pauses the loop for
    // two fdatasyncs and that copy (2-4 ms under load) each time the log has grown by that
    // much (about every second at 18,000 moves a second).
    // When the thread falls so far behind that the log reaches twice its bound, the writer
    // copies the rest whatever it is.
    void catch_up() {
        int frames = wal_frames_.load(std::memory_order_relaxed);
        if (!ckpt_db_ || frames < catch_up_frames_)
            return;
        bool forced = frames >= 2 * catch_up_frames_;
        if (!writer_catches_up() && !forced)
            return;  // the thread is well behind: not yet
        std::unique_lock run(ckpt_run_, std::defer_lock);
        if (forced)
            run.lock();
        else if (!run.try_lock())
            return;  // the thread is at it; next batch
        int l = 0, d = 0;
        if (sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, &l, &d) == SQLITE_OK)
            ckpt_seen_.store((std::int64_t(l) << 32) | std::uint32_t(d), std::memory_order_relaxed);
    }

    // The log has reached its bound and the last checkpoint left at most CATCH_UP_REST frames.
    bool writer_catches_up() const {
        int frames = wal_frames_.load(std::memory_order_relaxed);
        std::int64_t seen = ckpt_seen_.load(std::memory_order_relaxed);
        int log = int(seen >> 32), done = int(std::uint32_t(seen));
        return frames >= catch_up_frames_ && log <= frames && frames - done <= CATCH_UP_REST;
    }

    static constexpr int CHECKPOINT_FRAMES = 1000;  // SQLite's default auto-checkpoint size
    static constexpr int CATCH_UP_REST = CHECKPOINT_FRAMES + 500;
    int catch_up_frames_ = 64 * 256;          // the log's bound: 64 MB of 4 KB frames by default
    std::atomic<int> wal_frames_{0};          // the log's size after the last commit
    int ckpt_asked_at_ = 0;                   // its size when a checkpoint was last asked for
    std::atomic<std::int64_t> ckpt_seen_{0};  // the last checkpoint: the log's frames << 32 | frames copied
    std::mutex ckpt_run_;                     // one checkpoint at a time
    sqlite3* db_ = nullptr;
    StmtCache stmts_{db_};
    // Per unfinished game written here (it is this process's database: nothing else writes
    // it): how many moves the table holds, and what the row holds in the columns a move does
    // not change. A game not listed is written whole.
    struct Stored {
        int moves = 0;
        GameStatus status = GameStatus::Active;
        std::string winner, reason, undone_text, black, white;
        int undone_ply = -1;
        bool rated_applied = false;
        void keep(const GameRow& g) {
            moves = int(g.moves.size());
            status = g.status;
            winner = g.winner;
            reason = g.reason;
            undone_text = g.undone_text;
            black = g.black;
            white = g.white;
            undone_ply = g.undone_ply;
            rated_applied = g.rated_applied;
        }
        bool same_rest(const GameRow& g) const {
            return status == g.status && undone_ply == g.undone_ply && rated_applied == g.rated_applied
                && winner == g.winner && reason == g.reason && undone_text == g.undone_text && black == g.black
                && white == g.white;
        }
    };
    std::unordered_map<std::int64_t, Stored> stored_;
    int wal_fd_ = -1;   // the WAL file, for fdatasync (full durability)
    std::string path_;  // the database file, and which it was when opened (reachable())
    ino_t file_ino_ = 0;
    dev_t file_dev_ = 0;
    bool deferred_ = false;       // a batch_write(): its fdatasync is left to sync()
    std::string sync_error_;      // written by sync() only (the syncing thread)
    sqlite3* ckpt_db_ = nullptr;  // the checkpoint thread's connection
    std::thread checkpointer_;
    std::mutex ckpt_mutex_;
    std::condition_variable ckpt_cv_;
    bool ckpt_wanted_ = false, ckpt_stop_ = false;
};

}  // namespace

std::unique_ptr<Store> open_sqlite(const std::string& path, std::string& error, const std::string& sync, int wal_mb) {
    // No allocation statistics (a global mutex taken on every allocation); only has an effect
    // before SQLite is first used in the process.
    static std::once_flag configured;
    std::call_once(configured, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
    if (sync != "FULL" && sync != "NORMAL") {
        error = "sync must be full or normal";
        return nullptr;
    }
    auto s = std::make_unique<SqliteStore>();
    if (!s->open(path, sync, wal_mb)) {
        error = s->last_error();
        return nullptr;
    }
    return s;
}

}  // namespace hisha::server::store
