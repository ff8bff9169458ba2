// What every subcommand of `hisha` does with `--help` (or `-h`) among its arguments: print its
// usage on standard output and exit 0, as users and scripts expect of a command-line program;
// and the reading of a numeric option.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace hisha::app {

/// A subcommand of `hisha`: its name, its entry point (given the arguments after the name, it
/// returns the exit status) and its usage, which hisha_main.cpp prints instead of running it when
/// the arguments ask for help; null when the subcommand reads its own --help.
struct Subcommand {
    const char* name;
    int (*run)(int argc, char** argv);
    const char* usage;
};

inline bool asks_help(int argc, char** argv) {
    for (int i = 0; i < argc; ++i)
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}

/// Prints `usage` on standard output for --help: returns 0 (the exit status).
inline int print_help(const char* usage) {
    std::fputs(usage, stdout);
    return 0;
}

/// An option's whole non-negative number, or nothing (the caller then reports the option).
inline std::optional<unsigned long long> whole_number(const char* text) {
    if (!text || !*text || text[0] == '-')
        return std::nullopt;
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(text, &end, 10);
    if (*end || errno)
        return std::nullopt;
    return v;
}

}  // namespace hisha::app
