// Move generation on hand-built positions whose move lists are counted by hand: stage
// counts, pawn-drop mate (excluded) against pawn-push mate (included), optional and forced
// promotions, pins, single and double check, and check_move's reasons.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "test_util.h"

using namespace hisha::core;
using hisha::test::position;
using hisha::test::usi;

namespace {

template <GenType T, bool All = false>
std::vector<std::string> moves_of(const Position& pos) {
    std::vector<std::string> v;
    for (const ScoredMove& sm : MoveList<T, All>(pos))
        v.push_back(to_usi(sm.move));
    std::sort(v.begin(), v.end());
    return v;
}

template <GenType T, bool All = false>
bool generates(const Position& pos, const std::string& m) {
    return MoveList<T, All>(pos).contains(usi(pos, m));
}

// Which moves of a position the legal generators give: `always` both the normal and the
// complete one (which adds the non-promotions that are never better), `only_complete` only the
// complete one, `never` neither.
struct Generated {
    std::vector<std::string> always, only_complete, never;
};
void expect_generated(const Position& pos, const Generated& g) {
    for (const auto& m : g.always) {
        EXPECT_TRUE(generates<LEGAL>(pos, m)) << m;
        EXPECT_TRUE((generates<LEGAL, true>(pos, m))) << m;
    }
    for (const auto& m : g.only_complete) {
        EXPECT_FALSE(generates<LEGAL>(pos, m)) << m;
        EXPECT_TRUE((generates<LEGAL, true>(pos, m))) << m;
    }
    for (const auto& m : g.never)
        EXPECT_FALSE((generates<LEGAL, true>(pos, m))) << m;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& m : v)
        s += m + " ";
    return s;
}

IllegalMove reason(const Position& pos, const std::string& m) {
    auto r = pos.check_move(usi(pos, m));
    EXPECT_FALSE(r.has_value()) << m << " was accepted";
    return r ? IllegalMove::NotAMove : r.error();
}

}  // namespace

TEST(Movegen, StartPositionStages) {
    Position pos;
    EXPECT_EQ((MoveList<CAPTURES>(pos).size()), 0u);
    EXPECT_EQ((MoveList<QUIETS>(pos).size()), 30u);
    EXPECT_EQ((MoveList<NON_EVASIONS>(pos).size()), 30u);
    EXPECT_EQ((MoveList<LEGAL>(pos).size()), 30u);
    EXPECT_EQ((MoveList<LEGAL, true>(pos).size()), 30u);
    EXPECT_EQ((MoveList<CHECKS>(pos).size()), 0u);
    EXPECT_EQ((MoveList<QUIET_CHECKS>(pos).size()), 0u);
    EXPECT_TRUE(generates<LEGAL>(pos, "7g7f"));
    EXPECT_TRUE(generates<LEGAL>(pos, "5i4h"));
    EXPECT_FALSE(generates<LEGAL>(pos, "8h7g"));  // own pawn
    EXPECT_TRUE(has_legal_move(pos));
}

TEST(Movegen, RookInHandStages) {
    // King: 4i 6i 4h 5h 6h. Rook drops on the 79 empty squares, 15 of them checking 5a
    // (5b..5h on the file, 9a..6a and 4a..1a on the rank).
    auto pos = position("4k4/9/9/9/9/9/9/9/4K4 b R 1");
    EXPECT_EQ((MoveList<LEGAL>(*pos).size()), 84u);
    EXPECT_EQ((MoveList<LEGAL, true>(*pos).size()), 84u);
    EXPECT_EQ((MoveList<QUIETS>(*pos).size()), 84u);
    EXPECT_EQ((MoveList<CAPTURES>(*pos).size()), 0u);
    EXPECT_EQ((MoveList<CHECKS>(*pos).size()), 15u);
    EXPECT_EQ((MoveList<QUIET_CHECKS>(*pos).size()), 15u);
    EXPECT_TRUE(generates<CHECKS>(*pos, "R*5h"));
    EXPECT_TRUE(generates<CHECKS>(*pos, "R*9a"));
    EXPECT_FALSE(generates<CHECKS>(*pos, "R*4b"));
}

TEST(Movegen, CapturesStageHoldsCapturesAndPromotions) {
    // Black pawn 2d (promotes on 2c), Black silver 6d takes the pawn on 6c or moves into the
    // zone; White pawn 6c.
    auto pos = position("4k4/9/3p5/3S3P1/9/9/9/9/4K4 b - 1");
    // Silver 6d: 6c (capture, +/=), 5c, 7c (+/=), 5e, 7e (plain). Pawn: 2c+ (2c= with All).
    EXPECT_EQ(moves_of<CAPTURES>(*pos), (std::vector<std::string>{"2d2c+", "6d5c+", "6d6c", "6d6c+", "6d7c+"}));
    EXPECT_EQ((moves_of<CAPTURES, true>(*pos)), moves_of<CAPTURES>(*pos));
    EXPECT_EQ(moves_of<QUIETS>(*pos),
              (std::vector<std::string>{"5i4h", "5i4i", "5i5h", "5i6h", "5i6i", "6d5c", "6d5e", "6d7c", "6d7e"}));
    auto quiets_all = moves_of<QUIETS, true>(*pos);
    EXPECT_TRUE(std::count(quiets_all.begin(), quiets_all.end(), "2d2c")) << joined(quiets_all);
    EXPECT_EQ(quiets_all.size(), 10u);
    EXPECT_EQ((MoveList<LEGAL>(*pos).size()), 14u);
    EXPECT_EQ((MoveList<LEGAL, true>(*pos).size()), 15u);
}

TEST(Movegen, PawnNonPromotionOnlyWithAll) {
    auto pos = position("4k4/9/9/7P1/9/9/9/9/4K4 b - 1");
    EXPECT_EQ((MoveList<LEGAL>(*pos).size()), 6u);
    EXPECT_EQ((MoveList<LEGAL, true>(*pos).size()), 7u);
    EXPECT_TRUE(generates<LEGAL>(*pos, "2d2c+"));
    EXPECT_FALSE(generates<LEGAL>(*pos, "2d2c"));
    EXPECT_TRUE((generates<LEGAL, true>(*pos, "2d2c")));
    EXPECT_TRUE(pos->is_legal(usi(*pos, "2d2c")));  // legal, just never better
}

TEST(Movegen, RookNonPromotionOnlyWithAll) {
    // Rook 9h: 9g..9a (9c 9b 9a in the zone), 9i, 8h..1h. King 5i: 4i 6i 4h 5h 6h.
    auto pos = position("4k4/9/9/9/9/9/9/R8/4K4 b - 1");
    EXPECT_EQ((MoveList<LEGAL>(*pos).size()), 21u);
    EXPECT_EQ((MoveList<LEGAL, true>(*pos).size()), 24u);
    for (const char* m : {"9h9a", "9h9b", "9h9c"}) {
        EXPECT_FALSE(generates<LEGAL>(*pos, m)) << m;
        EXPECT_TRUE((generates<LEGAL, true>(*pos, m))) << m;
        EXPECT_TRUE(generates<LEGAL>(*pos, std::string(m) + "+")) << m;
    }
    EXPECT_FALSE(generates<LEGAL>(*pos, "9h9d+"));  // outside the zone
    // Checks: 9a+ (dragon on the rank of 5a), 5h (the file); 9a unpromoted with All.
    EXPECT_EQ(moves_of<CHECKS>(*pos), (std::vector<std::string>{"9h5h", "9h9a+"}));
    EXPECT_EQ((moves_of<CHECKS, true>(*pos)), (std::vector<std::string>{"9h5h", "9h9a", "9h9a+"}));
}

TEST(Movegen, BishopNonPromotionOnlyWithAll) {
    // Bishop 5e: 16 squares, six in the zone (3c 2b 1a 7c 8b 9a). Checks: 3c and 7c.
    auto pos = position("4k4/9/9/9/4B4/9/9/9/4K4 b - 1");
    EXPECT_EQ((MoveList<LEGAL>(*pos).size()), 21u);
    EXPECT_EQ((MoveList<LEGAL, true>(*pos).size()), 27u);
    EXPECT_FALSE(generates<LEGAL>(*pos, "5e3c"));
    EXPECT_TRUE((generates<LEGAL, true>(*pos, "5e3c")));
    EXPECT_EQ(moves_of<CHECKS>(*pos), (std::vector<std::string>{"5e3c+", "5e7c+"}));
    EXPECT_EQ((moves_of<CHECKS, true>(*pos)), (std::vector<std::string>{"5e3c", "5e3c+", "5e7c", "5e7c+"}));
    // A bishop in the zone promotes on every move, also out of the zone: 12 squares from 3c.
    auto out = position("k8/9/6B2/9/9/9/9/9/4K4 b - 1");
    EXPECT_EQ((MoveList<LEGAL>(*out).size()), 12u + 5u);
    EXPECT_EQ((MoveList<LEGAL, true>(*out).size()), 24u + 5u);
    EXPECT_TRUE(generates<LEGAL>(*out, "3c9i+"));
    EXPECT_FALSE(generates<LEGAL>(*out, "3c9i"));
}

TEST(Movegen, PromotionFromTheZoneOutwards) {
    // Black silver 4c leaves the zone: 4c3d/4c5d may promote (from the zone), 4c4d is a
    // straight step back that silvers cannot make.
    auto pos = position("k8/9/5S3/9/9/9/9/9/4K4 b - 1");
    for (const char* m : {"4c3d", "4c3d+", "4c5d", "4c5d+", "4c4b", "4c4b+", "4c3b", "4c3b+", "4c5b", "4c5b+"})
        EXPECT_TRUE(generates<LEGAL>(*pos, m)) << m;
    EXPECT_FALSE(generates<LEGAL>(*pos, "4c4d"));
    EXPECT_EQ((MoveList<LEGAL>(*pos).size()), 10u + 5u);
}

TEST(Movegen, ForcedPromotionOfPawnLanceKnight) {
    // Black: pawn 1b, lance 9i (free file), knights 8d (to 7b/9b) and 2e (to 1c/3c).
    auto pos = position("4k4/8P/9/1N7/7N1/9/9/9/L3K4 b - 1");
    // Pawn 1b: only 1a+. Lance 9i: 9a+ only, 9b+ (9b unpromoted only in the complete list), 9c
    // both. Knight 8d to rank b: promotion only; knight 2e to rank c: both.
    expect_generated(*pos,
                     {.always = {"1b1a+", "9i9a+", "9i9c", "9i9c+", "8d7b+", "8d9b+", "2e1c", "2e3c", "2e1c+", "2e3c+"},
                      .only_complete = {"9i9b"},
                      .never = {"1b1a", "9i9a", "8d7b", "8d9b"}});
    // No generated move leaves a dead piece, in either mode.
    for (const ScoredMove& sm : MoveList<LEGAL, true>(*pos)) {
        Move m = sm.move;
        Rank rr = rank_of(m.to());
        PieceType pt = type_of(m.piece_after());
        EXPECT_FALSE((pt == PAWN || pt == LANCE) && rr == RANK_1) << to_usi(m);
        EXPECT_FALSE(pt == KNIGHT && rr <= RANK_2) << to_usi(m);
    }
    EXPECT_EQ(reason(*pos, "1b1a"), IllegalMove::DeadPiece);
    EXPECT_EQ(reason(*pos, "8d7b"), IllegalMove::DeadPiece);
    EXPECT_EQ(reason(*pos, "9i9a"), IllegalMove::DeadPiece);
}

TEST(Movegen, ForcedPromotionForWhite) {
    // White: pawn 9h (to 9i), lance 1f (to 1g 1h 1i), knight 2f (to 1h/3h), knight 8e (to 7g/9g).
    auto w = position("4k4/9/9/9/1n7/7nl/9/p8/4K4 w - 1");
    expect_generated(*w,
                     {.always = {"9h9i+", "1f1i+", "1f1g", "1f1g+", "2f1h+", "2f3h+", "8e7g", "8e9g", "8e7g+", "8e9g+"},
                      .only_complete = {"1f1h"},
                      .never = {"9h9i", "1f1i", "2f1h", "2f3h"}});
}

TEST(Movegen, DropsAvoidDeadSquaresAndTwoPawns) {
    // Black holds P L N; a Black pawn on file 5. White holds p l n.
    auto pos = position("4k4/9/9/9/9/4P4/9/9/4K4 b LNPlnp 1");
    for (const ScoredMove& sm : MoveList<LEGAL, true>(*pos)) {
        Move m = sm.move;
        if (!m.is_drop())
            continue;
        Rank r = rank_of(m.to());
        EXPECT_FALSE(m.dropped_piece() != KNIGHT && r == RANK_1) << to_usi(m);
        EXPECT_FALSE(m.dropped_piece() == KNIGHT && r <= RANK_2) << to_usi(m);
        EXPECT_FALSE(m.dropped_piece() == PAWN && file_of(m.to()) == FILE_5) << to_usi(m);
    }
    // Pawn: 8 files x 8 ranks (file 5 holds the Black pawn) = 64; lance: 78 empty squares
    // minus 8 on rank a (5a holds the king) = 70; knight: 78 - 8 - 9 = 61; the push 5f5e;
    // king: 5.
    EXPECT_EQ((MoveList<LEGAL>(*pos).size()), 64u + 70u + 61u + 1u + 5u);
    EXPECT_EQ(reason(*pos, "P*5c"), IllegalMove::TwoPawns);
    EXPECT_EQ(reason(*pos, "P*4a"), IllegalMove::DeadPiece);
    EXPECT_EQ(reason(*pos, "L*4a"), IllegalMove::DeadPiece);
    EXPECT_EQ(reason(*pos, "N*4b"), IllegalMove::DeadPiece);
    EXPECT_TRUE(pos->is_legal(usi(*pos, "N*4c")));
    EXPECT_EQ(reason(*pos, "G*4c"), IllegalMove::NotInHand);
    EXPECT_EQ(reason(*pos, "P*5a"), IllegalMove::Occupied);
    // White: no pawn, lance on rank i, no knight on ranks h, i.
    auto w = position("4k4/9/9/9/9/4P4/9/9/4K4 w LNPlnp 1");
    EXPECT_EQ(reason(*w, "P*4i"), IllegalMove::DeadPiece);
    EXPECT_EQ(reason(*w, "L*4i"), IllegalMove::DeadPiece);
    EXPECT_EQ(reason(*w, "N*4h"), IllegalMove::DeadPiece);
    EXPECT_TRUE(w->is_legal(usi(*w, "N*4g")));
    EXPECT_TRUE(w->is_legal(usi(*w, "P*5b")));  // Black's pawn does not block White's file
    // Pawn: 9 files x ranks a..h minus 5a and 5f = 70; lance: 78 - 8 = 70; knight: 78 - 8 - 9.
    EXPECT_EQ((MoveList<LEGAL>(*w).size()), 70u + 70u + 61u + 5u);
}

TEST(Movegen, PawnDropMateIsExcludedButPawnPushMateIsNot) {
    // White king 1a boxed in by its own knight 2a and pawn 2b; Black gold 2c guards 1b.
    auto drop = position("7nk/7p1/7G1/9/9/9/9/9/4K4 b P 1");
    Move p1b = usi(*drop, "P*1b");
    EXPECT_TRUE(drop->pawn_drop_mates(SQ_12));
    EXPECT_FALSE((MoveList<LEGAL>(*drop).contains(p1b)));
    EXPECT_FALSE((MoveList<LEGAL, true>(*drop).contains(p1b)));
    EXPECT_TRUE((MoveList<QUIETS>(*drop).contains(p1b)));  // pseudo-legal, refused by legal()
    EXPECT_FALSE(drop->legal(p1b));
    EXPECT_TRUE(drop->gives_check(p1b));
    EXPECT_TRUE(drop->pseudo_legal(p1b));
    EXPECT_EQ(reason(*drop, "P*1b"), IllegalMove::DropPawnMate);
    EXPECT_FALSE(drop->try_play(p1b).has_value());
    EXPECT_EQ(drop->sfen(), "7nk/7p1/7G1/9/9/9/9/9/4K4 b P 1");
    EXPECT_TRUE(drop->is_legal(usi(*drop, "P*1c")));  // not a check

    // The same mate given by a pawn push is legal, promoted or (All) not.
    auto push = position("7nk/7p1/7GP/9/9/9/9/9/4K4 b - 1");
    EXPECT_TRUE(generates<LEGAL>(*push, "1c1b+"));
    EXPECT_TRUE((generates<LEGAL, true>(*push, "1c1b")));
    for (const char* m : {"1c1b", "1c1b+"}) {
        EXPECT_TRUE(push->check_move(usi(*push, m)).has_value()) << m;
        ASSERT_TRUE(push->try_play(usi(*push, m)).has_value()) << m;
        EXPECT_TRUE(push->in_check());
        EXPECT_FALSE(has_legal_move(*push)) << m << " is mate";
        push->unplay();
    }

    // Without the guard the king takes the pawn: the drop is legal.
    auto free_pawn = position("7nk/7p1/9/9/9/9/9/9/4K4 b P 1");
    EXPECT_FALSE(free_pawn->pawn_drop_mates(SQ_12));
    EXPECT_TRUE(generates<LEGAL>(*free_pawn, "P*1b"));
    EXPECT_TRUE(generates<CHECKS>(*free_pawn, "P*1b"));
}

TEST(Movegen, PawnDropMateWithPinnedDefender) {
    // White gold 2a could take the pawn on 1b but is pinned by the rook 9a: mate, excluded.
    auto pinned = position("R6gk/7p1/7G1/9/9/9/9/9/4K4 b P 1");
    EXPECT_TRUE(pinned->pawn_drop_mates(SQ_12));
    EXPECT_FALSE(generates<LEGAL>(*pinned, "P*1b"));
    EXPECT_EQ(reason(*pinned, "P*1b"), IllegalMove::DropPawnMate);
    // Without the rook the gold takes: legal.
    auto unpinned = position("7gk/7p1/7G1/9/9/9/9/9/4K4 b P 1");
    EXPECT_FALSE(unpinned->pawn_drop_mates(SQ_12));
    EXPECT_TRUE(generates<LEGAL>(*unpinned, "P*1b"));
}

TEST(Movegen, PawnDropMateForWhite) {
    // The first position rotated: Black king 9i, own knight 8i and pawn 8h, White gold 8g.
    auto pos = position("4k4/9/9/9/9/9/1g7/1P7/KN7 w p 1");
    EXPECT_TRUE(pos->pawn_drop_mates(SQ_98));
    EXPECT_FALSE((generates<LEGAL, true>(*pos, "P*9h")));
    EXPECT_EQ(reason(*pos, "P*9h"), IllegalMove::DropPawnMate);
    EXPECT_TRUE(pos->is_legal(usi(*pos, "P*9g")));
}

TEST(Movegen, PinnedRookMovesOnlyAlongThePin) {
    // Black rook 5h pinned by White rook 5e to the king 5i.
    auto pos = position("4k4/9/9/9/4r4/9/9/4R4/4K4 b - 1");
    EXPECT_TRUE(pos->pinned(BLACK).test(SQ_58));
    EXPECT_EQ((moves_of<LEGAL, true>(*pos)),
              (std::vector<std::string>{"5h5e", "5h5f", "5h5g", "5i4h", "5i4i", "5i6h", "5i6i"}));
    EXPECT_EQ(reason(*pos, "5h4h"), IllegalMove::SelfCheck);
    EXPECT_TRUE(generates<NON_EVASIONS>(*pos, "5h4h"));  // pseudo-legal
    EXPECT_FALSE(pos->legal(usi(*pos, "5h4h")));
}

TEST(Movegen, PinnedSilverMovesOnlyAlongThePin) {
    // Silver 4h pinned on the diagonal 5i-1e: only 3g stays on it.
    auto far = position("4k4/9/9/9/8b/9/9/5S3/4K4 b - 1");
    EXPECT_EQ((moves_of<LEGAL, true>(*far)), (std::vector<std::string>{"4h3g", "5i4i", "5i5h", "5i6h", "5i6i"}));
    // Silver 2f next to the pinner: it may take it or step back along the line.
    auto near = position("4k4/9/9/9/8b/7S1/9/9/4K4 b - 1");
    auto moves = moves_of<LEGAL, true>(*near);
    for (const char* m : {"2f1e", "2f3g"})
        EXPECT_TRUE(std::count(moves.begin(), moves.end(), m)) << m << " in " << joined(moves);
    for (const char* m : {"2f2e", "2f3e", "2f1g"})
        EXPECT_FALSE(std::count(moves.begin(), moves.end(), m)) << m << " in " << joined(moves);
}

TEST(Movegen, SingleCheckEvasions) {
    // White rook 5e checks 5i: king to 4i 6i 4h 6h (5h stays on the file), gold drops 5f 5g 5h.
    auto pos = position("k8/9/9/9/4r4/9/9/9/4K4 b G 1");
    ASSERT_TRUE(pos->in_check());
    EXPECT_EQ((moves_of<LEGAL, true>(*pos)),
              (std::vector<std::string>{"5i4h", "5i4i", "5i6h", "5i6i", "G*5f", "G*5g", "G*5h"}));
    EXPECT_EQ((MoveList<EVASIONS>(*pos).size()), 8u);  // + 5i5h, refused by legal()
    EXPECT_EQ(reason(*pos, "G*4e"), IllegalMove::IgnoredCheck);
    EXPECT_EQ(reason(*pos, "5i5h"), IllegalMove::IgnoredCheck);
}

TEST(Movegen, DoubleCheckOnlyKingMoves) {
    // White rook 5e and knight 4g both check 5i. The gold 4h could take the knight or block on
    // 5h and the pawn could be dropped on the file, but only king moves escape a double check.
    auto pos = position("k8/9/9/9/4r4/9/5n3/5G3/4K4 b P 1");
    ASSERT_TRUE(pos->in_check());
    EXPECT_EQ(pos->checkers().popcount(), 2);
    EXPECT_EQ((moves_of<LEGAL, true>(*pos)), (std::vector<std::string>{"5i4i", "5i6h", "5i6i"}));
    for (const ScoredMove& sm : MoveList<EVASIONS, true>(*pos))
        EXPECT_EQ(type_of(sm.move.piece_after()), KING) << to_usi(sm.move);
    EXPECT_EQ(reason(*pos, "4h4g"), IllegalMove::IgnoredCheck);
    EXPECT_EQ(reason(*pos, "4h5h"), IllegalMove::IgnoredCheck);
    EXPECT_EQ(reason(*pos, "P*5f"), IllegalMove::IgnoredCheck);
}

TEST(Movegen, CheckMoveReasons) {
    Position pos;
    EXPECT_EQ(pos.check_move(Move::none()).error(), IllegalMove::NotAMove);
    EXPECT_EQ(pos.check_move(Move::null()).error(), IllegalMove::NotAMove);
    EXPECT_EQ(reason(pos, "3c3d"), IllegalMove::NotYourPiece);  // White's pawn
    EXPECT_EQ(reason(pos, "5e5d"), IllegalMove::NotYourPiece);  // empty square
    EXPECT_EQ(reason(pos, "P*5e"), IllegalMove::NotInHand);
    EXPECT_EQ(reason(pos, "8h7g"), IllegalMove::Occupied);
    EXPECT_EQ(reason(pos, "8h6f"), IllegalMove::CannotReach);  // blocked by 7g
    EXPECT_EQ(reason(pos, "7g7e"), IllegalMove::CannotReach);
    EXPECT_EQ(reason(pos, "7g7f+"), IllegalMove::CannotPromote);  // outside the zone
    EXPECT_EQ(reason(pos, "6i5h+"), IllegalMove::CannotPromote);  // gold
    // A move encoded with the wrong piece is not a move of this position.
    EXPECT_EQ(pos.check_move(Move::make(SQ_77, SQ_76, B_SILVER)).error(), IllegalMove::NotAMove);
    EXPECT_TRUE(pos.check_move(Move::make(SQ_77, SQ_76, B_PAWN)).has_value());
}

namespace {
// Generates into a buffer much larger than a MoveList, so that too many moves are counted
// instead of overflowing.
template <GenType T, bool All>
std::size_t count_unbounded(const Position& pos) {
    static ScoredMove buffer[4 * MAX_MOVES];
    return std::size_t(generate<T, All>(pos, buffer) - buffer);
}
}  // namespace

TEST(Movegen, MaxMovesPositionsFitAMoveList) {
    // The 593-move position, and the same without White's king (found by a local search over
    // Strict positions): 599 moves, one below MAX_MOVES.
    for (auto [sfen, n] : {std::pair{"R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 593u},
                           std::pair{"R8/2K1S1SS1/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 599u}}) {
        auto pos = position(sfen);
        EXPECT_EQ((count_unbounded<LEGAL, true>(*pos)), std::size_t(n)) << sfen;
        EXPECT_LE((count_unbounded<NON_EVASIONS, true>(*pos)), std::size_t(MAX_MOVES)) << sfen;
    }
}

// Every position set() accepts must fit a MoveList (MAX_MOVES entries, no bounds check in
// release builds). Regression: Relaxed accepts a third rook or bishop, and this position
// (found by the SFEN fuzzer) has 607 legal moves, which overflowed the 600-entry MoveList
// (a stack-buffer-overflow in drops() under ASan) until MAX_MOVES became 1024 and Relaxed
// positions were capped at 40 pieces.
TEST(Movegen, RelaxedPositionWithManyMovesFitsAMoveList) {
    Position pos;
    const char* sfen = "R8/2R1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP2g3n17p 1";
    ASSERT_TRUE(pos.set(sfen, SfenRules::Relaxed).has_value());
    EXPECT_LE((count_unbounded<LEGAL, true>(pos)), std::size_t(MAX_MOVES)) << sfen;
    EXPECT_LE((count_unbounded<NON_EVASIONS, true>(pos)), std::size_t(MAX_MOVES)) << sfen;
}

// drops<Us, true>() looks for the one pawn drop that could mate on the square in front of
// the enemy king, `king + 1` (Black) or `king - 1` (White). With Black's king on 1a (SQ_11)
// and White to move holding a pawn that square is SQ_11 - 1, which wraps to 255: reads of
// PAWN_ATTACKS[WHITE][255], SQUARE_BB[255] and pawn_drop_mates(255) far out of bounds. With
// White's king on 9i (SQ_99) and Black to move it is 81, one past PAWN_ATTACKS[BLACK]. Kings
// reach these corners in entering-king games. A release build reads whatever lies there (the
// counts may come out right by luck); the sanitizer build (UBSan array bounds) aborts.
TEST(Movegen, PawnDropsAgainstAKingInTheCorner) {
    // 79 empty squares; pawn drops everywhere but the dropping side's last rank (71); the
    // side to move's king has 3 steps. No drop can check a king on its own back rank corner.
    for (const char* sfen : {"8K/9/9/9/9/9/9/9/k8 w p 1", "8K/9/9/9/9/9/9/9/k8 b P 1"}) {
        auto pos = position(sfen);
        EXPECT_EQ((count_unbounded<LEGAL, true>(*pos)), 74u) << sfen;
        EXPECT_EQ((count_unbounded<LEGAL, false>(*pos)), 74u) << sfen;
    }
}
