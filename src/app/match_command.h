// The `match` subcommand of `hisha`: engine-against-engine matches and tournaments.
#pragma once

namespace hisha::app {
int match_command(int argc, char** argv);
}
