// Game-ending rules: impasse counting, entering-king declaration, sennichite verdicts.
#include "rules.h"

#include "movegen.h"

namespace hisha::core {

int impasse_points(const Position& pos, Color c) {
    int pts = 0;
    pos.pieces(c).for_each([&](Square s) { pts += impasse_value(type_of(pos.piece_on(s))); });
    Hand h = pos.hand(c);
    for (int pt = PAWN; pt <= GOLD; ++pt)
        pts += h.count(PieceType(pt)) * impasse_value(PieceType(pt));
    return pts;
}

const char* describe(DeclarationFailure f) {
    switch (f) {
    case DeclarationFailure::None: return "the declaration holds";
    case DeclarationFailure::GameOver: return "the game is over";
    case DeclarationFailure::NoKing: return "there is no king to declare with";
    case DeclarationFailure::KingNotInZone: return "the king has not entered the promotion zone";
    case DeclarationFailure::InCheck: return "the king is in check";
    case DeclarationFailure::TooFewPiecesInZone: return "fewer than 10 other pieces in the promotion zone";
    case DeclarationFailure::TooFewPoints: return "not enough points (28 for Black, 27 for White)";
    }
    return "";
}

DeclarationCheck check_declaration(const Position& pos, int white_credit) {
    DeclarationCheck r;
    Color us = pos.side_to_move();
    Square k = pos.king_square(us);
    r.required = us == BLACK ? 28 : 27;
    // Most positions fail the first test; answer them without counting (the search asks at
    // every node).
    if (k == SQ_NONE || !in_zone(us, k)) {
        r.failure = k == SQ_NONE ? DeclarationFailure::NoKing : DeclarationFailure::KingNotInZone;
        return r;
    }
    Bitboard zone_pieces = pos.pieces(us) & ZONE_BB[us];
    if (k != SQ_NONE)
        zone_pieces ^= k;
    r.pieces_in_zone = zone_pieces.popcount();
    zone_pieces.for_each([&](Square s) { r.points += impasse_value(type_of(pos.piece_on(s))); });
    Hand h = pos.hand(us);
    for (int pt = PAWN; pt <= GOLD; ++pt)
        r.points += h.count(PieceType(pt)) * impasse_value(PieceType(pt));
    if (us == WHITE)
        r.points += white_credit;
    if (k == SQ_NONE)
        r.failure = DeclarationFailure::NoKing;
    else if (!in_zone(us, k))
        r.failure = DeclarationFailure::KingNotInZone;
    else if (pos.in_check())
        r.failure = DeclarationFailure::InCheck;
    else if (r.pieces_in_zone < 10)
        r.failure = DeclarationFailure::TooFewPiecesInZone;
    else if (r.points < r.required)
        r.failure = DeclarationFailure::TooFewPoints;
    return r;
}

ImpasseCount count_impasse(const Position& pos, int white_credit) {
    ImpasseCount c;
    c.points[BLACK] = impasse_points(pos, BLACK);
    c.points[WHITE] = impasse_points(pos, WHITE) + white_credit;
    return c;
}

bool both_kings_entered(const Position& pos) {
    Square b = pos.king_square(BLACK), w = pos.king_square(WHITE);
    return b != SQ_NONE && w != SQ_NONE && in_zone(BLACK, b) && in_zone(WHITE, w);
}

Repetition judge_repetition(const Position& pos, int occurrences) {
    RepetitionInfo info = pos.repetition_info();
    if (info.count + 1 < occurrences)
        return Repetition::None;
    // The cycle runs from the earliest of the counted occurrences to now. A side whose every
    // move in it gave check loses; its moves in the cycle number half the distance.
    int span = occurrences >= 2 ? info.first_distance : 0;
    if (info.count + 1 > occurrences) {
        // More occurrences than needed (a history set up past the end): count the last ones.
        span = 0;
        int seen = 0;
        Key k = pos.key();
        const StateInfo* s = pos.state();
        for (int d = 2; s->previous && s->previous->previous; d += 2) {
            s = s->previous->previous;
            if (s->key() == k && ++seen == occurrences - 1) {
                span = d;
                break;
            }
        }
    }
    const StateInfo* st = pos.state();
    Color mover = ~pos.side_to_move();
    for (Color c : {mover, ~mover})
        if (st->continuous_check[c] * 2 >= span)
            return c == BLACK ? Repetition::BlackLoses : Repetition::WhiteLoses;
    return Repetition::Draw;
}

bool is_checkmate(const Position& pos) { return pos.in_check() && !has_legal_move(pos); }

}  // namespace hisha::core
