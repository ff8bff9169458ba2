// The `perft` subcommand of `hisha`.
#pragma once

namespace hisha::app {
int perft_command(int argc, char** argv);
}
