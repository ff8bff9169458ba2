// The `tsume` subcommand of `hisha`: solves mating problems, one per line or one record file.
#pragma once

#include "cli_help.h"

namespace hisha::app {
extern const Subcommand TSUME;
}  // namespace hisha::app
