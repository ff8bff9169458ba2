// The `selfplay` and `tune` subcommands of `hisha` (evaluation tuning).
#pragma once

namespace hisha::app {
int selfplay_command(int argc, char** argv);
int tune_command(int argc, char** argv);
}
