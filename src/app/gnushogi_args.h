// GNU Shogi's command line for `hisha` without a subcommand:
//   hisha [[-]a] [-b bookfile] [-B binbookfile] [-C] [-h] [h] [-l pathname] [-L lang]
//         [-r length] [-R] [-s pathname] [-S size] [-t] [-c size] [-T size] [-v] [-x value]
//         [-X] [arg1 arg2 ...]
// with GNU's time arguments (30, 5:00, 60 5, 30 3:30, 30 5 1 :30; none: ask for a level).
// Options without a modern meaning are accepted and say what they do now.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "play/settings.h"

namespace hisha::app {

struct GnuInvocation {
    play::Settings settings;
    bool explicit_mode = false;  // -R, -C or -X was given
    bool version = false;        // -v
};

/// True when the arguments are GNU Shogi's (no subcommand): none at all, a known flag, `a`,
/// `h`, or a time argument.
bool is_gnushogi_invocation(const std::vector<std::string>& args);
/// Parses the arguments (without the program name); `stdin_is_terminal` picks the default
/// display (raw at a terminal, xshogi otherwise).
core::Result<GnuInvocation, std::string> parse_gnushogi_args(const std::vector<std::string>& args,
                                                            bool stdin_is_terminal);
/// Runs the interactive program (or the -v, -c, -t utilities); returns the exit code.
int gnushogi_command(int argc, char** argv);

}  // namespace hisha::app
