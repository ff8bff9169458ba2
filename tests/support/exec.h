// For a forked child of a test or a benchmark: becoming the program it runs.
#pragma once

#include <unistd.h>

#include <string>
#include <vector>

namespace hisha::testing {

/// Replaces the process with the program args[0] and its arguments; exits 127 when it cannot.
[[noreturn]] inline void exec_args(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
}

}  // namespace hisha::testing
