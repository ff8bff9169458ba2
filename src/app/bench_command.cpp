// `hisha bench [DEPTH]`: the fixed-depth search bench, one thread; the node count is the
// search's signature and the same on every run and machine.
#include "bench_command.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/bench_signature.h"
#include "engine/engine.h"

namespace hisha::app {

const char* const BENCH_USAGE =
    "usage: hisha bench [DEPTH 1..30] [--eval-file NET]\n"
    "  searches fixed positions one by one to DEPTH (default 13), one thread, 16 MB hash, no book;\n"
    "  the last line is nodes=N time_ms=T nps=X, and N is the same on every run and machine;\n"
    "  with --eval-file the search evaluates with that network (Evaluation NNUE)\n"
    "  example: hisha bench 9 (quicker)\n";

int bench_command(int argc, char** argv) {
    int depth = engine::BENCH_DEPTH;
    std::string net;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--eval-file") == 0) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "hisha bench: --eval-file needs a net file\n%s", BENCH_USAGE);
                return 2;
            }
            net = argv[++i];
            continue;
        }
        depth = std::atoi(argv[i]);
        if (depth < 1 || depth > 30) {
            std::fprintf(stderr, "hisha bench: the depth is 1..30, not '%s'\n%s", argv[i], BENCH_USAGE);
            return 2;
        }
    }
    engine::Engine e;
    if (!net.empty()) {
        std::string err = e.set_option("EvalFile", net);
        if (err.empty())
            err = e.set_option("Evaluation", "NNUE");
        if (!err.empty()) {
            std::fprintf(stderr, "hisha bench: %s\n", err.c_str());
            return 1;
        }
    }
    int ms = 0;
    std::uint64_t nodes = e.bench(depth, &ms);
    std::printf("nodes=%llu time_ms=%d nps=%llu\n", (unsigned long long)nodes, ms,
                (unsigned long long)(ms > 0 ? nodes * 1000 / std::uint64_t(ms) : 0));
    return 0;
}

const Subcommand BENCH = {"bench", bench_command, BENCH_USAGE};

}  // namespace hisha::app
