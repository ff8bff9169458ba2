// The `tsume` subcommand of `hisha`: solves mating problems, one per line or one record file.
#pragma once

namespace hisha::app {
int tsume_command(int argc, char** argv);
}
