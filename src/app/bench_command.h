// The `bench` subcommand of `hisha`.
#pragma once

#include "cli_help.h"

namespace hisha::app {
extern const Subcommand BENCH;
}  // namespace hisha::app
