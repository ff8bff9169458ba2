// The `openings` subcommand of `hisha`: a balanced opening set for matches.
#pragma once

namespace hisha::app {
int openings_command(int argc, char** argv);
}
