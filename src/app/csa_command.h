// The `csa` subcommand of `hisha`: plays games on a CSA server (Floodgate, hisha-server) with
// Hisha's engine or any USI engine.
#pragma once

namespace hisha::app {
int csa_command(int argc, char** argv);
}
