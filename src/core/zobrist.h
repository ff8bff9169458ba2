// Zobrist keys. The board key XORs one key per (piece, square) and holds the side to move in
// bit 0; the hand key ADDS one key per piece held, so a hand's key is the sum over its counts
// and the full key is board_key ^ hand_key. Keys are generated at compile time from a fixed
// seed, so they are the same in every build (book and experience files rely on it).
#pragma once

#include <array>

#include "types.h"

namespace hisha::core::zobrist {

namespace detail {
constexpr std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
struct Tables {
    std::array<std::array<Key, SQ_NB>, PIECE_NB> psq{};
    std::array<std::array<Key, HAND_TYPE_NB>, COLOR_NB> hand{};
};
constexpr Tables make_tables() {
    Tables t;
    std::uint64_t state = 0x48495348'41ULL;  // "HISHA"
    for (auto& row : t.psq)
        for (auto& k : row)
            k = splitmix(state) & ~1ULL;  // bit 0 is the side to move
    for (auto& row : t.hand)
        for (auto& k : row)
            k = splitmix(state) & ~1ULL;
    return t;
}
inline constexpr Tables TABLES = make_tables();
}  // namespace detail

inline constexpr Key SIDE = 1;

constexpr Key psq(Piece pc, Square s) { return detail::TABLES.psq[pc][s]; }
constexpr Key hand(Color c, PieceType pt) { return detail::TABLES.hand[c][pt]; }

}  // namespace hisha::core::zobrist
