// Every handicap start position: valid, White to move, the right pieces removed.
#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>
#include <utility>

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

namespace {
// The start position of handicap `h`.
std::unique_ptr<Position> start_of(Handicap h) { return hisha::test::position(std::string(handicap_info(h).sfen)); }
}  // namespace

TEST(Handicap, RemovedPiecesMatchTheirNames) {
    // The pieces each handicap takes off White's board (USI letters); White keeps the rest.
    struct Removed {
        Handicap handicap;
        std::string_view pieces;
    };
    for (const Removed& r : {
             Removed{Handicap::Lance, "L"},
             {Handicap::RightLance, "L"},
             {Handicap::Bishop, "B"},
             {Handicap::Rook, "R"},
             {Handicap::RookLance, "RL"},
             {Handicap::TwoPiece, "RB"},
             {Handicap::ThreePiece, "RBL"},
             {Handicap::FourPiece, "RBLL"},
             {Handicap::FivePiece, "RBLLN"},
             {Handicap::FivePieceLeft, "RBLLN"},
             {Handicap::SixPiece, "RBLLNN"},
             {Handicap::SevenPieceLeft, "RBLLNNS"},
             {Handicap::SevenPieceRight, "RBLLNNS"},
             {Handicap::EightPiece, "RBLLNNSS"},
             {Handicap::TenPiece, "RBLLNNSSGG"},
         }) {
        auto even = start_of(Handicap::Even), pos = start_of(r.handicap);
        for (auto [type, letter] : {std::pair{PAWN, 'P'},
                                    {LANCE, 'L'},
                                    {KNIGHT, 'N'},
                                    {SILVER, 'S'},
                                    {GOLD, 'G'},
                                    {BISHOP, 'B'},
                                    {ROOK, 'R'},
                                    {KING, 'K'}})
            EXPECT_EQ(pos->pieces(WHITE, type).popcount(),
                      even->pieces(WHITE, type).popcount() - std::count(r.pieces.begin(), r.pieces.end(), letter))
                << handicap_info(r.handicap).id << ": " << letter;
    }
    // Which side's lance or knight goes: the square left empty.
    for (auto [h, sq] : {std::pair{Handicap::Lance, SQ_11},
                         {Handicap::RightLance, SQ_91},
                         {Handicap::FivePiece, SQ_81},
                         {Handicap::FivePieceLeft, SQ_21}})
        EXPECT_EQ(start_of(h)->piece_on(sq), NO_PIECE) << handicap_info(h).id;
    EXPECT_EQ(start_of(Handicap::Lance)->piece_on(SQ_91), W_LANCE);  // the left lance, from White's side
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
