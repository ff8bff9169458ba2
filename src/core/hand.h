// Hand: the pieces a player holds, packed in one uint32_t with a guard bit after each field.
// Adding or removing a piece is one add or subtract; dominates() compares two hands field by
// field with a single subtraction (a borrow lands in a guard bit).
#pragma once

#include "types.h"

namespace hisha::core {

// Bit layout (guard bits marked g):
//   0-4 pawn (0..18) g5 | 6-8 lance g9 | 10-12 knight g13 | 14-16 silver g17 |
//   18-20 gold g21 | 22-23 bishop g24 | 25-26 rook g27
class Hand {
public:
    constexpr Hand() = default;
    constexpr explicit Hand(std::uint32_t raw) : raw_(raw) {}

    constexpr std::uint32_t raw() const { return raw_; }
    constexpr int count(PieceType pt) const { return int((raw_ >> SHIFT[pt]) & MASK[pt]); }
    constexpr bool has(PieceType pt) const { return (raw_ & (MASK[pt] << SHIFT[pt])) != 0; }
    constexpr void add(PieceType pt, int n = 1) { raw_ += std::uint32_t(n) << SHIFT[pt]; }
    constexpr void remove(PieceType pt, int n = 1) { raw_ -= std::uint32_t(n) << SHIFT[pt]; }
    constexpr void set(PieceType pt, int n) {
        raw_ = (raw_ & ~(MASK[pt] << SHIFT[pt])) | (std::uint32_t(n) << SHIFT[pt]);
    }
    constexpr bool empty() const { return raw_ == 0; }
    // True when every piece count of *this is at least that of other.
    constexpr bool dominates(Hand other) const { return ((raw_ - other.raw_) & BORROW_MASK) == 0; }
    // True when the hand holds some piece other than pawns (drop generation shortcut).
    constexpr bool has_except_pawn() const { return (raw_ & ~PAWN_FIELD) != 0; }
    int total() const;

    constexpr bool operator==(const Hand&) const = default;

    static constexpr int SHIFT[HAND_TYPE_NB] = {0, 0, 6, 10, 14, 22, 25, 18};
    static constexpr std::uint32_t MASK[HAND_TYPE_NB] = {0, 31, 7, 7, 7, 3, 3, 7};
    static constexpr int MAX[HAND_TYPE_NB] = {0, 18, 4, 4, 4, 2, 2, 4};
    static constexpr std::uint32_t BORROW_MASK =
        (1u << 5) | (1u << 9) | (1u << 13) | (1u << 17) | (1u << 21) | (1u << 24) | (1u << 27);
    static constexpr std::uint32_t PAWN_FIELD = 31;

private:
    std::uint32_t raw_ = 0;
};

static_assert(sizeof(Hand) == 4);

inline int Hand::total() const {
    int n = 0;
    for (int pt = PAWN; pt <= GOLD; ++pt)
        n += count(PieceType(pt));
    return n;
}

// Hand pieces in the canonical SFEN output order: rook, bishop, gold, silver, knight, lance, pawn.
constexpr PieceType HAND_ORDER[7] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN};

}  // namespace hisha::core
