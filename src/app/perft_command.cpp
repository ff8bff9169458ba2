// `hisha perft DEPTH [--sfen SFEN] [--divide]`: counts the leaves of the legal move tree.
#include "perft_command.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

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
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--sfen" && i + 1 < argc)
            sfen = argv[++i];
        else if (a == "--divide")
            divide = true;
        else if (depth < 0 && !a.empty() && a.find_first_not_of("0123456789") == std::string::npos && a.size() < 4)
            depth = std::atoi(a.c_str());
        else {
            std::fprintf(stderr, "hisha perft: unexpected argument '%s'\n%s", a.c_str(), PERFT_USAGE);
            return 2;
        }
    }
    if (depth < 0) {
        std::fprintf(stderr, "%s", PERFT_USAGE);
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
