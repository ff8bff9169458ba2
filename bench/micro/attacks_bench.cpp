// Micro-benchmark of sliding attacks (rook, bishop, lance) on the 81-square two-word bitboard.
// Methods: the core's per-direction rays (attacks.h), PEXT tables built here at start-up (BMI2
// builds only), small file tables for the vertical part, and a naive square-by-square loop as
// the baseline. Every method is checked against the naive loop before anything is timed.
// One benchmark iteration is one call, so the Time column reads directly as ns per call.
#include <benchmark/benchmark.h>

#include "run_benchmarks.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "core/attacks.h"

namespace {

using namespace hisha::core;
using u64 = std::uint64_t;

// --- inputs

// SplitMix64: a fixed seed gives the same samples on every run.
struct Rng {
    u64 s;
    u64 next() {
        u64 z = (s += 0x9e37'79b9'7f4a'7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58'476d'1ce4'e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d0'49bb'1331'11ebULL;
        return z ^ (z >> 31);
    }
};

// A random occupancy of about density/8 of the squares (density 0..8).
Bitboard random_occupancy(Rng& rng, int density) {
    auto word = [&] {
        switch (density) {
        case 0: return u64(0);
        case 1: return rng.next() & rng.next() & rng.next();
        case 2: return rng.next() & rng.next();
        case 4: return rng.next();
        case 6: return rng.next() | rng.next();
        default: return ~u64(0);
        }
    };
    u64 lo = word(), hi = word();
    return Bitboard(lo, hi) & Bitboard::all();
}

// One call's input. The slider's own square is occupied, as it is on a real board.
struct Sample {
    Square sq;
    Color c;
    Bitboard occ;
};

constexpr int SAMPLES = 4096;  // a power of two: the index wraps with a mask

// Densities of 25 % and 50 % (a middle game has 35-40 pieces on 81 squares).
const std::vector<Sample>& samples() {
    static const std::vector<Sample> v = [] {
        std::vector<Sample> s(SAMPLES);
        Rng rng{20240611};
        for (int i = 0; i < SAMPLES; ++i) {
            Square sq = Square(rng.next() % SQ_NB);
            s[i] = {sq, Color(rng.next() & 1), random_occupancy(rng, i % 2 ? 4 : 2) | sq};
        }
        return s;
    }();
    return v;
}

// --- (c) naive: step square by square until the edge or the first blocker

constexpr int ROOK_DIRS[4][2] = {{0, -1}, {0, 1}, {-1, 0}, {1, 0}};  // {file, rank}
constexpr int BISHOP_DIRS[4][2] = {{-1, -1}, {1, 1}, {1, -1}, {-1, 1}};

Bitboard naive_slide(Square s, const Bitboard& occ, const int (*dirs)[2], int n) {
    Bitboard b;
    for (int d = 0; d < n; ++d)
        for (int f = file_of(s) + dirs[d][0], r = rank_of(s) + dirs[d][1]; f >= 0 && f < 9 && r >= 0 && r < 9;
             f += dirs[d][0], r += dirs[d][1]) {
            Square t = make_square(File(f), Rank(r));
            b |= t;
            if (occ.test(t))
                break;
        }
    return b;
}
Bitboard naive_rook(Square s, const Bitboard& occ) { return naive_slide(s, occ, ROOK_DIRS, 4); }
Bitboard naive_bishop(Square s, const Bitboard& occ) { return naive_slide(s, occ, BISHOP_DIRS, 4); }
Bitboard naive_lance(Color c, Square s, const Bitboard& occ) {
    return naive_slide(s, occ, c == BLACK ? &ROOK_DIRS[0] : &ROOK_DIRS[1], 1);
}

// --- (a) the core's method
Bitboard core_rook(Square s, const Bitboard& occ) { return rook_attacks(s, occ); }
Bitboard core_bishop(Square s, const Bitboard& occ) { return bishop_attacks(s, occ); }
Bitboard core_lance(Color c, Square s, const Bitboard& occ) { return lance_attacks(c, s, occ); }

// --- (a') the core's rays with a branch-free "down" search. GCC 12 compiles ray_attack_down
// (bit_floor and `x1 ? 0 : ...`) into conditional jumps, which random occupancies mispredict;
// a shift by the bit index of the highest blocker and a mask from `x1 != 0` need none.
Bitboard down_nobranch(const Bitboard& ray, const Bitboard& occ) {
    u64 x0 = occ.p[0] & ray.p[0], x1 = occ.p[1] & ray.p[1];
    u64 m1 = ~u64(0) << (63 - std::countl_zero(x1 | 1));                         // at or above the blocker
    u64 m0 = (~u64(0) << (63 - std::countl_zero(x0 | 1))) & (u64(x1 != 0) - 1);  // hidden by word 1
    return {ray.p[0] & m0, ray.p[1] & m1};
}
Bitboard nobranch_rook(Square s, const Bitboard& occ) {
    return down_nobranch(RAY[DIR_N][s], occ) | ray_attack_up(RAY[DIR_S][s], occ) | down_nobranch(RAY[DIR_E][s], occ)
         | ray_attack_up(RAY[DIR_W][s], occ);
}
Bitboard nobranch_bishop(Square s, const Bitboard& occ) {
    return down_nobranch(RAY[DIR_NE][s], occ) | down_nobranch(RAY[DIR_SE][s], occ) | ray_attack_up(RAY[DIR_NW][s], occ)
         | ray_attack_up(RAY[DIR_SW][s], occ);
}
Bitboard nobranch_lance(Color c, Square s, const Bitboard& occ) {
    return c == BLACK ? down_nobranch(RAY[DIR_N][s], occ) : ray_attack_up(RAY[DIR_S][s], occ);
}

// --- file tables (no BMI2 needed): a file lies inside one word, so its seven inner ranks are
// one shift and mask away. FILE_PAT[rank][inner occupancy] is the 9-bit pattern of attacked
// ranks, shifted back to the file's place.
struct FileTables {
    std::array<std::array<std::uint16_t, 128>, RANK_NB> rook{};  // up and down the file
    std::array<std::array<std::array<std::uint16_t, 128>, RANK_NB>, COLOR_NB> lance{};
    std::array<std::uint8_t, SQ_NB> word{}, base{};  // where s's file starts
};
FileTables FT;

void build_file_tables() {
    for (int r = 0; r < RANK_NB; ++r)
        for (int idx = 0; idx < 128; ++idx) {
            Bitboard occ(u64(idx) << 1, 0);  // file 1, ranks b..h
            Square s = make_square(FILE_1, Rank(r));
            FT.rook[r][idx] = std::uint16_t(naive_slide(s, occ, ROOK_DIRS, 2).p[0]);
            for (int c = 0; c < COLOR_NB; ++c)
                FT.lance[c][r][idx] = std::uint16_t(naive_lance(Color(c), s, occ).p[0]);
        }
    for (int s = 0; s < SQ_NB; ++s) {
        Square first = make_square(file_of(Square(s)), RANK_1);
        FT.word[s] = std::uint8_t(Bitboard::word_of(first));
        FT.base[s] = std::uint8_t(Bitboard::bit_in_word(first));
    }
}

Bitboard from_file_pattern(Square s, u64 pattern) {
    u64 bits = pattern << FT.base[s];
    return FT.word[s] ? Bitboard(0, bits) : Bitboard(bits, 0);
}
Bitboard table_file(Square s, const Bitboard& occ) {
    unsigned idx = unsigned(occ.p[FT.word[s]] >> (FT.base[s] + 1)) & 127;
    return from_file_pattern(s, FT.rook[rank_of(s)][idx]);
}
Bitboard table_lance(Color c, Square s, const Bitboard& occ) {
    unsigned idx = unsigned(occ.p[FT.word[s]] >> (FT.base[s] + 1)) & 127;
    return from_file_pattern(s, FT.lance[c][rank_of(s)][idx]);
}

#if defined(__BMI2__)
// --- (b) PEXT tables. Masks hold the inner squares only (an edge square is attacked whether
// or not it is occupied). "pext2" extracts each word and joins the two indices; "merged"
// (Apery/YaneuraOu) ands the occupancy with the mask, ors the two words and extracts once,
// which is exact because the masked bits of the two words never share a position.
struct PextTables {
    // Rook: the rank part only; the file part comes from the file table or the core.
    std::array<Bitboard, SQ_NB> rank_mask{};
    std::array<std::array<Bitboard, 128>, SQ_NB> rank_pext2{}, rank_merged{};
    std::array<std::array<std::uint16_t, 128>, FILE_NB> rank_pattern{};  // merged index -> files
    // Bishop: per-square slices of one table.
    std::array<Bitboard, SQ_NB> diag_mask{};
    std::array<std::uint8_t, SQ_NB> diag_bits0{};  // popcount of the word-0 mask (pext2 shift)
    std::array<std::uint32_t, SQ_NB> diag_offset{};
    std::vector<Bitboard> diag_pext2, diag_merged;
};
PextTables PT;

u64 merge(const Bitboard& b) { return b.p[0] | b.p[1]; }
// The east and west rays only.
Bitboard naive_rank(Square s, const Bitboard& occ) { return naive_slide(s, occ, &ROOK_DIRS[2], 2); }

unsigned index_pext2(const Bitboard& occ, const Bitboard& mask, int bits0) {
    return unsigned(_pext_u64(occ.p[0], mask.p[0]) | (_pext_u64(occ.p[1], mask.p[1]) << bits0));
}
unsigned index_merged(const Bitboard& occ, const Bitboard& mask) {
    return unsigned(_pext_u64(merge(occ & mask), merge(mask)));
}
// The occupancies (inside mask) that the two index functions map idx from.
Bitboard occ_pext2(unsigned idx, const Bitboard& mask, int bits0) {
    return {_pdep_u64(idx, mask.p[0]), _pdep_u64(idx >> bits0, mask.p[1])};
}
Bitboard occ_merged(unsigned idx, const Bitboard& mask) {
    u64 m = _pdep_u64(idx, merge(mask));
    return {m & mask.p[0], m & mask.p[1]};
}

void build_pext_tables() {
    const Bitboard inner_files = ~(FILE_BB[FILE_1] | FILE_BB[FILE_9]);
    const Bitboard inner_ranks = ~(RANK_BB[RANK_1] | RANK_BB[RANK_9]);
    for (int si = 0; si < SQ_NB; ++si) {
        Square s = Square(si);
        Bitboard m = RANK_BB[rank_of(s)] & inner_files;  // seven squares, s included: its bit is ignored
        if (m.p[0] & m.p[1]) {
            std::fprintf(stderr, "attacks_bench: rank masks of square %d collide when merged\n", si);
            std::abort();
        }
        PT.rank_mask[s] = m;
        int bits0 = std::popcount(m.p[0]);
        for (unsigned idx = 0; idx < 128; ++idx) {
            PT.rank_pext2[s][idx] = naive_rank(s, occ_pext2(idx, m, bits0));
            PT.rank_merged[s][idx] = naive_rank(s, occ_merged(idx, m));
        }
    }
    // The rank pattern depends only on the file of s: build it on rank a and deposit it later.
    for (int f = 0; f < FILE_NB; ++f) {
        Square s = make_square(File(f), RANK_1);
        for (unsigned idx = 0; idx < 128; ++idx) {
            Bitboard a = naive_rank(s, occ_merged(idx, PT.rank_mask[s]));
            PT.rank_pattern[f][idx] =
                std::uint16_t(_pext_u64(a.p[0], RANK_BB[RANK_1].p[0]) | (_pext_u64(a.p[1], RANK_BB[RANK_1].p[1]) << 7));
        }
    }
    std::uint32_t offset = 0;
    for (int si = 0; si < SQ_NB; ++si) {
        Square s = Square(si);
        Bitboard m = BISHOP_PSEUDO[s] & inner_files & inner_ranks;
        if (m.p[0] & m.p[1]) {
            std::fprintf(stderr, "attacks_bench: diagonal masks of square %d collide when merged\n", si);
            std::abort();
        }
        PT.diag_mask[s] = m;
        PT.diag_bits0[s] = std::uint8_t(std::popcount(m.p[0]));
        PT.diag_offset[s] = offset;
        offset += 1u << m.popcount();
    }
    PT.diag_pext2.resize(offset);
    PT.diag_merged.resize(offset);
    for (int si = 0; si < SQ_NB; ++si) {
        Square s = Square(si);
        const Bitboard& m = PT.diag_mask[s];
        for (unsigned idx = 0; idx < (1u << m.popcount()); ++idx) {
            PT.diag_pext2[PT.diag_offset[s] + idx] = naive_bishop(s, occ_pext2(idx, m, PT.diag_bits0[s]));
            PT.diag_merged[PT.diag_offset[s] + idx] = naive_bishop(s, occ_merged(idx, m));
        }
    }
    std::printf("pext tables: rook rank %zu KiB per layout ([81][128] Bitboard), rank pattern %zu KiB, "
                "bishop %u entries = %zu KiB per layout; file tables %zu KiB\n",
                sizeof(PT.rank_pext2) / 1024, sizeof(PT.rank_pattern) / 1024, offset, offset * sizeof(Bitboard) / 1024,
                (sizeof(FT.rook) + sizeof(FT.lance)) / 1024);
}

// Rook = file table + rank by pext of both words into [81][128].
Bitboard pext_rook(Square s, const Bitboard& occ) {
    return table_file(s, occ) | PT.rank_pext2[s][index_pext2(occ, PT.rank_mask[s], 6)];
}
// Rook = file table + rank by one pext of the merged words into [81][128].
Bitboard pext_merged_rook(Square s, const Bitboard& occ) {
    return table_file(s, occ) | PT.rank_merged[s][index_merged(occ, PT.rank_mask[s])];
}
// Rook = the core's file rays + rank by one merged pext.
Bitboard pext_corefile_rook(Square s, const Bitboard& occ) {
    return rook_file_attacks(s, occ) | PT.rank_merged[s][index_merged(occ, PT.rank_mask[s])];
}
// Rook = file table + a 9-bit rank pattern ([9][128] u16, 2 KiB) deposited onto the rank by pdep.
Bitboard pext_pdep_rook(Square s, const Bitboard& occ) {
    u64 pat = PT.rank_pattern[file_of(s)][index_merged(occ, PT.rank_mask[s])];
    const Bitboard& rank = RANK_BB[rank_of(s)];
    return table_file(s, occ) | Bitboard(_pdep_u64(pat, rank.p[0]), _pdep_u64(pat >> 7, rank.p[1]));
}
Bitboard pext_bishop(Square s, const Bitboard& occ) {
    return PT.diag_pext2[PT.diag_offset[s] + index_pext2(occ, PT.diag_mask[s], PT.diag_bits0[s])];
}
Bitboard pext_merged_bishop(Square s, const Bitboard& occ) {
    return PT.diag_merged[PT.diag_offset[s] + index_merged(occ, PT.diag_mask[s])];
}
#endif

// --- verification against the naive loop

using SquareFn = Bitboard (*)(Square, const Bitboard&);
using LanceFn = Bitboard (*)(Color, Square, const Bitboard&);

struct Method {
    const char* name;
    SquareFn rook;
    SquareFn bishop;
};

void fail(const char* what, const char* method, int s, const Bitboard& occ, const Bitboard& got, const Bitboard& want) {
    std::fprintf(stderr,
                 "attacks_bench: %s %s differs from the naive loop on square %d\noccupancy:\n%s\ngot:\n%s\n"
                 "want:\n%s\n",
                 method, what, s, occ.pretty().c_str(), got.pretty().c_str(), want.pretty().c_str());
    std::abort();
}

void verify(const std::vector<Method>& methods, const std::vector<std::pair<const char*, LanceFn>>& lances) {
    Rng rng{7};
    const int densities[] = {0, 1, 2, 4, 6, 8};
    long checked = 0;
    for (int s = 0; s < SQ_NB; ++s)
        for (int i = 0; i < 3000; ++i) {
            Bitboard occ = random_occupancy(rng, densities[i % 6]);
            if (i & 1)
                occ |= Square(s);
            Bitboard rook = naive_rook(Square(s), occ), bishop = naive_bishop(Square(s), occ);
            for (const Method& m : methods) {
                if (m.rook && m.rook(Square(s), occ) != rook)
                    fail("rook", m.name, s, occ, m.rook(Square(s), occ), rook);
                if (m.bishop && m.bishop(Square(s), occ) != bishop)
                    fail("bishop", m.name, s, occ, m.bishop(Square(s), occ), bishop);
            }
            for (int c = 0; c < COLOR_NB; ++c) {
                Bitboard lance = naive_lance(Color(c), Square(s), occ);
                for (const auto& [name, fn] : lances)
                    if (fn(Color(c), Square(s), occ) != lance)
                        fail("lance", name, s, occ, fn(Color(c), Square(s), occ), lance);
            }
            ++checked;
        }
    std::printf("verified: %zu rook/bishop and %zu lance methods agree with the naive loop on %ld (square, "
                "occupancy) pairs\n",
                methods.size(), lances.size(), checked);
}

// --- benchmarks
// Throughput: calls are independent, so the CPU overlaps them. Latency: the next call's
// occupancy depends on the previous result through a term that is always zero (bit 63 of
// word 0 and bit 63 of word 1 are never set), which serialises the calls; it adds a shift
// and an xor (about 2 cycles) to every call.

template <bool Latency, typename F>
void run(benchmark::State& state, F&& f) {
    const std::vector<Sample>& v = samples();
    unsigned i = 0;
    u64 dep = 0;
    for (auto _ : state) {
        const Sample& x = v[i];
        i = (i + 1) & (SAMPLES - 1);
        Bitboard occ = x.occ;
        if constexpr (Latency)
            occ.p[0] ^= dep;
        Bitboard r = f(x, occ);
        if constexpr (Latency)
            dep = (r.p[0] | r.p[1]) >> 63;
        benchmark::DoNotOptimize(r.p[0]);
        benchmark::DoNotOptimize(r.p[1]);
    }
    state.SetItemsProcessed(state.iterations());
}

// Direct (inlinable) calls for the timed loops: a function pointer would hide the method
// from the optimiser and add an indirect call to each of them.
#define HISHA_BM_SQUARE(name, fn)                                                          \
    void BM_##name(benchmark::State& s) {                                                  \
        run<false>(s, [](const Sample& x, const Bitboard& occ) { return fn(x.sq, occ); }); \
    }                                                                                      \
    void BM_##name##_latency(benchmark::State& s) {                                        \
        run<true>(s, [](const Sample& x, const Bitboard& occ) { return fn(x.sq, occ); });  \
    }                                                                                      \
    BENCHMARK(BM_##name);                                                                  \
    BENCHMARK(BM_##name##_latency)
#define HISHA_BM_LANCE(name, fn)                                                                \
    void BM_##name(benchmark::State& s) {                                                       \
        run<false>(s, [](const Sample& x, const Bitboard& occ) { return fn(x.c, x.sq, occ); }); \
    }                                                                                           \
    BENCHMARK(BM_##name)

HISHA_BM_SQUARE(rook_core, core_rook);
HISHA_BM_SQUARE(rook_core_nobranch, nobranch_rook);
#if defined(__BMI2__)
HISHA_BM_SQUARE(rook_pext, pext_rook);
HISHA_BM_SQUARE(rook_pext_merged, pext_merged_rook);
HISHA_BM_SQUARE(rook_pext_corefile, pext_corefile_rook);
HISHA_BM_SQUARE(rook_pext_pdep, pext_pdep_rook);
#endif
HISHA_BM_SQUARE(rook_naive, naive_rook);

HISHA_BM_SQUARE(bishop_core, core_bishop);
HISHA_BM_SQUARE(bishop_core_nobranch, nobranch_bishop);
#if defined(__BMI2__)
HISHA_BM_SQUARE(bishop_pext, pext_bishop);
HISHA_BM_SQUARE(bishop_pext_merged, pext_merged_bishop);
#endif
HISHA_BM_SQUARE(bishop_naive, naive_bishop);

HISHA_BM_LANCE(lance_core, core_lance);
HISHA_BM_LANCE(lance_core_nobranch, nobranch_lance);
HISHA_BM_LANCE(lance_file_table, table_lance);
HISHA_BM_LANCE(lance_naive, naive_lance);

}  // namespace

int main(int argc, char** argv) {
    build_file_tables();
    std::vector<Method> methods = {{"core", core_rook, core_bishop}, {"core_nobranch", nobranch_rook, nobranch_bishop}};
#if defined(__BMI2__)
    build_pext_tables();
    methods.push_back({"pext", pext_rook, pext_bishop});
    methods.push_back({"pext_merged", pext_merged_rook, pext_merged_bishop});
    methods.push_back({"pext_corefile", pext_corefile_rook, nullptr});
    methods.push_back({"pext_pdep", pext_pdep_rook, nullptr});
#else
    std::printf("pext: not compiled (no __BMI2__; build with -DHISHA_NATIVE=ON on a BMI2 CPU)\n");
#endif
    verify(methods, {{"core", core_lance}, {"core_nobranch", nobranch_lance}, {"file_table", table_lance}});
    for (int s = 0; s < SQ_NB; ++s)  // the file table alone, against the naive file rays
        for (int idx = 0; idx < 512; ++idx) {
            Bitboard occ = from_file_pattern(Square(s), u64(idx));
            Bitboard want = naive_slide(Square(s), occ, ROOK_DIRS, 2);
            if (table_file(Square(s), occ) != want)
                fail("file", "file_table", s, occ, table_file(Square(s), occ), want);
        }
    return run_benchmarks(argc, argv);
}
