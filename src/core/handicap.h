// Handicaps: the standard start positions in which White (the stronger player) gives up
// pieces and moves first, with their English and Japanese names, and the points the removed
// pieces are worth in an impasse count (White is credited with them).
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace hisha::core {

enum class Handicap {
    Even,
    Lance,            // 香落ち: White's left lance (1a)
    RightLance,       // 右香落ち: 9a
    Bishop,           // 角落ち
    Rook,             // 飛車落ち
    RookLance,        // 飛香落ち
    TwoPiece,         // 二枚落ち: rook and bishop
    ThreePiece,       // 三枚落ち: two-piece and the left lance
    FourPiece,        // 四枚落ち: two-piece and both lances
    FivePiece,        // 五枚落ち (right five): four-piece and the right knight (8a)
    FivePieceLeft,    // 左五枚落ち: four-piece and the left knight (2a)
    SixPiece,         // 六枚落ち: four-piece and both knights
    SevenPieceLeft,   // 左七枚落ち: six-piece and the left silver (3a)
    SevenPieceRight,  // 右七枚落ち: six-piece and the right silver (7a)
    EightPiece,       // 八枚落ち: six-piece and both silvers
    TenPiece,         // 十枚落ち: eight-piece and both golds
    ThreePawns,       // 歩三兵: White has only the king and three pawns in hand
};

struct HandicapInfo {
    Handicap handicap;
    std::string_view id;        // "lance", "2-piece", ...: stable, used in files and protocols
    std::string_view english;   // "Left lance"
    std::string_view japanese;  // "香落ち" (the KIF 手合割 name)
    std::string_view sfen;
    int removed_points;         // impasse points of the pieces White gave up (R/B 5, others 1)
};

/// Every handicap, from the even game to the largest.
std::span<const HandicapInfo> all_handicaps();
const HandicapInfo& handicap_info(Handicap h);
/// Looks a handicap up by id, English or Japanese name (case, spaces and '-' ignored;
/// "two piece", "2-piece", "2枚落ち", "二枚落ち" all work).
std::optional<Handicap> handicap_from_name(std::string_view name);
/// The handicap whose start position this is (board, hands and side compared; the move
/// number is ignored).
std::optional<Handicap> handicap_from_sfen(std::string_view sfen);

}  // namespace hisha::core
