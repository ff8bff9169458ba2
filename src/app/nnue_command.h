// The `gensfen` and `nnue` subcommands of `hisha`: training data for the network and the
// tools the trainer (tools/nnue/) uses.
#pragma once

namespace hisha::app {
int gensfen_command(int argc, char** argv);
int nnue_command(int argc, char** argv);
}
