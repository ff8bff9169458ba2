// Basic value types of the rules core: Color, PieceType, Piece, Square, Key.
// Squares are file-major (SQ_11 = 0 ... SQ_99 = 80, sq = (file-1)*9 + (rank-1)); ranks a..i
// are 0..8 and Black moves towards rank a. Everything here is constexpr and header-only.
#pragma once

#include <cstdint>
#include <string>

namespace hisha::core {

using Key = std::uint64_t;

// --- Color
enum Color : std::uint8_t { BLACK = 0, WHITE = 1, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

// --- PieceType: unpromoted 1..8, promoted = unpromoted + 8 (gold and king never promote)
enum PieceType : std::uint8_t {
    NO_PIECE_TYPE = 0,
    PAWN = 1, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD, KING,
    PRO_PAWN = 9, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, HORSE, DRAGON,
    PIECE_TYPE_NB = 15,
    HAND_TYPE_NB = 8,  // PAWN..GOLD can be held in hand
    PROMOTE_BIT = 8,
};

constexpr bool can_promote(PieceType pt) { return pt >= PAWN && pt <= ROOK; }
constexpr bool is_promoted(PieceType pt) { return pt >= PRO_PAWN; }
constexpr PieceType promote(PieceType pt) { return PieceType(pt | PROMOTE_BIT); }
// The piece a captured piece becomes in hand (promotion dropped, king stays king).
constexpr PieceType unpromote(PieceType pt) { return pt == KING ? KING : PieceType(pt & 7); }
constexpr bool is_slider(PieceType pt) {
    return pt == LANCE || pt == BISHOP || pt == ROOK || pt == HORSE || pt == DRAGON;
}
// Moves like a gold: gold and the four promoted minor pieces.
constexpr bool moves_like_gold(PieceType pt) { return pt == GOLD || (pt >= PRO_PAWN && pt <= PRO_SILVER); }

// --- Piece: bits 0-3 type, bit 4 color (W_PAWN = 17)
enum Piece : std::uint8_t {
    NO_PIECE = 0,
    B_PAWN = 1, B_LANCE, B_KNIGHT, B_SILVER, B_BISHOP, B_ROOK, B_GOLD, B_KING,
    B_PRO_PAWN, B_PRO_LANCE, B_PRO_KNIGHT, B_PRO_SILVER, B_HORSE, B_DRAGON,
    W_PAWN = 17, W_LANCE, W_KNIGHT, W_SILVER, W_BISHOP, W_ROOK, W_GOLD, W_KING,
    W_PRO_PAWN, W_PRO_LANCE, W_PRO_KNIGHT, W_PRO_SILVER, W_HORSE, W_DRAGON,
    PIECE_NB = 32,
};

constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 4) | pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 15); }
constexpr Color color_of(Piece p) { return Color(p >> 4); }
constexpr Piece promote(Piece pc) { return Piece(pc | 8); }
constexpr Piece demote(Piece pc) { return Piece(pc & ~8); }  // a promoted piece back to its base

// --- Square
enum Square : std::uint8_t {
    SQ_11 = 0, SQ_12, SQ_13, SQ_14, SQ_15, SQ_16, SQ_17, SQ_18, SQ_19,
    SQ_21, SQ_22, SQ_23, SQ_24, SQ_25, SQ_26, SQ_27, SQ_28, SQ_29,
    SQ_31, SQ_32, SQ_33, SQ_34, SQ_35, SQ_36, SQ_37, SQ_38, SQ_39,
    SQ_41, SQ_42, SQ_43, SQ_44, SQ_45, SQ_46, SQ_47, SQ_48, SQ_49,
    SQ_51, SQ_52, SQ_53, SQ_54, SQ_55, SQ_56, SQ_57, SQ_58, SQ_59,
    SQ_61, SQ_62, SQ_63, SQ_64, SQ_65, SQ_66, SQ_67, SQ_68, SQ_69,
    SQ_71, SQ_72, SQ_73, SQ_74, SQ_75, SQ_76, SQ_77, SQ_78, SQ_79,
    SQ_81, SQ_82, SQ_83, SQ_84, SQ_85, SQ_86, SQ_87, SQ_88, SQ_89,
    SQ_91, SQ_92, SQ_93, SQ_94, SQ_95, SQ_96, SQ_97, SQ_98, SQ_99,
    SQ_NB = 81,
    SQ_NONE = 81,
};

// File 0..8 means file 1..9; Rank 0..8 means rank a..i (1..9 in Japanese notation).
enum File : std::uint8_t { FILE_1, FILE_2, FILE_3, FILE_4, FILE_5, FILE_6, FILE_7, FILE_8, FILE_9, FILE_NB };
enum Rank : std::uint8_t { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8, RANK_9, RANK_NB };

constexpr Square make_square(File f, Rank r) { return Square(f * 9 + r); }
constexpr File file_of(Square s) { return File(s / 9); }
constexpr Rank rank_of(Square s) { return Rank(s % 9); }
constexpr bool is_ok(Square s) { return s < SQ_NB; }

// Rank as seen by color c (Black's rank 1 is White's rank 9).
constexpr Rank relative_rank(Color c, Rank r) { return c == BLACK ? r : Rank(8 - r); }
// True when rank r is in the promotion zone of color c (the three far ranks).
constexpr bool in_zone(Color c, Rank r) { return relative_rank(c, r) <= RANK_3; }
constexpr bool in_zone(Color c, Square s) { return in_zone(c, rank_of(s)); }

// Squares step by ±1 along a file (rank changes) and by ±9 across files.
constexpr int DELTA_N = -1, DELTA_S = 1, DELTA_E = -9, DELTA_W = 9;  // seen from Black: N = towards rank a

inline Square& operator++(Square& s) { return s = Square(s + 1); }
inline File& operator++(File& f) { return f = File(f + 1); }
inline Rank& operator++(Rank& r) { return r = Rank(r + 1); }

// "7g" (USI/SFEN and Western) and "76" (Japanese digits) forms of a square.
inline std::string square_to_usi(Square s) {
    return std::string{char('1' + file_of(s)), char('a' + rank_of(s))};
}

}  // namespace hisha::core
