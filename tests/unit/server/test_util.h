// Helpers for the server tests: a fake environment (manual clock, recorded timers) and a
// service over a SQLite database in a fresh temporary file.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/service/service.h"
#include "server/store/sqlite_store.h"

namespace hisha::server::test {

class FakeEnv : public service::Environment {
public:
    service::Millis t = 1'700'000'000'000;
    std::map<std::int64_t, service::Millis> timers;
    service::Millis now() override { return t; }
    void schedule(std::int64_t id, service::Millis at) override { timers[id] = at; }
    void cancel(std::int64_t id) override { timers.erase(id); }
    int commit_requests = 0;
    void request_commit() override { ++commit_requests; }
};

/// Records every event delivered to one connection.
class Recorder : public service::Listener {
public:
    std::vector<service::Event> events;
    void deliver(const service::Event& e) override { events.push_back(e); }
    int count(service::EventKind k) const {
        int n = 0;
        for (auto& e : events)
            n += e.kind == k;
        return n;
    }
};

inline std::string temp_db(const std::string& tag) {
    auto dir = std::filesystem::temp_directory_path() / ("hisha_server_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto path = dir / (tag + ".db");
    std::filesystem::remove(path);
    std::filesystem::remove(path.string() + "-wal");
    std::filesystem::remove(path.string() + "-shm");
    return path.string();
}

/// Runs SQL on a SQLite database file directly (no store open on it).
inline void raw_sql(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* msg = nullptr;
    int rc = sqlite3_exec(db, sql, nullptr, nullptr, &msg);
    std::string err = msg ? msg : "";
    sqlite3_free(msg);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK) << err;
}

/// Game `id` as the SQLite database file `db` holds it (its server stopped).
inline std::optional<GameRow> stored_game(const std::string& db, std::int64_t id) {
    std::string err;
    auto s = store::open_store("sqlite:" + db, err);
    EXPECT_TRUE(s) << err;
    return s ? s->load_game(id) : std::nullopt;
}

/// A service with cheap password hashing over a fresh database.
struct Fixture {
    std::string path;
    FakeEnv env;
    std::unique_ptr<store::Store> store;
    std::unique_ptr<service::Service> svc;

    bool group_commit = false;
    service::Millis csa_grace_ms = 0;  // Config::csa_reconnect_grace_ms at the next reopen()
    std::string url;                   // the store: sqlite:<path> unless given (a PostgreSQL URL)
    // Config::tournaments at the next reopen().
    std::vector<service::TournamentSpec> tournaments;
    // Config::vacation_days and adjourn_disconnected at the next reopen().
    int vacation_days = 30;
    bool adjourn_disconnected = false;
    explicit Fixture(const std::string& tag, bool group = false, std::string store_url = {})
        : path(temp_db(tag)), group_commit(group), url(store_url.empty() ? "sqlite:" + path : std::move(store_url)) {
        reopen();
    }

    void reopen() {
        svc.reset();
        store.reset();
        std::string err;
        store = store::open_store(url, err);
        if (!store)
            throw std::runtime_error(err);
        service::Config cfg;
        cfg.password_ops = 1;
        cfg.password_mem = 8192;
        cfg.group_commit = group_commit;
        cfg.csa_reconnect_grace_ms = csa_grace_ms;
        cfg.vacation_days = vacation_days;
        cfg.adjourn_disconnected = adjourn_disconnected;
        cfg.tournaments = tournaments;
        svc = std::make_unique<service::Service>(*store, env, cfg);
        auto r = svc->start();
        if (!r)
            throw std::runtime_error(r.error());
    }
    /// Closes the service and its store, runs `sql` on the SQLite file (an older schema made by
    /// hand, say), and opens them again.
    void reopen_after_sql(const char* sql) {
        svc.reset();
        store.reset();
        raw_sql(path, sql);
        if (!::testing::Test::HasFatalFailure())
            reopen();
    }
    void add_users(std::initializer_list<const char*> names) {
        for (auto n : names) {
            auto r = svc->register_user(n, "secret");
            if (!r)
                throw std::runtime_error(r.error());
        }
    }
    /// Advances the clock and fires due timers.
    void advance(service::Millis ms) {
        env.t += ms;
        auto timers = env.timers;
        for (auto& [id, at] : timers)
            if (at <= env.t)
                svc->on_timer(id);
    }
};

}  // namespace hisha::server::test
