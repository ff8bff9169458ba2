// What every subcommand of `hisha` does with `--help` (or `-h`) among its arguments: print its
// usage on standard output and exit 0, as users and scripts expect of a command-line program.
#pragma once

#include <cstdio>
#include <cstring>

namespace hisha::app {

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

}  // namespace hisha::app
