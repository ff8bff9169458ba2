// `hisha bench [DEPTH]`: the fixed-depth search bench, one thread; the node count is the
// search's signature and the same on every run and machine.
#include "bench_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cli.h"
#include "engine/bench_signature.h"
#include "engine/engine.h"

namespace hisha::app {

const char* const BENCH_USAGE =
    "usage: hisha bench [DEPTH 1..30] [--eval-file NET] [--evaluation NNUE|Classic|Material]\n"
    "  searches fixed positions one by one to DEPTH (default 13), one thread, 16 MB hash, no book;\n"
    "  the last line is nodes=N time_ms=T nps=X, and N is the same on every run and machine;\n"
    "  the evaluation is the engine's default (NNUE with the built-in net, or Classic in a build\n"
    "  without one), --evaluation another, --eval-file a network file (Evaluation NNUE)\n"
    "  example: hisha bench 9 (quicker); hisha bench 9 --evaluation Classic\n";

int bench_command(int argc, char** argv) {
    int depth = engine::BENCH_DEPTH;
    std::string net, evaluation;
    Cli cli("hisha bench", BENCH_USAGE);
    cli.text("--eval-file", net);
    cli.text("--evaluation", evaluation);
    cli.option("DEPTH", [&depth](const std::string& v) {
        auto d = whole_in(v, 1, 30);
        depth = d ? int(*d) : depth;
        return d ? std::string() : fmt::format("the depth is 1..30, not '{}'", v);
    });
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    engine::Engine e;
    if (!net.empty() || !evaluation.empty()) {
        std::string err = net.empty() ? "" : e.set_option("EvalFile", net);
        if (err.empty())
            err = e.set_option("Evaluation", evaluation.empty() ? "NNUE" : evaluation);
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
