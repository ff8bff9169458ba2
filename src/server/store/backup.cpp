// backup(): sqlite3_backup_* from a read-only connection into a temporary file beside the
// target, checked, then renamed into place (a failed backup leaves no file behind).
#include "server/store/backup.h"

#include <sqlite3.h>

#include <filesystem>
#include <memory>

namespace hisha::server::store {

namespace {

struct Db {
    sqlite3* db = nullptr;
    ~Db() { sqlite3_close(db); }
    std::string error() const { return db ? sqlite3_errmsg(db) : "out of memory"; }
};

// One text value of a query (the integrity check's verdict, a count).
std::string scalar(sqlite3* db, const char* sql) {
    sqlite3_stmt* st = nullptr;
    std::string out;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        if (auto t = sqlite3_column_text(st, 0))
            out = reinterpret_cast<const char*>(t);
    sqlite3_finalize(st);
    return out;
}

}  // namespace

bool backup(const std::string& url, const std::string& to, std::string& error, std::string& summary) {
    namespace fs = std::filesystem;
    if (url.starts_with("postgresql:") || url.starts_with("postgres:")) {
        error = "a PostgreSQL database is backed up with pg_dump (see the operator's guide)";
        return false;
    }
    std::string path = url.starts_with("sqlite:") ? url.substr(7) : url;
    path = path.substr(0, path.find('?'));
    std::error_code ec;
    if (path.empty() || path == ":memory:" || !fs::is_regular_file(path, ec)) {
        error = "no database file " + path;
        return false;
    }
    if (to.empty() || fs::exists(to, ec)) {
        error = to.empty() ? "--to FILE is missing" : to + " exists already; name a new file";
        return false;
    }
    Db src, dst;
    if (sqlite3_open_v2(path.c_str(), &src.db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        error = "cannot open " + path + ": " + src.error();
        return false;
    }
    sqlite3_busy_timeout(src.db, 5000);
    std::string tmp = to + ".partial";
    fs::remove(tmp, ec);
    if (sqlite3_open_v2(tmp.c_str(), &dst.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        error = "cannot create " + tmp + ": " + dst.error();
        return false;
    }
    auto failed = [&](const std::string& why) {
        error = why;
        sqlite3_close(dst.db);
        dst.db = nullptr;
        fs::remove(tmp, ec);
        return false;
    };
    sqlite3_backup* b = sqlite3_backup_init(dst.db, "main", src.db, "main");
    if (!b)
        return failed("cannot start the backup: " + dst.error());
    // All pages in one step: one read transaction, so the copy is one consistent snapshot even
    // while the server commits (a step at a time would start over at each of its commits).
    int rc = sqlite3_backup_step(b, -1);
    int pages = sqlite3_backup_pagecount(b);
    sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE)
        return failed(std::string("the backup failed: ") + sqlite3_errstr(rc));
    // A file that stands alone: no write-ahead log to carry along.
    if (sqlite3_exec(dst.db, "PRAGMA journal_mode=DELETE", nullptr, nullptr, nullptr) != SQLITE_OK)
        return failed("cannot set the copy's journal mode: " + dst.error());
    if (std::string check = scalar(dst.db, "PRAGMA integrity_check"); check != "ok")
        return failed("the copy fails its integrity check: " + check);
    std::string games = scalar(dst.db, "SELECT count(*) FROM games");
    std::string users = scalar(dst.db, "SELECT count(*) FROM users");
    sqlite3_close(dst.db);
    dst.db = nullptr;
    fs::rename(tmp, to, ec);
    if (ec)
        return failed("cannot rename " + tmp + " to " + to + ": " + ec.message());
    summary = "backed up " + path + " to " + to + ": " + std::to_string(pages) + " pages, " + games + " games, " + users
            + " users";
    return true;
}

}  // namespace hisha::server::store
