// Micro-benchmark of the static evaluation: ClassicEvaluator::evaluate and MaterialEvaluator on
// 256 positions of random games from nine opening, middlegame and endgame positions (a fixed seed:
// every run evaluates the same positions). The Time column is ns per evaluate() call, the mean
// over the set; a checksum of the values is printed first, so that a faster evaluation that
// changed its values is seen at once.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/evaluate.h"

namespace {

using namespace hisha::core;
using namespace hisha::engine;

const char* const STARTS[] = {
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgk1snl/1r4gb1/p1pppp1pp/6p2/1p7/2P6/PP1PPPPPP/1BG4R1/LN1SKGSNL b - 9",
    "ln1g1g1nl/1r1s2k2/p1pp1p1pp/4p1p2/1p5P1/2P1P4/PPSP1PP1P/1BK1GS1R1/LN1G3NL b Bs 27",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "ln3k1nl/1r3g3/p1ppps1pp/1s3pp2/1p7/2P1P1P2/PPSP1P1PP/2G1K1SR1/LN3G1NL b Bbg 31",
    "lr5nl/3g1kg2/2n1ppsp1/p1ps1bp1p/1p7/P1P1P1P1P/1PSPBP3/2G1G1S2/LNK3RNL w 2P 45",
    "4k4/9/4P4/9/9/9/9/9/4K4 b GS2r2b3g3s4n4l17p 1",
};
constexpr int POSITION_COUNT = 256;  // their boards stay in the cache, as in a search

// Positions along random games (up to 40 plies each) from the starts, kept as SFEN.
std::vector<std::unique_ptr<Position>> make_positions() {
    std::mt19937_64 rng(20261126);
    std::vector<std::unique_ptr<Position>> out;
    while (int(out.size()) < POSITION_COUNT)
        for (const char* sfen : STARTS) {
            Position pos;
            if (!pos.set(sfen, SfenRules::Relaxed)) {
                std::fprintf(stderr, "eval_bench: bad SFEN %s\n", sfen);
                std::abort();
            }
            std::vector<StateInfo> states(64);
            for (int ply = 0; ply < int(rng() % 40) && int(out.size()) < POSITION_COUNT; ++ply) {
                MoveList<LEGAL> moves(pos);
                if (moves.size() == 0)
                    break;
                pos.do_move(moves.begin()[rng() % moves.size()].move, states[std::size_t(ply)]);
                auto copy = std::make_unique<Position>();
                if (!copy->set(pos.sfen(), SfenRules::Relaxed))
                    std::abort();
                out.push_back(std::move(copy));
            }
        }
    return out;
}

const std::vector<std::unique_ptr<Position>>& positions() {
    static const auto p = make_positions();
    return p;
}

template <typename E>
void run(benchmark::State& state) {
    E eval;
    const auto& ps = positions();
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(eval.evaluate(*ps[i]));
        i = (i + 1) % ps.size();
    }
}
void BM_classic(benchmark::State& s) { run<ClassicEvaluator>(s); }
void BM_material(benchmark::State& s) { run<MaterialEvaluator>(s); }
BENCHMARK(BM_classic);
BENCHMARK(BM_material);

}  // namespace

int main(int argc, char** argv) {
    ClassicEvaluator classic;
    std::int64_t sum = 0;
    for (const auto& p : positions())
        sum = sum * 31 + classic.evaluate(*p);
    std::printf("%zu positions, classic checksum %lld\n", positions().size(), static_cast<long long>(sum));
    std::fflush(stdout);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
