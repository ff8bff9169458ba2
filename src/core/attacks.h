// Attack sets of every piece. Step pieces use tables built at compile time; sliders (lance,
// bishop, rook and their promotions) are computed from per-direction rays: towards higher
// square indices the first blocker is the lowest set bit (x ^ (x - 1) across both words),
// towards lower indices it is the highest set bit. No run-time initialisation is needed.
#pragma once

#include <array>

#include "bitboard.h"

namespace hisha::core {

// Directions as seen from Black: N = towards rank a, E = towards file 1.
// Opposite directions differ in bit 0.
enum Direction : std::uint8_t { DIR_N, DIR_S, DIR_E, DIR_W, DIR_NE, DIR_SW, DIR_NW, DIR_SE, DIR_NB, DIR_NONE = DIR_NB };

namespace detail {
inline constexpr int DIR_DF[DIR_NB] = {0, 0, -1, 1, -1, 1, 1, -1};
inline constexpr int DIR_DR[DIR_NB] = {-1, 1, 0, 0, -1, 1, -1, 1};

constexpr Bitboard step_bb(int sq, const int (*steps)[2], int n, bool flip) {
    Bitboard b;
    int f = sq / 9, r = sq % 9;
    for (int i = 0; i < n; ++i) {
        int nf = f + steps[i][0], nr = r + (flip ? -steps[i][1] : steps[i][1]);
        if (nf >= 0 && nf < 9 && nr >= 0 && nr < 9)
            b |= SQUARE_BB[nf * 9 + nr];
    }
    return b;
}

// Steps for Black (rank -1 = forward); White's are mirrored in rank.
inline constexpr int PAWN_STEPS[][2] = {{0, -1}};
inline constexpr int KNIGHT_STEPS[][2] = {{-1, -2}, {1, -2}};
inline constexpr int SILVER_STEPS[][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {1, 1}};
inline constexpr int GOLD_STEPS[][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}};
inline constexpr int KING_STEPS[][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};

template <std::size_t N>
constexpr std::array<std::array<Bitboard, SQ_NB>, COLOR_NB> step_table(const int (&steps)[N][2]) {
    std::array<std::array<Bitboard, SQ_NB>, COLOR_NB> t{};
    for (int c = 0; c < 2; ++c)
        for (int s = 0; s < SQ_NB; ++s)
            t[c][s] = step_bb(s, steps, int(N), c == WHITE);
    return t;
}

constexpr std::array<std::array<Bitboard, SQ_NB>, DIR_NB> ray_table() {
    std::array<std::array<Bitboard, SQ_NB>, DIR_NB> t{};
    for (int d = 0; d < DIR_NB; ++d)
        for (int s = 0; s < SQ_NB; ++s) {
            Bitboard b;
            for (int f = s / 9 + DIR_DF[d], r = s % 9 + DIR_DR[d]; f >= 0 && f < 9 && r >= 0 && r < 9;
                 f += DIR_DF[d], r += DIR_DR[d])
                b |= SQUARE_BB[f * 9 + r];
            t[d][s] = b;
        }
    return t;
}

constexpr std::array<std::array<Direction, SQ_NB>, SQ_NB> direction_table() {
    std::array<std::array<Direction, SQ_NB>, SQ_NB> t{};
    for (int a = 0; a < SQ_NB; ++a)
        for (int b = 0; b < SQ_NB; ++b) {
            int df = b / 9 - a / 9, dr = b % 9 - a % 9;
            t[a][b] = DIR_NONE;
            if (a == b || (df != 0 && dr != 0 && df != dr && df != -dr))
                continue;
            int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
            for (int d = 0; d < DIR_NB; ++d)
                if (DIR_DF[d] == sf && DIR_DR[d] == sr)
                    t[a][b] = Direction(d);
        }
    return t;
}
}  // namespace detail

inline constexpr auto PAWN_ATTACKS = detail::step_table(detail::PAWN_STEPS);
inline constexpr auto KNIGHT_ATTACKS = detail::step_table(detail::KNIGHT_STEPS);
inline constexpr auto SILVER_ATTACKS = detail::step_table(detail::SILVER_STEPS);
inline constexpr auto GOLD_ATTACKS = detail::step_table(detail::GOLD_STEPS);
inline constexpr auto KING_ATTACKS = detail::step_table(detail::KING_STEPS)[BLACK];
// RAY[d][s]: the squares from s (exclusive) to the edge in direction d.
inline constexpr auto RAY = detail::ray_table();
// DIRECTION[a][b]: the direction from a to b when they share a line, else DIR_NONE.
inline constexpr auto DIRECTION = detail::direction_table();

constexpr Direction opposite(Direction d) { return Direction(d ^ 1); }

// --- sliding attacks
// Directions S, W, NW, SW increase the square index; N, E, NE, SE decrease it.
constexpr Bitboard ray_attack_up(const Bitboard& ray, const Bitboard& occ) {
    std::uint64_t x0 = occ.p[0] & ray.p[0], x1 = occ.p[1] & ray.p[1];
    std::uint64_t borrow = x0 == 0;  // an empty word 0 lets the search go on into word 1
    return {ray.p[0] & (x0 ^ (x0 - 1)), ray.p[1] & (x1 ^ (x1 - borrow))};
}
constexpr Bitboard ray_attack_down(const Bitboard& ray, const Bitboard& occ) {
    std::uint64_t x0 = occ.p[0] & ray.p[0], x1 = occ.p[1] & ray.p[1];
    std::uint64_t m1 = ~(std::bit_floor(x1 | 1) - 1);               // at or above the highest blocker
    std::uint64_t m0 = x1 ? 0 : ~(std::bit_floor(x0 | 1) - 1);      // a blocker in word 1 hides word 0
    return {ray.p[0] & m0, ray.p[1] & m1};
}

constexpr Bitboard lance_attacks(Color c, Square s, const Bitboard& occ) {
    return c == BLACK ? ray_attack_down(RAY[DIR_N][s], occ) : ray_attack_up(RAY[DIR_S][s], occ);
}
constexpr Bitboard rook_file_attacks(Square s, const Bitboard& occ) {
    return ray_attack_down(RAY[DIR_N][s], occ) | ray_attack_up(RAY[DIR_S][s], occ);
}
constexpr Bitboard rook_attacks(Square s, const Bitboard& occ) {
    return ray_attack_down(RAY[DIR_N][s], occ) | ray_attack_up(RAY[DIR_S][s], occ)
         | ray_attack_down(RAY[DIR_E][s], occ) | ray_attack_up(RAY[DIR_W][s], occ);
}
constexpr Bitboard bishop_attacks(Square s, const Bitboard& occ) {
    return ray_attack_down(RAY[DIR_NE][s], occ) | ray_attack_down(RAY[DIR_SE][s], occ)
         | ray_attack_up(RAY[DIR_NW][s], occ) | ray_attack_up(RAY[DIR_SW][s], occ);
}
constexpr Bitboard horse_attacks(Square s, const Bitboard& occ) { return bishop_attacks(s, occ) | KING_ATTACKS[s]; }
constexpr Bitboard dragon_attacks(Square s, const Bitboard& occ) { return rook_attacks(s, occ) | KING_ATTACKS[s]; }

// --- attacks on an empty board
inline constexpr auto ROOK_PSEUDO = [] {
    std::array<Bitboard, SQ_NB> t{};
    for (int s = 0; s < SQ_NB; ++s)
        t[s] = RAY[DIR_N][s] | RAY[DIR_S][s] | RAY[DIR_E][s] | RAY[DIR_W][s];
    return t;
}();
inline constexpr auto BISHOP_PSEUDO = [] {
    std::array<Bitboard, SQ_NB> t{};
    for (int s = 0; s < SQ_NB; ++s)
        t[s] = RAY[DIR_NE][s] | RAY[DIR_NW][s] | RAY[DIR_SE][s] | RAY[DIR_SW][s];
    return t;
}();
constexpr Bitboard lance_pseudo(Color c, Square s) { return c == BLACK ? RAY[DIR_N][s] : RAY[DIR_S][s]; }

// The attacks of piece pc standing on s, with occupancy occ.
constexpr Bitboard attacks_of(Piece pc, Square s, const Bitboard& occ) {
    Color c = color_of(pc);
    switch (type_of(pc)) {
    case PAWN: return PAWN_ATTACKS[c][s];
    case LANCE: return lance_attacks(c, s, occ);
    case KNIGHT: return KNIGHT_ATTACKS[c][s];
    case SILVER: return SILVER_ATTACKS[c][s];
    case GOLD: case PRO_PAWN: case PRO_LANCE: case PRO_KNIGHT: case PRO_SILVER: return GOLD_ATTACKS[c][s];
    case BISHOP: return bishop_attacks(s, occ);
    case ROOK: return rook_attacks(s, occ);
    case KING: return KING_ATTACKS[s];
    case HORSE: return horse_attacks(s, occ);
    case DRAGON: return dragon_attacks(s, occ);
    default: return {};
    }
}

// The squares strictly between a and b when they share a line, else empty.
constexpr Bitboard between_bb(Square a, Square b) {
    Direction d = DIRECTION[a][b];
    return d == DIR_NONE ? Bitboard() : RAY[d][a] & RAY[opposite(d)][b];
}
// True when c lies on the line through a and b (all three distinct or not).
constexpr bool aligned(Square a, Square b, Square c) {
    Direction d = DIRECTION[c][a];
    return d != DIR_NONE && (d == DIRECTION[c][b] || opposite(d) == DIRECTION[c][b]);
}

}  // namespace hisha::core
