// Search parts that can be tested exactly: one-ply mate, mate scores, repetition and
// perpetual-check scoring, the entering-king declaration, resigning when mated, node limits.
#include <gtest/gtest.h>

#include <cstdlib>
#include <future>

#include "core/movegen.h"
#include "core/position.h"
#include "core/rules.h"
#include "engine/bench_signature.h"
#include "engine/engine.h"
#include "engine/mate1ply.h"
#include "notation/usi.h"
#include "test_positions.h"

using namespace hisha::core;
using namespace hisha::engine;

namespace {
std::unique_ptr<Position> pos(const std::string& sfen) { return hisha::testing::pos_of(sfen); }
std::unique_ptr<Position> game(const std::string& usi_position) {
    auto rec = hisha::notation::parse_usi_position(usi_position);
    EXPECT_TRUE(rec.has_value()) << usi_position;
    auto p = std::make_unique<Position>();
    EXPECT_TRUE(p->set(rec->start_sfen).has_value());
    for (const auto& m : rec->moves)
        p->play(m.move);
    return p;
}
SearchResult search_depth(Engine& e, const Position& p, int depth) {
    Limits l;
    l.depth = depth;
    return e.search(p, l);
}
}  // namespace

TEST(MateInOne, FindsDropAndMoveMates) {
    auto drop = pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");  // G*5b
    Move m = mate_in_one(*drop);
    ASSERT_TRUE(m);
    EXPECT_EQ(to_usi(m), "G*5b");
    auto push = pos("3lkl3/9/3GPG3/9/9/9/9/9/4K4 b - 1");  // 5c5b+, or a gold to 5b
    Move pm = mate_in_one(*push);
    ASSERT_TRUE(pm);
    push->play(pm);
    EXPECT_TRUE(is_checkmate(*push)) << to_usi(pm);
}

TEST(MateInOne, NeverClaimsAPawnDropMateOrAFalseMate) {
    // The only mating idea is the illegal pawn drop: no mate in one.
    auto p = pos("3lkl3/9/4G4/9/9/9/9/9/4K4 b P 1");
    EXPECT_FALSE(mate_in_one(*p));
    // The king escapes: no mate.
    auto q = pos("3lk4/9/4G4/9/9/9/9/9/4K4 b P 1");
    EXPECT_FALSE(mate_in_one(*q));
    EXPECT_EQ(q->sfen(), "3lk4/9/4G4/9/9/9/9/9/4K4 b P 1");  // restored
}

TEST(Search, FindsMateInOneWithMateScore) {
    Engine e;
    auto p = pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    SearchResult r = search_depth(e, *p, 3);
    EXPECT_EQ(to_usi(r.best), "G*5b");
    EXPECT_EQ(r.score, VALUE_MATE - 1);
}

TEST(Search, FindsMateInThree) {
    // 1. G*4b+ K5a? no: a forced line: the king on 1a, black rook and gold in hand.
    Engine e;
    auto p = pos("8k/9/8P/9/9/9/9/9/K8 b RG 1");
    SearchResult r = search_depth(e, *p, 5);
    EXPECT_TRUE(is_mate_score(r.score)) << r.score;
    EXPECT_GT(r.score, 0);
}

TEST(Search, NoLegalMoveMeansResign) {
    Engine e;
    auto p = pos("3lkl3/9/3GPG3/9/9/9/9/9/4K4 b - 1");
    p->play(p->make_move(SQ_53, SQ_52, true));  // 5c5b+ mates
    ASSERT_FALSE(has_legal_move(*p));
    SearchResult r = search_depth(e, *p, 3);
    EXPECT_FALSE(r.best);
}

TEST(Search, DeclaresTheWinWhenTheRuleHolds) {
    Engine e;
    auto p = pos("4K4/RRBB5/PPPPPP3/9/9/9/9/9/8k b 2P 1");
    SearchResult r = search_depth(e, *p, 3);
    EXPECT_EQ(r.best, Move::win());
    e.set_option("EnteringKingRule", "NoEnteringKing");
    r = search_depth(e, *p, 3);
    EXPECT_NE(r.best, Move::win());
    EXPECT_TRUE(r.best.is_ok());
}

TEST(Search, EvaluationModuleIsAnOption) {
    // Black has an extra gold in hand and nothing else differs: material alone scores it as
    // the value of a gold in hand; the classic evaluation adds placement and king terms.
    Engine e;
    auto p = pos("4k4/9/9/9/9/9/9/9/4K4 b G 1");
    EXPECT_EQ(e.set_option("Evaluation", "Material"), "");
    Value material = search_depth(e, *p, 1).score;
    EXPECT_EQ(material, MaterialEvaluator().evaluate(*p)) << "a quiet king move leaves the material as it is";
    EXPECT_EQ(e.set_option("Evaluation", "classic"), "");
    EXPECT_NE(search_depth(e, *p, 1).score, material);
    EXPECT_NE(e.set_option("Evaluation", "Network"), "");
    EXPECT_EQ(e.option("Evaluation"), "Classic");
}

TEST(Search, MatesFromTheSolverEndTheGameInsteadOfCircling) {
    // From a self-play game: White has a forced mate, and the mate solver's first proofs
    // alternated between a mate in 5 (6g5g ...) and a mate in 3 (5g6g ...). Each proof was
    // right, but played one after the other they circled with checks until the fourth
    // repetition, which the checking side loses. Played on now, the game must end in mate.
    Engine e;
    auto p = game("position startpos moves 5g5f 8c8d 2g2f 6c6d 3g3f 3c3d 3i4h 5a4b 2i3g 4a3b 1g1f 6a5b 6i7h 2b3c 5i5h "
                  "3a2b 1i1g 1c1d 7g7f 9c9d 8h3c+ 2a3c B*7e B*4d 7i8h 5b6c 7e5g 6c6b 4g4f 5c5d 4f4e 4d5c 5h6i 8a9c "
                  "9g9f 9c8e 8g8f 8e7g 7h7g 4b5a 8i9g 6b7b N*4f 5a5b 4f3d 2b3a 6i7h 9d9e 5f5e 9e9f 5e5d 5c6b P*9b 8b9b "
                  "P*9c 9b8b 9c9b+ 8b9b 2h1h 9f9g+ 5d5c+ 5b5c 9i9g P*9f 5g3e 5c5b 3e6b+ 7a6b 9g9f 9b9f B*7d 7c7d P*9g "
                  "9f9c P*5e N*6e 5e5d 6e7g+ 7h7g 5b4a N*6h G*9h 7g6f 9h8h 6h5f S*6e 6f5g 9c9g+ 4h4g B*2g 1h1i 9g6g "
                  "5g6g L*6f 6g7g 2g4i+ R*6a 6b5a 6a5a+ 4a5a S*5b 5a5b 5f4d 4c4d 3d4b+ 3a4b 5d5c+ 5b5c 7g8h B*9i 8h7h "
                  "4i6g 7h6i 6g5g 6i7h 5g6g 7h6i 6g5g 6i7h 5g6g 7h6i 6g5g 6i7h");
    ASSERT_EQ(p->side_to_move(), WHITE);
    for (int ply = 0; ply < 16 && !is_checkmate(*p); ++ply) {
        Limits l;
        l.movetime = 200;  // timed, so the solver runs first
        SearchResult r = e.search(*p, l);
        ASSERT_TRUE(r.best.is_ok()) << "ply " << ply;
        p->play(r.best);
        ASSERT_EQ(judge_repetition(*p), Repetition::None) << "ply " << ply << " " << to_usi(r.best);
    }
    EXPECT_TRUE(is_checkmate(*p));
    EXPECT_EQ(p->side_to_move(), BLACK);
}

TEST(Search, RepetitionIsScoredAsADraw) {
    // Black has a rook more; the only move searched repeats an earlier position: a draw.
    Engine e;
    auto p = game("position sfen 4k4/9/9/9/9/9/9/9/4K4 b R 1 moves 5i5h 5a5b 5h5i 5b5a");
    Limits l;
    l.depth = 6;
    std::promise<SearchResult> done;
    e.go(*p, l, {}, [&](const SearchResult& r) { done.set_value(r); }, {p->make_move(SQ_59, SQ_58, false)});
    SearchResult r = done.get_future().get();
    e.wait();
    EXPECT_EQ(to_usi(r.best), "5i5h");
    EXPECT_EQ(r.score, 0);
    // Free to choose, Black avoids the draw.
    EXPECT_GT(search_depth(e, *p, 4).score, 500);
}

TEST(Search, PerpetualCheckByTheOpponentIsAWin) {
    // White has checked with every move of the cycle; repeating again wins for Black to move.
    Engine e;
    auto p = game("position sfen 4k4/9/9/9/9/9/r8/8K/9 w - 1 moves 9g9h 1h1g 9h9g 1g1h 9g9h");
    // Black to move, in check. Going back (1h1g) repeats the position the perpetual checker
    // must avoid: the search sees a won repetition for Black.
    SearchResult r = search_depth(e, *p, 4);
    EXPECT_TRUE(r.best.is_ok());
    EXPECT_GT(r.score, 0) << to_usi(r.best);
}

TEST(Search, NodeAndDepthLimitsAreObeyed) {
    Engine e;
    Position start;
    Limits l;
    l.nodes = 20000;
    SearchResult r = e.search(start, l);
    EXPECT_TRUE(r.best.is_ok());
    EXPECT_LT(r.nodes, 40000u);
    SearchResult d = search_depth(e, start, 4);
    EXPECT_EQ(d.depth, 4);
}

TEST(Search, BenchIsDeterministic) {
    Engine e;
    int ms = 0;
    std::uint64_t a = e.bench(5, &ms);
    std::uint64_t b = e.bench(5, &ms);
    EXPECT_EQ(a, b);
    EXPECT_GT(a, 1000u);
}

// The bench's node count is the search's signature (engine/bench_signature.h): it changes with
// the search and only with it. With HISHA_TEST_QUICK=1 (a slow build) the shorter bench is checked.
TEST(Search, BenchSignatureIsTheRecordedOne) {
    Engine e;
    const char* quick = std::getenv("HISHA_TEST_QUICK");
    bool short_run = quick && std::string(quick) == "1";
    int depth = short_run ? BENCH_QUICK_DEPTH : BENCH_DEPTH;
    std::uint64_t recorded = short_run ? BENCH_QUICK_NODES : BENCH_NODES;
    int ms = 0;
    std::uint64_t nodes = e.bench(depth, &ms);
    EXPECT_EQ(nodes, recorded) << "`hisha bench " << depth << "` searched " << nodes
                               << " nodes, the repository records " << recorded
                               << " (src/engine/bench_signature.h). The search changed: if that is meant, "
                               << "update the recorded counts (depths " << BENCH_DEPTH << " and " << BENCH_QUICK_DEPTH
                               << ") in the same commit as an SPRT result of the change in bench/strength/RESULTS.md "
                               << "(bench/strength/sprt.sh); a speed-only change must leave the count as it is.";
}

TEST(Search, InteriorMateSearchFindsAMateBelowTheRoot) {
    // A 13-ply mate (sbq-m13-002 of the tsume set, with a black king in the corner). The root
    // is no place for the solver here (the enemy king has room: mate_plausible), so the mate is
    // found below the root by the interior df-pn search of a PV node; alpha-beta alone does
    // not see it at depth 7 (nor at 9).
    const std::string sfen = "+Ng1r5/1g1k5/9/+S1B1S4/9/9/9/9/K8 b rb2g2s3n4l18p 1";
    Engine on;
    EXPECT_EQ(on.set_option("MateSearchNodes", "1000"), "");
    auto p = pos(sfen);
    SearchResult r = search_depth(on, *p, 7);
    EXPECT_TRUE(is_mate_score(r.score)) << r.score;
    EXPECT_GT(r.score, 0);
    ASSERT_TRUE(r.best);
    EXPECT_TRUE(p->gives_check(r.best)) << to_usi(r.best);
    Engine off;
    EXPECT_FALSE(is_mate_score(search_depth(off, *p, 7).score));
    // The interior search never claims a mate where there is none: the defender's view of a
    // drawn-out middlegame position stays an ordinary score.
    auto quiet = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
    SearchResult q = search_depth(on, *quiet, 6);
    EXPECT_FALSE(is_mate_score(q.score)) << q.score;
}

TEST(Search, MateSearchNodesAlsoSolveTheRootWhereAMateIsPlausible) {
    // sbq-m13-016 with a black king in the corner: the king on 9d is boxed in, so the root
    // gets a df-pn search of four times MateSearchNodes before alpha-beta (at a fixed depth
    // too), and a 1-ply search answers the 13-ply mate.
    Engine on;
    EXPECT_EQ(on.set_option("MateSearchNodes", "1000"), "");
    auto p = pos("+n8/2P6/9/kN+BL5/9/9/9/9/K8 b G2rb3g4s2n3l17p 1");
    SearchResult r = search_depth(on, *p, 1);
    EXPECT_EQ(r.score, mate_in(13)) << r.score;
    ASSERT_TRUE(r.best);
    EXPECT_TRUE(p->gives_check(r.best)) << to_usi(r.best);
}

TEST(Search, InteriorMateSearchOptionIsChecked) {
    Engine e;
    EXPECT_NE(e.set_option("MateSearchNodes", "-1"), "");
    EXPECT_NE(e.set_option("MateSearchNodes", "many"), "");
    EXPECT_EQ(e.set_option("MateSearchNodes", "0"), "");
}
