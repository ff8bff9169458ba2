// The rules that end a game, on top of move legality: checkmate and "no legal move",
// sennichite (fourfold repetition, perpetual check loses), the entering-king declaration
// (CSA 27-point rule) and the 24-point impasse count of the seeds.
#pragma once

#include "position.h"

namespace hisha::core {

/// Impasse points of a piece type: rook and bishop (promoted or not) 5, king 0, others 1.
constexpr int impasse_value(PieceType pt) {
    PieceType b = unpromote(pt);
    return b == KING ? 0 : (b == ROOK || b == BISHOP) ? 5 : 1;
}

/// Points of color c over its pieces on the board and in hand (promotion disregarded).
int impasse_points(const Position& pos, Color c);

/// Why an entering-king declaration does not hold (CSA 27-point rule).
enum class DeclarationFailure {
    None,
    GameOver,
    NoKing,
    KingNotInZone,
    InCheck,
    TooFewPiecesInZone,  // fewer than 10 pieces other than the king in the zone
    TooFewPoints,        // 28 for Black, 27 for White (pieces in the zone and in hand)
};

struct DeclarationCheck {
    DeclarationFailure failure = DeclarationFailure::None;
    int pieces_in_zone = 0;  // the declarer's pieces in the zone, king excluded
    int points = 0;          // zone pieces plus hand, R/B 5, others 1 (plus any handicap credit)
    int required = 0;
    bool ok() const { return failure == DeclarationFailure::None; }
};

/// Judges a declaration by the side to move under the CSA 27-point rule. `white_credit`
/// adds points to White (the pieces removed in a handicap game).
DeclarationCheck check_declaration(const Position& pos, int white_credit = 0);
const char* describe(DeclarationFailure f);

/// The 24-point count: each side's impasse points (White with `white_credit`). Both at
/// least 24 is a draw; otherwise the side below 24 loses.
struct ImpasseCount {
    int points[COLOR_NB] = {0, 0};
    bool draw() const { return points[BLACK] >= 24 && points[WHITE] >= 24; }
    Color loser() const { return points[BLACK] < 24 ? BLACK : WHITE; }  // when !draw()
};
ImpasseCount count_impasse(const Position& pos, int white_credit = 0);

/// True when both kings stand in their promotion zones (both have "entered").
bool both_kings_entered(const Position& pos);

/// The verdict of a repetition at the current position.
enum class Repetition {
    None,
    Draw,        // sennichite: the fourth occurrence, no perpetual check
    BlackLoses,  // Black gave check with every move of the cycle
    WhiteLoses,
};

/// Sennichite: the same position (board, hands, side to move) for the fourth time.
inline constexpr int SENNICHITE_OCCURRENCES = 4;

/// Judges sennichite at the current position from the whole history: the same board, hands
/// and side to move for the `occurrences`-th time (4 by the rules; search uses 2).
Repetition judge_repetition(const Position& pos, int occurrences = SENNICHITE_OCCURRENCES);

/// True when the side to move is checkmated (in check with no legal move).
bool is_checkmate(const Position& pos);

}  // namespace hisha::core
