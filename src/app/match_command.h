// The `match` subcommand of `hisha`: engine-against-engine matches and tournaments.
#pragma once

#include "cli_help.h"

namespace hisha::app {
extern const Subcommand MATCH;  // reads its own --help
}
