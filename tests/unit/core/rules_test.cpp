// Every rule of shogi in hand-built positions, each in both directions (allowed and refused):
// drop restrictions, forced and optional promotion, drop-pawn mate, king safety, repetition
// verdicts, the entering-king declaration and the 24-point count.
#include <gtest/gtest.h>

#include "core/movegen.h"
#include "core/rules.h"
#include "test_util.h"

using namespace hisha::core;
using hisha::test::position;
using hisha::test::usi;

namespace {

// Expects `move` to be refused with `why`, and never generated.
void expect_refused(const Position& pos, const std::string& move, IllegalMove why) {
    Move m = usi(pos, move);
    auto r = pos.check_move(m);
    ASSERT_FALSE(r.has_value()) << move << " was accepted in " << pos.sfen();
    EXPECT_EQ(r.error(), why) << move << ": got '" << describe(r.error()) << "' expected '" << describe(why) << "'";
    EXPECT_FALSE((MoveList<LEGAL, true>(pos).contains(m))) << move << " was generated";
}

void expect_allowed(const Position& pos, const std::string& move) {
    Move m = usi(pos, move);
    auto r = pos.check_move(m);
    EXPECT_TRUE(r.has_value()) << move << " refused: " << (r ? "" : describe(r.error())) << " in " << pos.sfen();
    EXPECT_TRUE((MoveList<LEGAL, true>(pos).contains(m))) << move << " not generated in " << pos.sfen();
}

// The same for several moves.
void expect_refused(const Position& pos, std::initializer_list<const char*> moves, IllegalMove why) {
    for (const char* move : moves)
        expect_refused(pos, move, why);
}
void expect_allowed(const Position& pos, std::initializer_list<const char*> moves) {
    for (const char* move : moves)
        expect_allowed(pos, move);
}

}  // namespace

// --- drops

TEST(Drops, TwoPawnsOnAFileRefusedButATokinDoesNotCount) {
    auto pos = position("4k4/9/9/9/9/9/4P4/5+P3/4K4 b PLN 1");
    expect_refused(*pos, "P*5e", IllegalMove::TwoPawns);
    expect_allowed(*pos, {"P*4e", "P*6e"});  // P*4e: file 4 holds only a promoted pawn
}

TEST(Drops, NoPawnOrLanceOnTheLastRankNoKnightOnTheLastTwo) {
    auto pos = position("4k4/9/9/9/9/9/4P4/5+P3/4K4 b PLN 1");
    expect_refused(*pos, {"P*3a", "L*3a", "N*3a", "N*3b"}, IllegalMove::DeadPiece);
    expect_allowed(*pos, {"P*3b", "L*3b", "N*3c"});
}

TEST(Drops, WhiteDropRestrictionsMirror) {
    auto pos = position("4k4/9/4p4/9/9/9/9/9/4K4 w pln 1");
    expect_refused(*pos, "P*5e", IllegalMove::TwoPawns);
    expect_refused(*pos, {"P*3i", "L*3i", "N*3h", "N*3i"}, IllegalMove::DeadPiece);
    expect_allowed(*pos, {"P*4e", "P*3h", "L*3h", "N*3g"});
}

TEST(Drops, OnlyHeldPiecesOnEmptySquares) {
    auto pos = position("4k4/9/9/9/9/9/4P4/5+P3/4K4 b PLN 1");
    expect_refused(*pos, "G*5e", IllegalMove::NotInHand);
    expect_refused(*pos, {"L*5g", "N*5a"}, IllegalMove::Occupied);
}

TEST(Drops, DroppedPiecesAreUnpromoted) {
    auto pos = position("4k4/9/9/9/9/9/9/9/4K4 b S 1");
    Move m = pos->make_drop(SILVER, SQ_53);
    ASSERT_TRUE(pos->try_play(m).has_value());
    EXPECT_EQ(pos->piece_on(SQ_53), B_SILVER);
    // A drop can never carry the promotion flag.
    auto pos2 = position("4k4/9/9/9/9/9/9/9/4K4 b S 1");
    Move bad(Move::make_drop(SILVER, SQ_53, BLACK).raw() | Move::PROMOTE_FLAG);
    EXPECT_EQ(pos2->check_move(bad).error(), IllegalMove::NotAMove);
}

// --- promotion

TEST(Promotion, ForcedOnTheLastRanks) {
    auto pos = position("k8/2P6/7L1/5N3/3N5/9/9/9/4K4 b - 1");
    expect_refused(*pos, {"7b7a", "2c2a", "4d3b", "4d5b"}, IllegalMove::DeadPiece);
    expect_allowed(*pos, {"7b7a+", "2c2a+", "4d3b+"});
    expect_allowed(*pos, {"2c2b", "2c2b+"});          // a lance on the second rank can still move
    expect_allowed(*pos, {"6e5c", "6e5c+", "6e7c"});  // a knight on the third rank may stay unpromoted
}

TEST(Promotion, OptionalWhenAMoveStartsOrEndsInTheZone) {
    auto pos = position("k8/9/4S4/9/4S4/3G5/8R/9/4K4 b - 1");
    expect_allowed(*pos, {"5c4d+", "5c4d"});  // leaving the zone
    expect_allowed(*pos, "5e5d");
    expect_refused(*pos, "5e5d+", IllegalMove::CannotPromote);  // wholly outside the zone
    expect_refused(*pos, "6f6e+", IllegalMove::CannotPromote);  // gold never promotes
    expect_allowed(*pos, {"1g1c+", "1g1c"});                    // 1g1c: legal, though never better
    expect_refused(*pos, "1g1d+", IllegalMove::CannotPromote);
}

TEST(Promotion, NonPromotionsOfPawnBishopRookOnlyInTheCompleteGenerator) {
    auto pos = position("k8/9/9/5P3/9/9/8R/9/4K4 b - 1");
    Move p = usi(*pos, "4d4c"), r = usi(*pos, "1g1c");
    EXPECT_TRUE((MoveList<LEGAL, true>(*pos).contains(p)));
    EXPECT_TRUE((MoveList<LEGAL, true>(*pos).contains(r)));
    EXPECT_FALSE((MoveList<LEGAL, false>(*pos).contains(p)));
    EXPECT_FALSE((MoveList<LEGAL, false>(*pos).contains(r)));
    EXPECT_TRUE((MoveList<LEGAL, false>(*pos).contains(usi(*pos, "4d4c+"))));
}

TEST(Promotion, CapturedPiecesRevertInHand) {
    auto pos = position("k8/9/9/9/9/9/4+r4/4G4/4K4 b - 1");
    ASSERT_TRUE(pos->try_play(usi(*pos, "5h5g")).has_value());
    EXPECT_EQ(pos->hand(BLACK).count(ROOK), 1);
    EXPECT_EQ(pos->piece_on(SQ_57), B_GOLD);
}

// --- drop-pawn mate

TEST(DropPawnMate, PawnDropMateRefused) {
    auto pos = position("3lkl3/9/3G1G3/9/9/9/9/9/4K4 b P 1");
    expect_refused(*pos, "P*5b", IllegalMove::DropPawnMate);
    auto w = position("4k4/9/9/9/9/9/4g4/9/3LKL3 w p 1");
    expect_refused(*w, "P*5h", IllegalMove::DropPawnMate);
}

TEST(DropPawnMate, PawnPushMateAllowed) {
    auto pos = position("3lkl3/9/3GPG3/9/9/9/9/9/4K4 b - 1");
    expect_allowed(*pos, "5c5b");
    pos->play(usi(*pos, "5c5b"));
    EXPECT_TRUE(is_checkmate(*pos));
}

TEST(DropPawnMate, PawnDropCheckThatIsNotMateAllowed) {
    auto pos = position("3lk4/9/4G4/9/9/9/9/9/4K4 b P 1");  // the king escapes to 4a
    expect_allowed(*pos, "P*5b");
    EXPECT_TRUE(pos->gives_check(usi(*pos, "P*5b")));
}

TEST(DropPawnMate, APinnedDefenderCannotTakeOffItsLine) {
    // The gold on 4b could take on 5b but is pinned by the bishop on 2d: mate, refused.
    auto pinned = position("3lkl3/5g3/4G4/7B1/9/9/9/9/4K4 b P 1");
    expect_refused(*pinned, "P*5b", IllegalMove::DropPawnMate);
    // Without the bishop the gold takes: allowed.
    auto free = position("3lkl3/5g3/4G4/9/9/9/9/9/4K4 b P 1");
    expect_allowed(*free, "P*5b");
    // A defender pinned along the file can take on the file: not mate, allowed.
    auto along = position("3lkl3/9/2G1g1G2/5N3/4R4/9/9/9/4K4 b P 1");
    expect_allowed(*along, "P*5b");
}

// --- king safety

TEST(KingSafety, PinnedPieceMayOnlyMoveAlongThePin) {
    auto pos = position("k3r4/9/9/9/9/9/9/4G4/4K4 b - 1");
    expect_refused(*pos, {"5h4h", "5h4g"}, IllegalMove::SelfCheck);
    expect_allowed(*pos, "5h5g");
}

TEST(KingSafety, CheckMustBeAnswered) {
    auto pos = position("k3r4/9/9/9/9/9/P8/9/4K4 b - 1");
    ASSERT_TRUE(pos->in_check());
    expect_refused(*pos, {"9g9f", "5i5h"}, IllegalMove::IgnoredCheck);
    expect_allowed(*pos, "5i4i");
}

TEST(KingSafety, KingMayNotStepIntoAttack) {
    auto pos = position("k4r3/9/9/9/9/9/9/9/4K4 b - 1");
    expect_refused(*pos, {"5i4h", "5i4i"}, IllegalMove::SelfCheck);
    expect_allowed(*pos, {"5i5h", "5i6h"});
}

TEST(MoveShape, PiecesMoveByTheirRules) {
    auto pos = position("k8/9/9/9/7P1/9/9/1B5R1/4K1GNL b - 1");
    // 2h2a: blocked by the pawn on 2e; 3i4g: a gold does not jump.
    expect_refused(*pos, {"2h2a", "3i4g", "2i2g"}, IllegalMove::CannotReach);
    expect_allowed(*pos, {"2h2f", "2i3g", "1i1a+"});
    expect_refused(*pos, "1i1a", IllegalMove::DeadPiece);
    expect_refused(*pos, "3i2i", IllegalMove::Occupied);      // own piece
    expect_refused(*pos, "9a9b", IllegalMove::NotYourPiece);  // the opponent's king
    expect_refused(*pos, "5e5d", IllegalMove::NotYourPiece);  // empty square
    EXPECT_EQ(pos->check_move(Move::none()).error(), IllegalMove::NotAMove);
    EXPECT_EQ(pos->check_move(Move::make(SQ_28, SQ_26, B_DRAGON)).error(), IllegalMove::NotAMove);
}

// --- repetition

namespace {
// Plays the four-ply cycle `n` times and returns the verdict after each ply.
std::vector<Repetition> cycle(Position& pos, const std::vector<std::string>& moves, int n) {
    std::vector<Repetition> verdicts;
    for (int i = 0; i < n; ++i)
        for (const auto& mv : moves) {
            auto r = pos.try_play(usi(pos, mv));
            EXPECT_TRUE(r.has_value()) << mv;
            verdicts.push_back(judge_repetition(pos));
        }
    return verdicts;
}
}  // namespace

TEST(Sennichite, FourthOccurrenceIsADraw) {
    auto pos = position("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    auto v = cycle(*pos, {"5i5h", "5a5b", "5h5i", "5b5a"}, 3);
    for (std::size_t i = 0; i + 1 < v.size(); ++i)
        EXPECT_EQ(v[i], Repetition::None) << "ply " << i + 1;
    EXPECT_EQ(v.back(), Repetition::Draw);  // ply 12: the start position for the fourth time
    EXPECT_EQ(pos->repetition_info().count, 3);
}

TEST(Sennichite, ThirdOccurrenceIsNotYetADraw) {
    auto pos = position("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    auto v = cycle(*pos, {"5i5h", "5a5b", "5h5i", "5b5a"}, 2);
    EXPECT_EQ(v.back(), Repetition::None);
    EXPECT_EQ(judge_repetition(*pos, 3), Repetition::Draw);  // the search's shorter count
}

TEST(Sennichite, DifferentHandsAreDifferentPositions) {
    // The same board with a pawn changing hands is not a repetition.
    auto a = position("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    auto b = position("4k4/9/9/9/9/9/9/9/4K4 b p 1");
    EXPECT_EQ(a->board_key(), b->board_key());
    EXPECT_NE(a->key(), b->key());
    auto w = position("4k4/9/9/9/9/9/9/9/4K4 w P 1");
    EXPECT_NE(a->key(), w->key());  // side to move counts
}

TEST(Sennichite, PerpetualCheckLosesForBlack) {
    auto pos = position("9/8k/R8/9/9/9/9/9/4K4 b - 1");
    auto v = cycle(*pos, {"9c9b", "1b1c", "9b9c", "1c1b"}, 3);
    EXPECT_EQ(v[v.size() - 2], Repetition::None);
    EXPECT_EQ(v.back(), Repetition::BlackLoses);
}

TEST(Sennichite, PerpetualCheckLosesForWhite) {
    auto pos = position("4k4/9/9/9/9/9/r8/8K/9 w - 1");
    auto v = cycle(*pos, {"9g9h", "1h1g", "9h9g", "1g1h"}, 3);
    EXPECT_EQ(v.back(), Repetition::WhiteLoses);
}

TEST(Sennichite, ChecksInOnlyPartOfTheCycleAreADraw) {
    // Black checks once per eight-ply cycle (the pawn on 3c shields rank c from the rook).
    auto pos = position("9/8k/R5p2/9/9/9/9/9/4K4 b - 1");
    auto v = cycle(*pos, {"9c9b", "1b1c", "5i5h", "1c1d", "9b9c", "1d1c", "5h5i", "1c1b"}, 3);
    EXPECT_EQ(v[v.size() - 2], Repetition::None);
    EXPECT_EQ(v.back(), Repetition::Draw);
}

// --- entering-king declaration (CSA 27-point rule)

TEST(Declaration, BlackWinsWith28PointsAndTenPieces) {
    auto pos = position("4K4/RRBB5/PPPPPP3/9/9/9/9/9/8k b 2P 1");
    DeclarationCheck d = check_declaration(*pos);
    EXPECT_TRUE(d.ok()) << describe(d.failure);
    EXPECT_EQ(d.points, 28);
    EXPECT_EQ(d.pieces_in_zone, 10);
}

TEST(Declaration, RefusedForEachMissingCondition) {
    EXPECT_EQ(check_declaration(*position("4K4/RRBB5/PPPPPP3/9/9/9/9/9/8k b P 1")).failure,
              DeclarationFailure::TooFewPoints);  // 27 < 28
    EXPECT_EQ(check_declaration(*position("4K4/RRBB5/PPPPP4/9/9/9/9/9/8k b 3P 1")).failure,
              DeclarationFailure::TooFewPiecesInZone);  // 9 pieces, 28 points
    EXPECT_EQ(check_declaration(*position("9/RRBB5/PPPPPP3/4K4/9/9/9/9/8k b 2P 1")).failure,
              DeclarationFailure::KingNotInZone);
    EXPECT_EQ(check_declaration(*position("4K4/RRBBg4/PPPPPP3/9/9/9/9/9/8k b 2P 1")).failure,
              DeclarationFailure::InCheck);
    EXPECT_EQ(check_declaration(*position("9/RRBB5/PPPPPP3/9/9/9/9/9/8k b 2P 1")).failure, DeclarationFailure::NoKing);
}

TEST(Declaration, WhiteNeeds27) {
    auto pos = position("8K/9/9/9/9/9/3pppppp/5bbrr/4k4 w p 1");
    DeclarationCheck d = check_declaration(*pos);
    EXPECT_TRUE(d.ok()) << describe(d.failure);
    EXPECT_EQ(d.points, 27);
    EXPECT_FALSE(check_declaration(*position("8K/9/9/9/9/9/3pppppp/5bbrr/4k4 w - 1")).ok());
    // A handicap credit counts for White.
    EXPECT_TRUE(check_declaration(*position("8K/9/9/9/9/9/3pppppp/5bbrr/4k4 w - 1"), 1).ok());
}

// --- 24-point impasse count

TEST(ImpasseCount, BothAt24OrMoreIsADrawFewerLoses) {
    auto even = position(std::string(START_SFEN));
    ImpasseCount c = count_impasse(*even);
    EXPECT_EQ(c.points[BLACK], 27);
    EXPECT_EQ(c.points[WHITE], 27);
    EXPECT_TRUE(c.draw());
    // Black has won a rook: 32 against 22, White loses.
    auto pos = position("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1");
    c = count_impasse(*pos);
    EXPECT_EQ(c.points[BLACK], 32);
    EXPECT_EQ(c.points[WHITE], 22);
    EXPECT_FALSE(c.draw());
    EXPECT_EQ(c.loser(), WHITE);
    // The same board in a rook handicap game: White is credited with the removed rook.
    c = count_impasse(*position("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"), 5);
    EXPECT_TRUE(c.draw());
    EXPECT_EQ(impasse_value(DRAGON), 5);
    EXPECT_EQ(impasse_value(PRO_PAWN), 1);
    EXPECT_EQ(impasse_value(KING), 0);
}
