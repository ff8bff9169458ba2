// Every handicap start position: valid, White to move, the right pieces removed.
#include <gtest/gtest.h>

#include "core/handicap.h"
#include "core/rules.h"
#include "test_util.h"

using namespace hisha::core;

TEST(Handicap, EveryStartPositionIsValidWithWhiteToMove) {
    for (const HandicapInfo& h : all_handicaps()) {
        auto pos = hisha::test::position(std::string(h.sfen));
        EXPECT_EQ(pos->side_to_move(), h.handicap == Handicap::Even ? BLACK : WHITE) << h.id;
        EXPECT_EQ(pos->sfen(), h.sfen) << h.id;
        // Black always has the full army; White's removed pieces are worth removed_points.
        EXPECT_EQ(impasse_points(*pos, BLACK), 27) << h.id;
        EXPECT_EQ(impasse_points(*pos, WHITE) + h.removed_points, 27) << h.id;
        EXPECT_FALSE(pos->in_check());
    }
}

TEST(Handicap, RemovedPiecesMatchTheirNames) {
    auto count = [](Handicap h, PieceType pt) {
        auto pos = hisha::test::position(std::string(handicap_info(h).sfen));
        return pos->pieces(WHITE, pt).popcount();
    };
    EXPECT_EQ(count(Handicap::Lance, LANCE), 1);
    auto lance = hisha::test::position(std::string(handicap_info(Handicap::Lance).sfen));
    EXPECT_EQ(lance->piece_on(SQ_11), NO_PIECE);  // the left lance, from White's side
    EXPECT_EQ(lance->piece_on(SQ_91), W_LANCE);
    auto right = hisha::test::position(std::string(handicap_info(Handicap::RightLance).sfen));
    EXPECT_EQ(right->piece_on(SQ_91), NO_PIECE);
    EXPECT_EQ(count(Handicap::Bishop, BISHOP), 0);
    EXPECT_EQ(count(Handicap::Bishop, ROOK), 1);
    EXPECT_EQ(count(Handicap::Rook, ROOK), 0);
    EXPECT_EQ(count(Handicap::RookLance, LANCE), 1);
    EXPECT_EQ(count(Handicap::TwoPiece, ROOK) + count(Handicap::TwoPiece, BISHOP), 0);
    EXPECT_EQ(count(Handicap::FourPiece, LANCE), 0);
    EXPECT_EQ(count(Handicap::FivePiece, KNIGHT), 1);
    auto five = hisha::test::position(std::string(handicap_info(Handicap::FivePiece).sfen));
    EXPECT_EQ(five->piece_on(SQ_81), NO_PIECE);
    auto five_left = hisha::test::position(std::string(handicap_info(Handicap::FivePieceLeft).sfen));
    EXPECT_EQ(five_left->piece_on(SQ_21), NO_PIECE);
    EXPECT_EQ(count(Handicap::SixPiece, KNIGHT), 0);
    EXPECT_EQ(count(Handicap::EightPiece, SILVER), 0);
    EXPECT_EQ(count(Handicap::TenPiece, GOLD), 0);
    EXPECT_EQ(count(Handicap::TenPiece, PAWN), 9);
    EXPECT_EQ(count(Handicap::TenPiece, KING), 1);
}

TEST(Handicap, NamesAndSfensLookUp) {
    for (const HandicapInfo& h : all_handicaps()) {
        EXPECT_EQ(handicap_from_name(h.id), h.handicap) << h.id;
        EXPECT_EQ(handicap_from_name(h.english), h.handicap) << h.english;
        EXPECT_EQ(handicap_from_name(h.japanese), h.handicap) << h.id;
        EXPECT_EQ(handicap_from_sfen(h.sfen), h.handicap) << h.id;
    }
    EXPECT_EQ(handicap_from_name("Two Piece"), Handicap::TwoPiece);
    EXPECT_EQ(handicap_from_name("ROOK AND LANCE"), Handicap::RookLance);
    EXPECT_EQ(handicap_from_name("2枚落ち"), Handicap::TwoPiece);
    EXPECT_FALSE(handicap_from_name("queen").has_value());
    EXPECT_FALSE(handicap_from_name("").has_value());
    EXPECT_EQ(handicap_from_sfen("startpos"), Handicap::Even);
    EXPECT_EQ(handicap_from_sfen("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 7"), Handicap::Bishop);
    EXPECT_FALSE(handicap_from_sfen("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").has_value());
}
