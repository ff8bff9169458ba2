// `hisha bench [DEPTH]`: the fixed-depth search bench, one thread; the node count is the
// search's signature and the same on every run and machine.
#include "bench_command.h"

#include <cstdio>
#include <cstdlib>

#include "engine/engine.h"

namespace hisha::app {

int bench_command(int argc, char** argv) {
    int depth = 9;
    if (argc >= 1) {
        depth = std::atoi(argv[0]);
        if (depth < 1 || depth > 30) {
            std::fprintf(stderr, "usage: hisha bench [DEPTH 1..30]\n");
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
