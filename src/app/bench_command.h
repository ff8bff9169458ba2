// The `bench` subcommand of `hisha`.
#pragma once

namespace hisha::app {
int bench_command(int argc, char** argv);
}
