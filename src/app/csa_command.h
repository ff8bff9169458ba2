// The `csa` subcommand of `hisha`: plays games on a CSA server (Floodgate, hisha-server) with
// Hisha's engine or any USI engine.
#pragma once

#include "cli_help.h"

namespace hisha::app {
extern const Subcommand CSA;  // reads its own --help
}
