// The table entry of a subcommand of `hisha` (hisha_main.cpp dispatches on it). Each reads its
// own arguments with a Cli (cli.h): --help, --version and the refusal of bad values.
#pragma once

namespace hisha::app {

/// A subcommand of `hisha`: its name, its entry point (given the arguments after the name, it
/// returns the exit status) and its usage (also its --help text).
struct Subcommand {
    const char* name;
    int (*run)(int argc, char** argv);
    const char* usage;
};

}  // namespace hisha::app
