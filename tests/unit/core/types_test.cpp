// Value types: Move encodings round-trip exhaustively, Hand packing and dominance.
#include <gtest/gtest.h>

#include "core/hand.h"
#include "core/move.h"

using namespace hisha::core;

TEST(Move, BoardMoveRoundTripsForEverySquarePairAndPiece) {
    for (int from = 0; from < SQ_NB; ++from)
        for (int to = 0; to < SQ_NB; ++to) {
            if (from == to)
                continue;
            for (int pc = 1; pc < PIECE_NB; ++pc) {
                if (type_of(Piece(pc)) == NO_PIECE_TYPE || type_of(Piece(pc)) >= PIECE_TYPE_NB)
                    continue;
                Move m = Move::make(Square(from), Square(to), Piece(pc));
                ASSERT_EQ(m.from(), from);
                ASSERT_EQ(m.to(), to);
                ASSERT_EQ(m.piece_after(), pc);
                ASSERT_FALSE(m.is_drop());
                ASSERT_FALSE(m.is_promotion());
                ASSERT_TRUE(m.is_ok());
                ASSERT_EQ(Move(m.raw()), m);
            }
            Move p = Move::make_promote(Square(from), Square(to), B_HORSE);
            ASSERT_TRUE(p.is_promotion());
            ASSERT_EQ(p.moved_type(), BISHOP);
            ASSERT_EQ(p.to_move16().raw(), std::uint16_t(p.raw()));
        }
}

TEST(Move, DropsRoundTrip) {
    for (int pt = PAWN; pt <= GOLD; ++pt)
        for (int to = 0; to < SQ_NB; ++to)
            for (Color c : {BLACK, WHITE}) {
                Move m = Move::make_drop(PieceType(pt), Square(to), c);
                ASSERT_TRUE(m.is_drop());
                ASSERT_TRUE(m.is_ok());
                ASSERT_EQ(m.dropped_piece(), pt);
                ASSERT_EQ(m.to(), to);
                ASSERT_EQ(m.piece_after(), make_piece(c, PieceType(pt)));
            }
}

TEST(Move, SentinelsAreNotMoves) {
    for (Move m : {Move::none(), Move::null(), Move::resign(), Move::win()}) {
        EXPECT_FALSE(m.is_ok());
        EXPECT_EQ(m.from(), m.to());
    }
    EXPECT_EQ(to_usi(Move::resign()), "resign");
    EXPECT_EQ(to_usi(Move::win()), "win");
    EXPECT_EQ(to_usi(Move::make_drop(PAWN, SQ_55, BLACK)), "P*5e");
    EXPECT_EQ(to_usi(Move::make_promote(SQ_24, SQ_23, B_PRO_PAWN)), "2d2c+");
    EXPECT_EQ(to_usi(Move::make(SQ_77, SQ_76, B_PAWN)), "7g7f");
}

TEST(Hand, CountsAddRemove) {
    Hand h;
    EXPECT_TRUE(h.empty());
    for (int pt = PAWN; pt <= GOLD; ++pt)
        for (int n = 0; n < Hand::MAX[pt]; ++n)
            h.add(PieceType(pt));
    for (int pt = PAWN; pt <= GOLD; ++pt)
        EXPECT_EQ(h.count(PieceType(pt)), Hand::MAX[pt]);
    EXPECT_EQ(h.total(), 18 + 4 * 4 + 2 * 2 + 4 - 4);
    h.remove(ROOK);
    EXPECT_EQ(h.count(ROOK), 1);
    EXPECT_EQ(h.count(BISHOP), 2);
}

TEST(Hand, DominanceIsFieldwise) {
    Hand a, b;
    a.set(PAWN, 3);
    a.set(GOLD, 1);
    b.set(PAWN, 2);
    EXPECT_TRUE(a.dominates(b));
    EXPECT_FALSE(b.dominates(a));
    b.set(ROOK, 1);
    EXPECT_FALSE(a.dominates(b));  // a has no rook
    EXPECT_FALSE(b.dominates(a));  // b has no gold and fewer pawns
    EXPECT_TRUE(a.dominates(a));
    // Exhaustive over two fields: dominance equals the field-by-field comparison.
    for (int p1 = 0; p1 <= 18; ++p1)
        for (int p2 = 0; p2 <= 18; ++p2)
            for (int r1 = 0; r1 <= 2; ++r1)
                for (int r2 = 0; r2 <= 2; ++r2) {
                    Hand x, y;
                    x.set(PAWN, p1), x.set(ROOK, r1), y.set(PAWN, p2), y.set(ROOK, r2);
                    ASSERT_EQ(x.dominates(y), p1 >= p2 && r1 >= r2);
                }
}
