// The `perft` subcommand of `hisha`.
#pragma once

#include "cli_help.h"

namespace hisha::app {
extern const Subcommand PERFT;
}  // namespace hisha::app
