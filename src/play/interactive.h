// The entry points of the interactive program: GNU Shogi's three displays over one
// controller. `run_interactive` uses the process's terminal or pipes and installs the
// signal handlers (SIGINT: move now; SIGTERM, SIGHUP: quit cleanly; SIGPIPE ignored);
// `run_streams` runs the raw or xshogi display over given streams (tests).
#pragma once

#include <istream>
#include <ostream>

#include "settings.h"

namespace hisha::play {

int run_interactive(const Settings& settings);
int run_streams(const Settings& settings, std::istream& in, std::ostream& out);

}  // namespace hisha::play
