// The `puzzles` subcommand of `hisha`: tsume puzzles from the positions of played games.
#pragma once

#include "cli_help.h"

namespace hisha::app {
extern const Subcommand PUZZLES;
}  // namespace hisha::app
