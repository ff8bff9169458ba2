// What the server's fuzz targets share: one service per process over a SQLite database in a
// temporary file, with cheap password hashing, the default limits, a clock that the targets
// advance ten seconds per input (no timers fire: the loop is the fuzzer's), and two accounts
// (fuzz1 and fuzz2, password "secret") that inputs may log in as. Inputs are lines split at
// '\n', as the network's line reader delivers them.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "server/service/log.h"
#include "server/service/service.h"
#include "server/store/store.h"

namespace hisha::server::fuzz {

class FuzzEnv final : public service::Environment {
public:
    service::Millis t = 1'700'000'000'000;
    service::Millis now() override { return t; }
    void schedule(std::int64_t, service::Millis) override {}
    void cancel(std::int64_t) override {}
};

struct World {
    std::filesystem::path dir;
    FuzzEnv env;
    std::unique_ptr<store::Store> store;
    std::unique_ptr<service::Service> svc;

    World() {
        set_logging(false);  // (a JSON line per login would slow the fuzzer down tenfold)
        dir = std::filesystem::temp_directory_path() / ("hisha_fuzz_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        std::string err;
        std::filesystem::remove(dir / "fuzz.db");
        store = store::open_store("sqlite:" + (dir / "fuzz.db").string() + "?sync=normal", err);
        if (!store)
            std::fprintf(stderr, "server_fuzz: %s\n", err.c_str());
        FUZZ_CHECK(store != nullptr);
        service::Config cfg;
        cfg.password_ops = 1;
        cfg.password_mem = 8192;
        cfg.tournaments = {{"fuzzcup-*", 60'000}};  // its players wait (the fuzz env runs no round)
        svc = std::make_unique<service::Service>(*store, env, cfg);
        FUZZ_CHECK(svc->start().has_value());
        for (const char* name : {"fuzz1", "fuzz2"})
            if (!svc->user(name))
                svc->start_register("127.0.0.1", name, "secret", [](const service::AuthReply&) {});
    }
    ~World() {
        svc.reset();
        store.reset();
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

inline World& world() {
    static World w;
    return w;
}

/// The input's lines (without the '\n'; a '\r' before it is kept, as a client may send it).
inline std::vector<std::string_view> lines_of(const std::uint8_t* data, std::size_t size) {
    std::string_view in(reinterpret_cast<const char*>(data), size);
    std::vector<std::string_view> out;
    while (!in.empty()) {
        auto nl = in.find('\n');
        out.push_back(in.substr(0, nl));
        if (nl == std::string_view::npos)
            break;
        in.remove_prefix(nl + 1);
    }
    return out;
}

/// Two connections of protocol Shell: the input's lines go to the first, or to the second when
/// a line starts with a tab (the tab removed), so that two players meet (challenges, games, undo,
/// chat). `check(reply)` sees each line's reply; at the end both connections drop.
template <typename Shell, typename Check>
void two_connections(const std::uint8_t* data, std::size_t size, Check check) {
    World& w = world();
    w.env.t += 10'000;
    std::string out[2];
    bool closed[2] = {false, false};
    std::shared_ptr<Shell> shell[2];
    for (int i = 0; i < 2; ++i) {
        shell[i] = std::make_shared<Shell>(
            *w.svc, [&out, i](std::string s) { out[i] += s; }, [&closed, i] { closed[i] = true; });
        shell[i]->start();
    }
    for (std::string_view line : lines_of(data, size)) {
        int who = !line.empty() && line[0] == '\t';
        if (who)
            line.remove_prefix(1);
        if (closed[who])
            continue;
        out[who].clear();
        shell[who]->on_line(line);
        check(out[who]);
    }
    for (int i = 0; i < 2; ++i)
        if (!closed[i])
            shell[i]->on_disconnect();
}

}  // namespace hisha::server::fuzz
