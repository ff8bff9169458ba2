// The `convert` subcommand of `hisha`.
#pragma once

namespace hisha::app {
int convert_command(int argc, char** argv);
}
