// `hisha bench [DEPTH]`: the fixed-depth search bench, one thread; the node count is the
// search's signature and the same on every run and machine.
#include "bench_command.h"

#include <cstdio>
#include <cstdlib>

#include "cli_help.h"
#include "engine/engine.h"

namespace hisha::app {

namespace {
const char* const USAGE =
    "usage: hisha bench [DEPTH 1..30]\n"
    "  searches fixed positions one by one to DEPTH (default 9), one thread, 16 MB hash, no book;\n"
    "  the last line is nodes=N time_ms=T nps=X, and N is the same on every run and machine\n"
    "  example: hisha bench 12\n";
}  // namespace

int bench_command(int argc, char** argv) {
    if (asks_help(argc, argv))
        return print_help(USAGE);
    int depth = 9;
    if (argc >= 1) {
        depth = std::atoi(argv[0]);
        if (depth < 1 || depth > 30) {
            std::fprintf(stderr, "hisha bench: the depth is 1..30, not '%s'\n%s", argv[0], USAGE);
            return 2;
        }
    }
    engine::Engine e;
    int ms = 0;
    std::uint64_t nodes = e.bench(depth, &ms);
    std::printf("nodes=%llu time_ms=%d nps=%llu\n", (unsigned long long)nodes, ms,
                (unsigned long long)(ms > 0 ? nodes * 1000 / std::uint64_t(ms) : 0));
    return 0;
}

}  // namespace hisha::app
