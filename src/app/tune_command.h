// The `selfplay` and `tune` subcommands of `hisha` (evaluation tuning).
#pragma once

#include "cli_help.h"

namespace hisha::app {
extern const Subcommand SELFPLAY;
extern const Subcommand TUNE;
}  // namespace hisha::app
