// Micro-benchmark of move generation and do/undo: generate<LEGAL, true> (the rules-complete
// generator perft uses) on four positions, do_move/undo_move of every legal move of each, and
// perft(4) from the start position. Node and move counts are checked before timing.
#include <benchmark/benchmark.h>

#include "run_benchmarks.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "core/movegen.h"
#include "core/position.h"

namespace {

using namespace hisha::core;

struct BenchPosition {
    const char* name;
    const char* sfen;
    std::size_t moves;  // legal moves, All = true
};

// The matsuri and max-moves counts are the published perft(1) values (STYLE.md section 6.12).
const BenchPosition POSITIONS[] = {
    {"start", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 30},
    {"matsuri", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1", 207},
    {"maxmoves", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 593},
    {"midgame", "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91", 0},
};
constexpr int POSITION_NB = int(sizeof(POSITIONS) / sizeof(POSITIONS[0]));
constexpr std::uint64_t START_PERFT4 = 719731;

[[noreturn]] void die(const char* what, const char* name) {
    std::fprintf(stderr, "movegen_bench: %s (%s)\n", what, name);
    std::abort();
}

// Strict SFEN rules first; Relaxed only if Strict refuses (and then say so).
std::unique_ptr<Position> load(const BenchPosition& p) {
    auto pos = std::make_unique<Position>();
    if (pos->set(p.sfen, SfenRules::Strict))
        return pos;
    if (!pos->set(p.sfen, SfenRules::Relaxed))
        die("bad SFEN", p.name);
    std::printf("note: %s needs SfenRules::Relaxed\n", p.name);
    return pos;
}

// Checks every position once: the move count, and that do/undo restores the key.
void verify() {
    for (const BenchPosition& p : POSITIONS) {
        auto pos = load(p);
        MoveList<LEGAL, true> moves(*pos);
        if (p.moves && moves.size() != p.moves)
            die("unexpected legal move count", p.name);
        Key key = pos->key();
        StateInfo st;
        for (const ScoredMove& sm : moves) {
            pos->do_move(sm.move, st);
            pos->undo_move(sm.move);
        }
        if (pos->key() != key || !pos->is_consistent())
            die("do/undo did not restore the position", p.name);
        std::printf("%-8s %3zu legal moves  %s\n", p.name, moves.size(), p.sfen);
    }
    Position pos;
    if (perft(pos, 4) != START_PERFT4)
        die("perft(4) from the start position is not 719731", "start");
}

// One iteration = one generation; the Time column is ns per generate() call.
void BM_generate_legal(benchmark::State& state) {
    const BenchPosition& p = POSITIONS[state.range(0)];
    auto pos = load(p);
    std::size_t n = 0;
    for (auto _ : state) {
        MoveList<LEGAL, true> moves(*pos);
        n = moves.size();
        benchmark::DoNotOptimize(moves);
    }
    state.SetLabel(p.name);
    state.counters["moves"] = double(n);  // ns per generated move = Time / moves
}

// One iteration = do_move + undo_move of one legal move, cycling through the list; the Time
// column is ns per do+undo pair.
void BM_do_undo(benchmark::State& state) {
    const BenchPosition& p = POSITIONS[state.range(0)];
    auto pos = load(p);
    MoveList<LEGAL, true> moves(*pos);
    StateInfo st;
    const ScoredMove* it = moves.begin();
    for (auto _ : state) {
        pos->do_move(it->move, st);
        pos->undo_move(it->move);
        if (++it == moves.end())
            it = moves.begin();
    }
    state.SetLabel(p.name);
    state.counters["moves"] = double(moves.size());
}

void BM_perft4_start(benchmark::State& state) {
    Position pos;
    std::uint64_t nodes = 0;
    for (auto _ : state) {
        nodes = perft(pos, 4);
        benchmark::DoNotOptimize(nodes);
    }
    state.counters["nodes"] = double(nodes);
    state.counters["nps"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_generate_legal)->DenseRange(0, POSITION_NB - 1);
BENCHMARK(BM_do_undo)->DenseRange(0, POSITION_NB - 1);
BENCHMARK(BM_perft4_start)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    verify();
    return run_benchmarks(argc, argv);
}
