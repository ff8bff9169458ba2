// Drives the interactive program in-process over string streams, as the raw (-R) and
// xshogi (-X) displays, for the tests.
#pragma once

#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include "app/gnushogi_args.h"
#include "core/text.h"
#include "play/interactive.h"

namespace hisha::play::testing {

/// A directory of this process for the files the tests write (created on first use), so that
/// tests running at the same time never share a file.
inline std::string temp_dir() {
    auto dir = std::filesystem::temp_directory_path() / ("hisha_play_tests_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    struct Remover {
        std::filesystem::path path;
        ~Remover() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    };
    static Remover remover{dir};
    return dir.string();
}

/// Runs `input` through `hisha ARGS` and returns everything it wrote. The experience file is
/// pointed at a path that does not exist (so no earlier game influences the engine) unless
/// `hash_path` names one.
inline std::string run_script(const std::string& input, const std::vector<std::string>& args,
                              const std::string& hash_path = "") {
    auto inv = app::parse_gnushogi_args(args, false);
    if (!inv)
        return "bad arguments: " + inv.error();
    inv->settings.hash_path = hash_path.empty() ? temp_dir() + "/no-experience.hsh" : hash_path;
    std::istringstream in(input);
    std::ostringstream out;
    run_streams(inv->settings, in, out);
    return out.str();
}

inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    for (std::string_view l : hisha::text::lines(text))
        out.emplace_back(l);
    return out;
}

}  // namespace hisha::play::testing
