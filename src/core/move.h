// Move: a 32-bit value type. The low 16 bits (Move16) are enough to name a move in a known
// position (TT, book, records); the high bits carry the piece after the move so that the
// engine never has to look it up.
#pragma once

#include <string>

#include "types.h"

namespace hisha::core {

// Bit layout:
//   0-6   to square
//   7-13  from square, or the dropped PieceType for a drop
//   14    drop flag
//   15    promotion flag
//   16-20 the Piece standing on `to` after the move (promoted if promoting)
// Sentinels have from == to: none (0), null (1/1), resign (2/2), win (3/3, entering-king declaration).
class Move16 {
public:
    constexpr Move16() = default;
    constexpr explicit Move16(std::uint16_t raw) : raw_(raw) {}
    constexpr std::uint16_t raw() const { return raw_; }
    constexpr bool operator==(const Move16&) const = default;

private:
    std::uint16_t raw_ = 0;
};

class Move {
public:
    static constexpr std::uint32_t DROP_FLAG = 1u << 14;
    static constexpr std::uint32_t PROMOTE_FLAG = 1u << 15;

    constexpr Move() = default;
    constexpr explicit Move(std::uint32_t raw) : raw_(raw) {}

    static constexpr Move make(Square from, Square to, Piece after) {
        return Move(std::uint32_t(to) | (std::uint32_t(from) << 7) | (std::uint32_t(after) << 16));
    }
    static constexpr Move make_promote(Square from, Square to, Piece after_promoted) {
        return Move(std::uint32_t(to) | (std::uint32_t(from) << 7) | PROMOTE_FLAG
                    | (std::uint32_t(after_promoted) << 16));
    }
    static constexpr Move make_drop(PieceType pt, Square to, Color c) {
        return Move(std::uint32_t(to) | (std::uint32_t(pt) << 7) | DROP_FLAG
                    | (std::uint32_t(make_piece(c, pt)) << 16));
    }
    static constexpr Move none() { return Move(0); }
    static constexpr Move null() { return Move(1 | (1 << 7)); }
    static constexpr Move resign() { return Move(2 | (2 << 7)); }
    static constexpr Move win() { return Move(3 | (3 << 7)); }

    constexpr Square to() const { return Square(raw_ & 0x7f); }
    constexpr Square from() const { return Square((raw_ >> 7) & 0x7f); }
    constexpr bool is_drop() const { return raw_ & DROP_FLAG; }
    constexpr bool is_promotion() const { return raw_ & PROMOTE_FLAG; }
    constexpr PieceType dropped_piece() const { return PieceType((raw_ >> 7) & 0x7f); }
    constexpr Piece piece_after() const { return Piece((raw_ >> 16) & 0x1f); }
    // The piece type that moves (before promotion), for drops the dropped type.
    constexpr PieceType moved_type() const {
        PieceType pt = type_of(piece_after());
        return is_promotion() ? PieceType(pt & 7) : pt;
    }
    // A real move (not none/null/resign/win).
    constexpr bool is_ok() const { return from() != to() || is_drop(); }
    constexpr bool is_special() const { return !is_ok(); }

    constexpr std::uint32_t raw() const { return raw_; }
    constexpr Move16 to_move16() const { return Move16(std::uint16_t(raw_)); }
    constexpr bool operator==(const Move&) const = default;
    constexpr explicit operator bool() const { return raw_ != 0; }

private:
    std::uint32_t raw_ = 0;
};

static_assert(sizeof(Move) == 4);
static_assert(sizeof(Move16) == 2);

// A move with a sort score for move ordering; implicit conversions are deleted so a scored
// move cannot be compared or stored as a plain number by accident.
struct ScoredMove {
    Move move;
    int score;

    operator float() const = delete;
    operator int() const = delete;
};

// The most legal moves known in a real position is 593. Relaxed positions (other piece mixes,
// at most 40 pieces) can exceed that: 1024 bounds them (at most 7 drop kinds on 79 squares,
// plus the moves of the rest of the 38 pieces).
constexpr int MAX_MOVES = 1024;

}  // namespace hisha::core

namespace hisha::core {

/// The USI form of a move: "7g7f", "2d2c+", "P*5e"; "resign", "win", "0000" (null) for sentinels.
inline std::string to_usi(Move m) {
    if (m == Move::resign())
        return "resign";
    if (m == Move::win())
        return "win";
    if (!m.is_ok())
        return "0000";
    if (m.is_drop())
        return std::string{" PLNSBRG"[m.dropped_piece()], '*'} + square_to_usi(m.to());
    return square_to_usi(m.from()) + square_to_usi(m.to()) + (m.is_promotion() ? "+" : "");
}

}  // namespace hisha::core
