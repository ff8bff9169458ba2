// `hisha perft DEPTH [--sfen SFEN] [--divide]`: counts the leaves of the legal move tree.
#include "perft_command.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli.h"
#include "core/movegen.h"
#include "core/position.h"

namespace hisha::app {

const char* const PERFT_USAGE =
    "usage: hisha perft DEPTH [--sfen SFEN] [--divide]\n"
    "  counts the leaves of the legal move tree from the start position (or SFEN) to DEPTH;\n"
    "  --divide first prints one line per root move; the last line is nodes=N time_ms=T nps=X\n"
    "  example: hisha perft 5\n";

int perft_command(int argc, char** argv) {
    int depth = -1;
    std::string sfen(core::START_SFEN);
    bool divide = false;
    Cli cli("hisha perft", PERFT_USAGE);
    cli.text("--sfen", sfen);
    cli.flag("--divide", [&divide] { divide = true; });
    cli.option("DEPTH", [&depth](const std::string& v) {
        auto d = whole_in(v, 0, 999);
        depth = d ? int(*d) : depth;
        return d ? std::string() : fmt::format("the depth is a whole number 0..999, not '{}'", v);
    });
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    if (depth < 0) {
        std::fprintf(stderr, "hisha perft: DEPTH is required\n%s", PERFT_USAGE);
        return 2;
    }
    core::Position pos;
    // Composed test positions may hold more pieces of a kind than a set has.
    if (auto r = pos.set(sfen, core::SfenRules::Relaxed); !r) {
        std::fprintf(stderr, "hisha perft: bad SFEN: %s\n", r.error().to_string().c_str());
        return 2;
    }
    auto t0 = std::chrono::steady_clock::now();
    std::uint64_t nodes = 0;
    if (divide && depth >= 1) {
        core::MoveList<core::LEGAL, true> moves(pos);
        core::StateInfo st;
        for (const auto& sm : moves) {
            pos.do_move(sm.move, st);
            std::uint64_t n = core::perft(pos, depth - 1);
            pos.undo_move(sm.move);
            std::printf("%s: %llu\n", core::to_usi(sm.move).c_str(), (unsigned long long)n);
            nodes += n;
        }
    } else
        nodes = core::perft(pos, depth);
    auto ms =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count() / 1000.0;
    double nps = ms > 0 ? nodes / (ms / 1000.0) : 0;
    std::printf("nodes=%llu time_ms=%.0f nps=%.0f\n", (unsigned long long)nodes, ms, nps);
    return 0;
}

const Subcommand PERFT = {"perft", perft_command, PERFT_USAGE};

}  // namespace hisha::app
