// The `openings` subcommand of `hisha`: a balanced opening set for matches.
#pragma once

#include "cli_help.h"

namespace hisha::app {
extern const Subcommand OPENINGS;  // reads its own --help
}
