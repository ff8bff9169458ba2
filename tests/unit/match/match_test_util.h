// Helpers shared by the match tests: where the built `hisha` and the fake engines are, and
// engine configurations for them.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include "match/match.h"

namespace hisha::match::test {

inline std::string hisha_binary() { return HISHA_BINARY; }
inline std::string fake_usi() { return std::string(HISHA_TEST_DATA_LOCAL) + "/fake_engines/fake_usi.py"; }

inline EngineConfig engine_config(const std::string& name, const std::string& command, const std::string& tc) {
    EngineConfig e;
    e.spec.name = name;
    e.spec.command = command;
    e.spec.startup_timeout_ms = 5000;
    if (protocol::driver_of(command) != protocol::DriverKind::Xshogi)
        e.spec.options.emplace_back("USI_Hash", "16");
    auto t = parse_time_control(tc);
    if (t)
        e.tc = *t;
    return e;
}

/// The GNU Shogi binary, or "" when it is not installed.
inline std::string find_gnushogi() {
    for (const char* p : {"/usr/games/gnushogi", "/usr/bin/gnushogi", "/usr/local/bin/gnushogi"})
        if (::access(p, X_OK) == 0)
            return p;
    return {};
}

inline std::filesystem::path temp_dir(const std::string& name) {
    auto d = std::filesystem::temp_directory_path() / ("hisha_match_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

}  // namespace hisha::match::test
