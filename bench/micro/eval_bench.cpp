// Micro-benchmark of the static evaluation: ClassicEvaluator::evaluate and MaterialEvaluator on
// 256 positions of random games from the positions of `hisha bench` (a fixed seed: every run
// evaluates the same positions). The Time column is ns per evaluate() call, the mean over the
// set; BM_classic's `checksum` counter is a hash of the values, so that a faster evaluation that
// changed its values is seen at once.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/engine.h"
#include "engine/evaluate.h"

namespace {

using namespace hisha::core;
using namespace hisha::engine;

constexpr int POSITION_COUNT = 256;  // their boards stay in the cache, as in a search

// Positions along random games (up to 40 plies each) from the bench's positions.
std::vector<std::unique_ptr<Position>> make_positions() {
    std::mt19937_64 rng(20261126);
    std::vector<std::unique_ptr<Position>> out;
    while (int(out.size()) < POSITION_COUNT)
        for (const char* sfen : bench_positions()) {
            Position pos;
            if (!pos.set(sfen, SfenRules::Relaxed))
                std::abort();
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
    std::uint32_t sum = 0;
    for (const auto& p : ps)
        sum = sum * 31 + std::uint32_t(eval.evaluate(*p));
    state.counters["checksum"] = double(sum % 100000);  // (shown whole: five digits)
}
void BM_classic(benchmark::State& s) { run<ClassicEvaluator>(s); }
void BM_material(benchmark::State& s) { run<MaterialEvaluator>(s); }
BENCHMARK(BM_classic);
BENCHMARK(BM_material);

}  // namespace

BENCHMARK_MAIN();
