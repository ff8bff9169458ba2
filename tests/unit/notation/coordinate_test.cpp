// GNU Shogi's move notation: every input form, promotion choice, ambiguity with candidates,
// every error path with its column, and round trips over all legal moves.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/movegen.h"
#include "move_errors.h"
#include "notation/coordinate.h"
#include "test_files.h"
#include "test_positions.h"

using namespace hisha;
using namespace hisha::notation;

namespace {
using hisha::testing::pos_of;

std::string usi_of(const core::Result<core::Move, MoveInputError>& r) {
    return r ? core::to_usi(*r) : "error: " + r.error().to_string();
}

// A Black pawn on 2d that may promote on 2c, a pawn on 1b that must, a tokin on 4c.
const char* PROMO = "4k4/8P/5+P3/7P1/9/9/9/9/4K4 b P 1";

}  // namespace

TEST(Coordinate, ReadsEveryGnuShogiForm) {
    core::Position start;
    EXPECT_EQ(usi_of(parse_coordinate(start, "7g7f")), "7g7f");
    EXPECT_EQ(usi_of(parse_coordinate(start, "P7f")), "7g7f");
    EXPECT_EQ(usi_of(parse_coordinate(start, "Pg7f")), "7g7f");
    EXPECT_EQ(usi_of(parse_coordinate(start, "P77f")), "7g7f");
    EXPECT_EQ(usi_of(parse_coordinate(start, "P7g7f")), "7g7f");
    EXPECT_EQ(usi_of(parse_coordinate(start, "S4h")), "3i4h");
    EXPECT_EQ(usi_of(parse_coordinate(start, "G4i5h")), "4i5h");
    EXPECT_EQ(usi_of(parse_coordinate(start, "G45h")), "4i5h");
    EXPECT_EQ(usi_of(parse_coordinate(start, "7g7f?!")), "7g7f");  // book marks are stripped
    auto p = pos_of(PROMO);
    EXPECT_EQ(usi_of(parse_coordinate(*p, "P*5e")), "P*5e");
    EXPECT_EQ(usi_of(parse_coordinate(*p, "P'5e")), "P*5e");
    EXPECT_EQ(usi_of(parse_coordinate(*p, "2d2c+")), "2d2c+");
    EXPECT_EQ(usi_of(parse_coordinate(*p, "P2c+")), "2d2c+");
    EXPECT_EQ(usi_of(parse_coordinate(*p, "2d2c=")), "2d2c");
    EXPECT_EQ(usi_of(parse_coordinate(*p, "P2c=")), "2d2c");
    EXPECT_EQ(usi_of(parse_coordinate(*p, "1b1a+")), "1b1a+");
    // GNU Shogi names a tokin by its unpromoted letter; '+P' names it too.
    EXPECT_EQ(usi_of(parse_coordinate(*p, "P4b")), "4c4b");
    EXPECT_EQ(usi_of(parse_coordinate(*p, "+P4b")), "4c4b");
}

TEST(Coordinate, OpenPromotionAsksForAChoice) {
    auto p = pos_of(PROMO);
    for (const char* text : {"2d2c", "P2c"}) {
        auto r = parse_coordinate(*p, text, 2, 5);
        ASSERT_FALSE(r) << text;
        const MoveInputError& e = r.error();
        EXPECT_EQ(e.status, MoveInputStatus::PromotionChoice);
        EXPECT_EQ(e.code, core::ParseErrorCode::BadMove);
        EXPECT_EQ(e.line, 2);
        EXPECT_EQ(e.column, 5);
        EXPECT_EQ(e.message, std::string(text) + ": promote or not? (2d2c+ or 2d2c=)");
        ASSERT_EQ(e.candidates.size(), 2u);
        EXPECT_NE(e.candidates[0].is_promotion(), e.candidates[1].is_promotion());
    }
    auto cands = coordinate_candidates(*p, "2d2c");
    ASSERT_TRUE(cands);
    EXPECT_EQ(join_coordinates(*cands), "2d2c, 2d2c+");
    // A move that must promote is not a choice: without '+' it is refused with the reason.
    auto forced = parse_coordinate(*p, "1b1a");
    ASSERT_FALSE(forced);
    EXPECT_EQ(forced.error().status, MoveInputStatus::Illegal);
    EXPECT_EQ(forced.error().message, "1b1a: a piece on 1a could never move again (it must promote)");
    auto forced_cands = coordinate_candidates(*p, "1b1a");
    ASSERT_TRUE(forced_cands);
    EXPECT_EQ(join_coordinates(*forced_cands), "1b1a+");
}

TEST(Coordinate, AmbiguousInputListsTheCandidates) {
    core::Position start;
    auto r = parse_coordinate(start, "G5h", 4, 9);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().status, MoveInputStatus::Ambiguous);
    EXPECT_EQ(r.error().message, "G5h: ambiguous: 4i5h, 6i5h");
    EXPECT_EQ(r.error().line, 4);
    EXPECT_EQ(r.error().column, 9);
    EXPECT_EQ(join_coordinates(r.error().candidates), "4i5h, 6i5h");
    auto cands = coordinate_candidates(start, "G5h");
    ASSERT_TRUE(cands);
    EXPECT_EQ(cands->size(), 2u);
    // An origin file or rank settles it (GNU Shogi's Pg7f and P77f forms).
    EXPECT_EQ(usi_of(parse_coordinate(start, "G65h")), "6i5h");
    auto still = parse_coordinate(start, "Gi5h");
    ASSERT_FALSE(still);
    EXPECT_EQ(still.error().status, MoveInputStatus::Ambiguous);
}

TEST(Coordinate, SyntaxErrorsNameTheColumn) {
    core::Position start;
    for (const auto& c : hisha::testing::move_error_rows("coordinate", 3)) {
        SCOPED_TRACE(c[0]);
        auto r = parse_coordinate(start, c[0], 3, 10);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().status, MoveInputStatus::Syntax);
        hisha::testing::expect_error(r.error(), core::ParseErrorCode::BadMove, 3, std::stoi(c[1]), c[2]);
        auto cands = coordinate_candidates(start, c[0], 3, 10);
        ASSERT_FALSE(cands);
        EXPECT_EQ(cands.error().column, std::stoi(c[1]));
    }
}

TEST(Coordinate, IllegalMovesGiveTheCoreReason) {
    for (const auto& c : hisha::testing::move_error_rows("coordinate-illegal", 3)) {
        SCOPED_TRACE(c[1]);
        auto pos = pos_of(c[0]);
        auto r = parse_coordinate(*pos, c[1], 6, 2);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().status, MoveInputStatus::Illegal);
        hisha::testing::expect_error(r.error(), core::ParseErrorCode::IllegalMove, 6, 2, c[2]);
        EXPECT_TRUE(r.error().candidates.empty());
    }
}

TEST(Coordinate, WritesGnuShogiOutputForm) {
    auto p = pos_of(PROMO);
    EXPECT_EQ(write_coordinate(*parse_coordinate(*p, "2d2c+")), "2d2c+");
    EXPECT_EQ(write_coordinate(*parse_coordinate(*p, "P'5e")), "P*5e");
    core::Position start;
    EXPECT_EQ(write_coordinate(*parse_coordinate(start, "P7f")), "7g7f");
}

TEST(Coordinate, EveryLegalMoveRoundTrips) {
    std::vector<std::string> sfens = hisha::testing::VARIED_SFENS;
    sfens.push_back(PROMO);
    for (const std::string& sfen : sfens) {
        auto pos = pos_of(sfen);
        for (const auto& sm : core::MoveList<core::LEGAL, true>(*pos)) {
            core::Move m = sm.move;
            std::string text = write_coordinate(m);
            auto r = parse_coordinate(*pos, text);
            if (r) {
                EXPECT_EQ(*r, m) << sfen << " " << text;
                continue;
            }
            // The output form leaves a declined promotion open: the reader asks, or takes '='.
            ASSERT_EQ(r.error().status, MoveInputStatus::PromotionChoice) << sfen << " " << r.error().to_string();
            EXPECT_FALSE(m.is_promotion());
            EXPECT_EQ(*parse_coordinate(*pos, text + "="), m);
        }
    }
}
