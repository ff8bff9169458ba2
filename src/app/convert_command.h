// The `convert` subcommand of `hisha`.
#pragma once

#include "cli_help.h"

namespace hisha::app {
extern const Subcommand CONVERT;
}  // namespace hisha::app
