// The network's file format and its integer inference, portable and AVX2.
#include "network.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HISHA_X86 1
#endif

namespace hisha::engine::nnue {

using namespace core;

// --- CPU

bool cpu_has_avx2() {
#ifdef HISHA_X86
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
#else
    return false;
#endif
}

Simd default_simd() { return cpu_has_avx2() ? Simd::Avx2 : Simd::Scalar; }

// --- CRC-32

std::uint32_t crc32(const void* data, std::size_t size, std::uint32_t crc) {
    static const auto table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    const auto* p = static_cast<const unsigned char*>(data);
    crc = ~crc;
    for (std::size_t i = 0; i < size; ++i)
        crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

// --- kernels. The generic loops are compiled twice: plainly, and inside functions built for
// AVX2, where the compiler vectorises them with 256-bit registers.

namespace {

[[gnu::always_inline]] inline void update_generic(const std::int16_t* from, std::int16_t* acc, int l1,
                                                  const std::int16_t* weights, const std::uint16_t* added, int n_added,
                                                  const std::uint16_t* removed, int n_removed) {
    // Modular int16 arithmetic (the same in every order and on every path).
    if (from != acc)
        std::memcpy(acc, from, std::size_t(l1) * sizeof(std::int16_t));
    for (int i = 0; i < n_removed; ++i) {
        const std::int16_t* w = weights + std::size_t(removed[i]) * std::size_t(l1);
        for (int j = 0; j < l1; ++j)
            acc[j] = std::int16_t(std::uint16_t(acc[j]) - std::uint16_t(w[j]));
    }
    for (int i = 0; i < n_added; ++i) {
        const std::int16_t* w = weights + std::size_t(added[i]) * std::size_t(l1);
        for (int j = 0; j < l1; ++j)
            acc[j] = std::int16_t(std::uint16_t(acc[j]) + std::uint16_t(w[j]));
    }
}

[[gnu::always_inline]] inline void clip_generic(const std::int16_t* acc, std::uint8_t* out, int n) {
    for (int j = 0; j < n; ++j)
        out[j] = std::uint8_t(std::clamp<int>(acc[j], 0, ACTIVATION_ONE));
}

// out[o] = b[o] + sum_i x[i] * w[o][i]
void affine_scalar(const std::uint8_t* x, int in, const std::int8_t* w, const std::int32_t* b, int out,
                   std::int32_t* y) {
    for (int o = 0; o < out; ++o) {
        std::int32_t s = b[o];
        const std::int8_t* row = w + std::size_t(o) * std::size_t(in);
        for (int i = 0; i < in; ++i)
            s += std::int32_t(x[i]) * std::int32_t(row[i]);
        y[o] = s;
    }
}

void update_scalar(const std::int16_t* from, std::int16_t* acc, int l1, const std::int16_t* weights,
                   const std::uint16_t* added, int n_added, const std::uint16_t* removed, int n_removed) {
    update_generic(from, acc, l1, weights, added, n_added, removed, n_removed);
}

void clip_scalar(const std::int16_t* acc, std::uint8_t* out, int n) { clip_generic(acc, out, n); }

#ifdef HISHA_X86
[[gnu::target("avx2")]] void update_avx2(const std::int16_t* from, std::int16_t* acc, int l1,
                                         const std::int16_t* weights, const std::uint16_t* added, int n_added,
                                         const std::uint16_t* removed, int n_removed) {
    update_generic(from, acc, l1, weights, added, n_added, removed, n_removed);
}

[[gnu::target("avx2")]] void clip_avx2(const std::int16_t* acc, std::uint8_t* out, int n) { clip_generic(acc, out, n); }

// `in` is a multiple of 32.
[[gnu::target("avx2")]] void affine_avx2(const std::uint8_t* x, int in, const std::int8_t* w, const std::int32_t* b,
                                         int out, std::int32_t* y) {
    const __m256i ones = _mm256_set1_epi16(1);
    for (int o = 0; o < out; ++o) {
        const std::int8_t* row = w + std::size_t(o) * std::size_t(in);
        __m256i sum = _mm256_setzero_si256();
        for (int i = 0; i < in; i += 32) {
            __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
            __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + i));
            __m256i pairs = _mm256_maddubs_epi16(xv, wv);  // x <= 127: no saturation
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(pairs, ones));
        }
        __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
        y[o] = b[o] + _mm_cvtsi128_si32(s);
    }
}
#endif

void affine(Simd simd, const std::uint8_t* x, int in, const std::int8_t* w, const std::int32_t* b, int out,
            std::int32_t* y) {
#ifdef HISHA_X86
    if (simd == Simd::Avx2)
        return affine_avx2(x, in, w, b, out, y);
#endif
    (void)simd;
    affine_scalar(x, in, w, b, out, y);
}

void clip_hidden(const std::int32_t* y, std::uint8_t* out, int n) {
    for (int j = 0; j < n; ++j)
        out[j] = std::uint8_t(std::clamp<std::int32_t>(y[j] >> WEIGHT_SHIFT, 0, ACTIVATION_ONE));
}

// --- little-endian reading and writing

template <typename T>
void put(std::string& out, T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i)
        out.push_back(char((std::uint64_t(std::make_unsigned_t<T>(v)) >> (8 * i)) & 0xff));
}

template <typename T>
void put_all(std::string& out, const std::vector<T>& v) {
    for (T x : v)
        put(out, x);
}

template <typename T>
T get(const std::string& in, std::size_t at) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        v |= std::uint64_t(static_cast<unsigned char>(in[at + i])) << (8 * i);
    return T(std::make_unsigned_t<T>(v));
}

template <typename T>
void get_all(const std::string& in, std::size_t& at, std::vector<T>& v, std::size_t n) {
    v.resize(n);
    for (std::size_t i = 0; i < n; ++i, at += sizeof(T))
        v[i] = get<T>(in, at);
}

std::size_t body_size(int l1, int l2, int l3, std::uint32_t version) {
    std::size_t linear = version >= 2 ? std::size_t(FEATURES) * 2 : 0;
    return std::size_t(l1) * 2 + std::size_t(FEATURES) * std::size_t(l1) * 2 + linear + std::size_t(l2) * 4
         + std::size_t(l2) * std::size_t(2 * l1) + std::size_t(l3) * 4 + std::size_t(l3) * std::size_t(l2) + 4
         + std::size_t(l3);
}

}  // namespace

// --- the network

std::string Network::check_sizes(int a, int b, int c) {
    auto ok = [](int n, int max) { return n >= 32 && n <= max && n % 32 == 0; };
    if (ok(a, MAX_L1) && ok(b, MAX_HIDDEN) && ok(c, MAX_HIDDEN))
        return "";
    return "layer sizes " + std::to_string(a) + "x" + std::to_string(b) + "x" + std::to_string(c)
         + " not supported (multiples of 32; L1 at most " + std::to_string(MAX_L1) + ", L2 and L3 at most "
         + std::to_string(MAX_HIDDEN) + ")";
}

Network Network::random(std::uint64_t seed, int a, int b, int c) {
    Network n;
    n.l1 = a;
    n.l2 = b;
    n.l3 = c;
    n.description = "random (seed " + std::to_string(seed) + ")";
    std::mt19937_64 rng(seed);
    auto uniform = [&](int lo, int hi) { return lo + int(rng() % std::uint64_t(hi - lo + 1)); };
    n.ft_bias.resize(std::size_t(a));
    for (auto& v : n.ft_bias)
        v = std::int16_t(uniform(-20, 60));
    n.ft_weight.resize(std::size_t(FEATURES) * std::size_t(a));
    for (auto& v : n.ft_weight)
        v = std::int16_t(uniform(-12, 12));
    n.b1.resize(std::size_t(b));
    for (auto& v : n.b1)
        v = uniform(-4000, 4000);
    n.w1.resize(std::size_t(b) * std::size_t(2 * a));
    for (auto& v : n.w1)
        v = std::int8_t(uniform(-127, 127));
    n.b2.resize(std::size_t(c));
    for (auto& v : n.b2)
        v = uniform(-4000, 4000);
    n.w2.resize(std::size_t(c) * std::size_t(b));
    for (auto& v : n.w2)
        v = std::int8_t(uniform(-127, 127));
    n.bo = uniform(-2000, 2000);
    n.psqt.resize(std::size_t(FEATURES));
    for (auto& v : n.psqt)
        v = std::int16_t(uniform(-600, 600));
    n.wo.resize(std::size_t(c));
    for (auto& v : n.wo)
        v = std::int8_t(uniform(-127, 127));
    return n;
}

std::string Network::serialise() const {
    std::string body;
    body.reserve(body_size(l1, l2, l3, FILE_VERSION));
    put_all(body, ft_bias);
    put_all(body, ft_weight);
    if (psqt.empty())
        body.append(std::size_t(FEATURES) * 2, '\0');
    else
        put_all(body, psqt);
    put_all(body, b1);
    put_all(body, w1);
    put_all(body, b2);
    put_all(body, w2);
    put(body, bo);
    put_all(body, wo);
    std::string checked = description + body;
    std::string out(FILE_MAGIC, FILE_MAGIC + 8);
    put(out, FILE_VERSION);
    put(out, FEATURE_SET_ID);
    put(out, std::uint32_t(FEATURES));
    put(out, std::uint32_t(l1));
    put(out, std::uint32_t(l2));
    put(out, std::uint32_t(l3));
    put(out, std::int32_t(eval_scale));
    put(out, std::uint32_t(description.size()));
    put(out, std::uint64_t(body.size()));
    put(out, crc32(checked.data(), checked.size()));
    out.append(std::size_t(HEADER_SIZE) - out.size(), '\0');
    return out + checked;
}

Result<Network, std::string> Network::parse(const std::string& in) {
    auto fail = [](std::string why) { return core::unexpected(std::move(why)); };
    if (in.size() < std::size_t(HEADER_SIZE))
        return fail("too short for a net file: " + std::to_string(in.size()) + " bytes, the header alone is "
                    + std::to_string(HEADER_SIZE));
    if (std::memcmp(in.data(), FILE_MAGIC, 8) != 0)
        return fail("not a Hisha net file (bytes 0-7 are not \"HISHANNU\")");
    auto version = get<std::uint32_t>(in, 8);
    if (version < 1 || version > FILE_VERSION)
        return fail("net file version " + std::to_string(version) + " (offset 8); this Hisha reads versions 1 to "
                    + std::to_string(FILE_VERSION));
    auto fs = get<std::uint32_t>(in, 12), nf = get<std::uint32_t>(in, 16);
    if (fs != FEATURE_SET_ID || nf != std::uint32_t(FEATURES))
        return fail("feature set " + std::to_string(fs) + " with " + std::to_string(nf)
                    + " features (offset 12); this Hisha has " + FEATURE_SET_NAME + " ("
                    + std::to_string(FEATURE_SET_ID) + ") with " + std::to_string(FEATURES));
    Network n;
    n.l1 = int(std::min<std::uint32_t>(get<std::uint32_t>(in, 20), 1u << 20));
    n.l2 = int(std::min<std::uint32_t>(get<std::uint32_t>(in, 24), 1u << 20));
    n.l3 = int(std::min<std::uint32_t>(get<std::uint32_t>(in, 28), 1u << 20));
    if (auto e = check_sizes(n.l1, n.l2, n.l3); !e.empty())
        return fail(e + " (offset 20)");
    n.eval_scale = get<std::int32_t>(in, 32);
    if (n.eval_scale < 1 || n.eval_scale > 100000)
        return fail("eval scale " + std::to_string(n.eval_scale) + " (offset 32) outside 1..100000");
    auto dlen = get<std::uint32_t>(in, 36);
    if (dlen > std::uint32_t(MAX_DESCRIPTION))
        return fail("description of " + std::to_string(dlen) + " bytes (offset 36); at most "
                    + std::to_string(MAX_DESCRIPTION));
    auto bsize = get<std::uint64_t>(in, 40);
    std::size_t expected_body = body_size(n.l1, n.l2, n.l3, version);
    if (bsize != expected_body)
        return fail("body size " + std::to_string(bsize) + " (offset 40) does not match layers " + std::to_string(n.l1)
                    + "x" + std::to_string(n.l2) + "x" + std::to_string(n.l3) + " (" + std::to_string(expected_body)
                    + " bytes)");
    std::size_t total = std::size_t(HEADER_SIZE) + dlen + expected_body;
    if (in.size() < total)
        return fail("truncated: the header announces " + std::to_string(total) + " bytes, the file has "
                    + std::to_string(in.size()));
    if (in.size() > total)
        return fail(std::to_string(in.size() - total) + " bytes after the end of the net (offset "
                    + std::to_string(total) + ")");
    auto crc = get<std::uint32_t>(in, 48);
    std::uint32_t actual = crc32(in.data() + HEADER_SIZE, total - HEADER_SIZE);
    if (crc != actual)
        return fail("checksum mismatch (CRC-32 in the header " + std::to_string(crc) + ", of the contents "
                    + std::to_string(actual) + "): the file is corrupt");
    n.description = in.substr(std::size_t(HEADER_SIZE), dlen);
    std::size_t at = std::size_t(HEADER_SIZE) + dlen;
    get_all(in, at, n.ft_bias, std::size_t(n.l1));
    get_all(in, at, n.ft_weight, std::size_t(FEATURES) * std::size_t(n.l1));
    if (version >= 2) {
        get_all(in, at, n.psqt, std::size_t(FEATURES));
        if (std::all_of(n.psqt.begin(), n.psqt.end(), [](std::int16_t v) { return v == 0; }))
            n.psqt.clear();  // no linear term: evaluations skip it
    }
    get_all(in, at, n.b1, std::size_t(n.l2));
    get_all(in, at, n.w1, std::size_t(n.l2) * std::size_t(2 * n.l1));
    get_all(in, at, n.b2, std::size_t(n.l3));
    get_all(in, at, n.w2, std::size_t(n.l3) * std::size_t(n.l2));
    n.bo = get<std::int32_t>(in, at);
    at += 4;
    get_all(in, at, n.wo, std::size_t(n.l3));
    // -128 would let a pair sum of the AVX2 path reach -32512 only; still clamp for symmetry.
    for (auto* w : {&n.w1, &n.w2, &n.wo})
        for (auto& v : *w)
            v = std::max<std::int8_t>(v, -127);
    return n;
}

Result<Network, std::string> Network::load(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return core::unexpected(path + ": cannot open");
    std::ostringstream ss;
    ss << f.rdbuf();
    auto r = parse(ss.str());
    if (!r)
        return core::unexpected(path + ": " + r.error());
    return r;
}

std::string Network::save(const std::string& path) const {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    std::string bytes = serialise();
    if (!f || !f.write(bytes.data(), std::streamsize(bytes.size())))
        return path + ": cannot write";
    return "";
}

void Network::refresh(const Position& pos, Color persp, std::int16_t* acc) const {
    std::uint16_t features[MAX_ACTIVE];
    int n = active_features(pos, persp, features);
    update(ft_bias.data(), acc, features, n, nullptr, 0, default_simd());
}

void Network::update(const std::int16_t* from, std::int16_t* acc, const std::uint16_t* added, int n_added,
                     const std::uint16_t* removed, int n_removed, Simd simd) const {
#ifdef HISHA_X86
    if (simd == Simd::Avx2)
        return update_avx2(from, acc, l1, ft_weight.data(), added, n_added, removed, n_removed);
#endif
    (void)simd;
    update_scalar(from, acc, l1, ft_weight.data(), added, n_added, removed, n_removed);
}

int Network::psqt_sum(const std::uint16_t* features, int n) const {
    if (psqt.empty())
        return 0;
    int s = 0;
    for (int i = 0; i < n; ++i)
        s += psqt[features[i]];
    return s;
}

int Network::psqt_update(int from, const std::uint16_t* added, int n_added, const std::uint16_t* removed,
                         int n_removed) const {
    if (psqt.empty())
        return 0;
    for (int i = 0; i < n_added; ++i)
        from += psqt[added[i]];
    for (int i = 0; i < n_removed; ++i)
        from -= psqt[removed[i]];
    return from;
}

int Network::propagate(const std::int16_t* us, const std::int16_t* them, Simd simd) const {
    alignas(64) std::uint8_t x1[2 * MAX_L1];
    alignas(64) std::int32_t y[MAX_HIDDEN];
    alignas(64) std::uint8_t x2[MAX_HIDDEN], x3[MAX_HIDDEN];
#ifdef HISHA_X86
    if (simd == Simd::Avx2) {
        clip_avx2(us, x1, l1);
        clip_avx2(them, x1 + l1, l1);
    } else
#endif
    {
        clip_scalar(us, x1, l1);
        clip_scalar(them, x1 + l1, l1);
    }
    affine(simd, x1, 2 * l1, w1.data(), b1.data(), l2, y);
    clip_hidden(y, x2, l2);
    affine(simd, x2, l2, w2.data(), b2.data(), l3, y);
    clip_hidden(y, x3, l3);
    std::int32_t out = bo;
    for (int i = 0; i < l3; ++i)
        out += std::int32_t(x3[i]) * std::int32_t(wo[i]);
    return int(std::int64_t(out) * eval_scale / OUTPUT_DIVISOR);
}

Value Network::evaluate(const Position& pos, Simd simd) const {
    std::vector<std::int16_t> acc(std::size_t(2 * l1));
    std::uint16_t features[MAX_ACTIVE];
    Color us = pos.side_to_move();
    int linear = 0;
    for (Color c : {us, ~us}) {
        int n = active_features(pos, c, features);
        update(ft_bias.data(), acc.data() + (c == us ? 0 : l1), features, n, nullptr, 0, simd);
        linear += (c == us ? 1 : -1) * psqt_sum(features, n);
    }
    int v = propagate(acc.data(), acc.data() + l1, simd) + linear;
    return std::clamp(v, -VALUE_KNOWN_WIN + 1, VALUE_KNOWN_WIN - 1);
}

}  // namespace hisha::engine::nnue
