// The `gensfen` and `nnue` subcommands of `hisha`: training data for the network and the
// tools the trainer (tools/nnue/) uses.
#pragma once

#include "cli_help.h"

namespace hisha::app {
extern const Subcommand GENSFEN;
extern const Subcommand NNUE;
}  // namespace hisha::app
