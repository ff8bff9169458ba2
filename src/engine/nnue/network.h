// Hisha's network: the feature transformer (KB9 features -> L1 int16 per perspective,
// incrementally updated), then two clipped-ReLU int8 layers and a linear output:
//
//   [clip(acc[side to move]), clip(acc[other])] (2 x L1, uint8 0..127)
//     -> L2 (int8 weights, int32 sums, >> 6, clip 0..127) -> L3 (likewise) -> 1 (int32)
//
// value (centipawns, side to move) = out * eval_scale / (127 * 64), rounded toward zero,
//                                   + psqt[stm] - psqt[other]
// where psqt[p] is the sum of one int16 per active feature of p (version 2 files): a linear term
// beside the layers, trained with them and started from the material values (half a piece's value
// for an own piece, minus half for an enemy one, so psqt[stm] - psqt[other] is the material
// balance). With it the layers learn what material does not say, and the value keeps changing by a
// piece's worth when a piece is won: Stockfish's nets have such a term (their "PSQT" output); without
// it Hisha's first nets rose too little with material won in tactical endgames for the search's
// cut-offs to come (NETS.md). Version 1 files have no such term (it is zero).
// Quantisation: feature weights and biases are float x 127 (int16); hidden weights float x 64
// (int8, -127..127) and biases float x 127 x 64 (int32), so an activation of 1.0 is 127 at every
// layer. The arithmetic is exact integer arithmetic: the AVX2 path and the portable one give the
// same numbers (uint8 x int8 pair sums stay below 2^15, so _mm256_maddubs_epi16 never saturates).
//
// The file format (docs/nnue.md): a 64-byte little-endian header, a description, the body.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/result.h"
#include "engine/value.h"
#include "features.h"

namespace hisha::engine::nnue {

inline constexpr char FILE_MAGIC[8] = {'H', 'I', 'S', 'H', 'A', 'N', 'N', 'U'};
inline constexpr std::uint32_t FILE_VERSION = 2;  // reads 1 (no linear term) and 2
inline constexpr int HEADER_SIZE = 64;
inline constexpr int MAX_DESCRIPTION = 4096;
inline constexpr int MAX_L1 = 2048, MAX_HIDDEN = 256;
inline constexpr int ACTIVATION_ONE = 127;  // 1.0 at every layer's output
inline constexpr int WEIGHT_SHIFT = 6;      // hidden weights are float x 64
inline constexpr int OUTPUT_DIVISOR = ACTIVATION_ONE << WEIGHT_SHIFT;

/// Which code computes the layers: chosen at run time (AVX2 when the CPU has it).
enum class Simd { Scalar, Avx2 };
bool cpu_has_avx2();
/// The code evaluations use: AVX2 when the CPU has it, else scalar (tests may pick either).
Simd default_simd();

struct Network {
    int l1 = 0, l2 = 0, l3 = 0;
    int eval_scale = 600;  // centipawns per unit of the float network's output
    std::string description;
    std::vector<std::int16_t> ft_bias;    // [l1]
    std::vector<std::int16_t> ft_weight;  // [FEATURES][l1]
    std::vector<std::int16_t> psqt;       // [FEATURES] centipawns; empty: no linear term (version 1)
    std::vector<std::int32_t> b1;         // [l2]
    std::vector<std::int8_t> w1;          // [l2][2 * l1]
    std::vector<std::int32_t> b2;         // [l3]
    std::vector<std::int8_t> w2;          // [l3][l2]
    std::int32_t bo = 0;
    std::vector<std::int8_t> wo;  // [l3]

    /// A net of the given sizes with pseudo-random weights (tests, benchmarks).
    static Network random(std::uint64_t seed, int l1 = 256, int l2 = 32, int l3 = 32);
    /// Checks sizes: multiples of 32, l1 <= MAX_L1, l2 and l3 <= MAX_HIDDEN; an error or "".
    static std::string check_sizes(int l1, int l2, int l3);

    /// The file's bytes (header, description, body).
    std::string serialise() const;
    /// Reads a net from a file's bytes; the error says what is wrong and where.
    static core::Result<Network, std::string> parse(const std::string& bytes);
    static core::Result<Network, std::string> load(const std::string& path);
    /// Writes the file; an error message or "".
    std::string save(const std::string& path) const;

    // --- inference
    /// acc = bias + the weights of every active feature of `persp`.
    void refresh(const core::Position& pos, core::Color persp, std::int16_t* acc) const;
    /// acc += weights of `added` - weights of `removed` (in place, or from `from` into acc).
    void update(const std::int16_t* from, std::int16_t* acc, const std::uint16_t* added, int n_added,
                const std::uint16_t* removed, int n_removed, Simd simd) const;
    /// The layers after the feature transformer: the value for the side to move whose
    /// accumulator is `us` (the other side's is `them`), in centipawns, before clamping.
    int propagate(const std::int16_t* us, const std::int16_t* them, Simd simd) const;
    /// The linear term of one perspective: the sum of its active features' psqt values.
    int psqt_sum(const std::uint16_t* features, int n) const;
    /// psqt_sum after the features `removed` left and `added` came (from `from`).
    int psqt_update(int from, const std::uint16_t* added, int n_added, const std::uint16_t* removed,
                    int n_removed) const;
    /// Full evaluation of a position (no incremental state), clamped like every evaluation.
    Value evaluate(const core::Position& pos, Simd simd) const;
    Value evaluate(const core::Position& pos) const { return evaluate(pos, default_simd()); }
};

/// CRC-32 (IEEE 802.3, as zlib computes it) of bytes.
std::uint32_t crc32(const void* data, std::size_t size, std::uint32_t crc = 0);

}  // namespace hisha::engine::nnue
