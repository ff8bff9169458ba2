// Bitboard: a set of the 81 squares in two 64-bit words, split 63/18 (Apery/YaneuraOu):
// word 0 holds files 1-7 (squares 0..62), word 1 files 8-9 (squares 63..80), and bit 63 of
// word 0 is never used, so every file lies inside one word and a 128-bit borrow can pass
// through the gap. Written portably; popcount/ctz come from the compiler's builtins.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>

#include "types.h"

namespace hisha::core {

struct alignas(16) Bitboard {
    std::uint64_t p[2] = {0, 0};

    static constexpr std::uint64_t MASK0 = 0x7fff'ffff'ffff'ffffULL;  // squares 0..62
    static constexpr std::uint64_t MASK1 = 0x3ffffULL;                // squares 63..80

    constexpr Bitboard() = default;
    constexpr Bitboard(std::uint64_t lo, std::uint64_t hi) : p{lo, hi} {}
    static constexpr Bitboard all() { return {MASK0, MASK1}; }
    // The word that holds square s (0 or 1) and the bit of s inside it.
    static constexpr int word_of(Square s) { return s >= 63; }
    static constexpr int bit_in_word(Square s) { return s >= 63 ? s - 63 : s; }

    // --- queries
    constexpr bool any() const { return (p[0] | p[1]) != 0; }
    constexpr bool empty() const { return (p[0] | p[1]) == 0; }
    constexpr explicit operator bool() const { return any(); }
    constexpr int popcount() const { return std::popcount(p[0]) + std::popcount(p[1]); }
    constexpr bool more_than_one() const;
    constexpr bool test(Square s) const;
    // The lowest square in the set; the set must not be empty.
    constexpr Square lsb() const {
        return p[0] ? Square(std::countr_zero(p[0])) : Square(63 + std::countr_zero(p[1]));
    }
    constexpr Square pop_lsb();

    // --- set operations (complement stays inside the 81 squares)
    constexpr Bitboard operator&(const Bitboard& b) const { return {p[0] & b.p[0], p[1] & b.p[1]}; }
    constexpr Bitboard operator|(const Bitboard& b) const { return {p[0] | b.p[0], p[1] | b.p[1]}; }
    constexpr Bitboard operator^(const Bitboard& b) const { return {p[0] ^ b.p[0], p[1] ^ b.p[1]}; }
    constexpr Bitboard operator~() const { return {~p[0] & MASK0, ~p[1] & MASK1}; }
    constexpr Bitboard& operator&=(const Bitboard& b) { p[0] &= b.p[0]; p[1] &= b.p[1]; return *this; }
    constexpr Bitboard& operator|=(const Bitboard& b) { p[0] |= b.p[0]; p[1] |= b.p[1]; return *this; }
    constexpr Bitboard& operator^=(const Bitboard& b) { p[0] ^= b.p[0]; p[1] ^= b.p[1]; return *this; }
    constexpr Bitboard andnot(const Bitboard& b) const { return {p[0] & ~b.p[0], p[1] & ~b.p[1]}; }
    constexpr bool operator==(const Bitboard&) const = default;

    // Calls f(Square) for every square in the set, lowest first.
    template <typename F>
    [[gnu::always_inline]] constexpr void for_each(F&& f) const {
        for (std::uint64_t w = p[0]; w; w &= w - 1)
            f(Square(std::countr_zero(w)));
        for (std::uint64_t w = p[1]; w; w &= w - 1)
            f(Square(63 + std::countr_zero(w)));
    }

    // Each set shifted one rank towards rank a (Black's forward) or rank i; callers keep
    // squares of the edge rank out first, so no bit crosses into another file.
    constexpr Bitboard shift_north() const { return {p[0] >> 1, p[1] >> 1}; }
    constexpr Bitboard shift_south() const { return {p[0] << 1, p[1] << 1}; }

    std::string pretty() const;  // 9x9 diagram for debugging and test failures
};

namespace detail {
constexpr std::array<Bitboard, SQ_NB + 1> make_square_table() {
    std::array<Bitboard, SQ_NB + 1> t{};
    for (int s = 0; s < SQ_NB; ++s)
        t[s] = s < 63 ? Bitboard(1ULL << s, 0) : Bitboard(0, 1ULL << (s - 63));
    return t;  // t[SQ_NONE] is empty
}
}  // namespace detail

inline constexpr std::array<Bitboard, SQ_NB + 1> SQUARE_BB = detail::make_square_table();

constexpr Bitboard square_bb(Square s) { return SQUARE_BB[s]; }
constexpr Bitboard operator&(const Bitboard& b, Square s) { return b & square_bb(s); }
constexpr Bitboard operator|(const Bitboard& b, Square s) { return b | square_bb(s); }
constexpr Bitboard operator^(const Bitboard& b, Square s) { return b ^ square_bb(s); }
constexpr Bitboard& operator|=(Bitboard& b, Square s) { return b |= square_bb(s); }
constexpr Bitboard& operator^=(Bitboard& b, Square s) { return b ^= square_bb(s); }

constexpr bool Bitboard::test(Square s) const { return (*this & s).any(); }
constexpr bool Bitboard::more_than_one() const {
    return (p[0] & (p[0] - 1)) || (p[1] & (p[1] - 1)) || (p[0] && p[1]);
}
constexpr Square Bitboard::pop_lsb() {
    if (p[0]) {
        Square s = Square(std::countr_zero(p[0]));
        p[0] &= p[0] - 1;
        return s;
    }
    Square s = Square(63 + std::countr_zero(p[1]));
    p[1] &= p[1] - 1;
    return s;
}

// --- files and ranks
namespace detail {
constexpr Bitboard file_bb(int f) {
    Bitboard b;
    for (int r = 0; r < 9; ++r)
        b |= SQUARE_BB[f * 9 + r];
    return b;
}
constexpr Bitboard rank_bb(int r) {
    Bitboard b;
    for (int f = 0; f < 9; ++f)
        b |= SQUARE_BB[f * 9 + r];
    return b;
}
}  // namespace detail

inline constexpr std::array<Bitboard, FILE_NB> FILE_BB = [] {
    std::array<Bitboard, FILE_NB> t{};
    for (int f = 0; f < 9; ++f)
        t[f] = detail::file_bb(f);
    return t;
}();
inline constexpr std::array<Bitboard, RANK_NB> RANK_BB = [] {
    std::array<Bitboard, RANK_NB> t{};
    for (int r = 0; r < 9; ++r)
        t[r] = detail::rank_bb(r);
    return t;
}();

// The promotion zone of each color, and the ranks where a piece of a color may not stay:
// the last rank (pawn, lance) and the last two (knight).
inline constexpr Bitboard ZONE_BB[COLOR_NB] = {RANK_BB[0] | RANK_BB[1] | RANK_BB[2],
                                               RANK_BB[6] | RANK_BB[7] | RANK_BB[8]};
inline constexpr Bitboard LAST_RANK_BB[COLOR_NB] = {RANK_BB[0], RANK_BB[8]};
inline constexpr Bitboard LAST_TWO_RANKS_BB[COLOR_NB] = {RANK_BB[0] | RANK_BB[1], RANK_BB[7] | RANK_BB[8]};

// Every square of each file that holds at least one square of `pawns` (for the two-pawn
// rule), without a loop over files: a file's 9-bit field gets a full mask when it is non-zero.
// Black's pawns are never on rank a and White's never on rank i, which leaves one free bit
// per field to catch the carry of an add.
namespace detail {
constexpr std::uint64_t repeat_per_field(std::uint64_t v, int fields) {
    std::uint64_t r = 0;
    for (int f = 0; f < fields; ++f)
        r |= v << (f * 9);
    return r;
}
}  // namespace detail

template <Color C>
constexpr Bitboard pawn_files(const Bitboard& pawns) {
    constexpr std::uint64_t LOW0 = detail::repeat_per_field(0xff, 7), LOW1 = detail::repeat_per_field(0xff, 2);
    constexpr std::uint64_t TOP0 = detail::repeat_per_field(0x100, 7), TOP1 = detail::repeat_per_field(0x100, 2);
    std::uint64_t a0 = C == BLACK ? pawns.p[0] >> 1 : pawns.p[0];  // each field now uses bits 0..7
    std::uint64_t a1 = C == BLACK ? pawns.p[1] >> 1 : pawns.p[1];
    std::uint64_t h0 = (a0 + LOW0) & TOP0;  // bit 8 of a field is set iff the field was non-zero
    std::uint64_t h1 = (a1 + LOW1) & TOP1;
    return {h0 | (h0 - (h0 >> 8)), h1 | (h1 - (h1 >> 8))};
}

}  // namespace hisha::core
