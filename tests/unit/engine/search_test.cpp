// Search parts that can be tested exactly: one-ply mate, mate scores, repetition and
// perpetual-check scoring, the entering-king declaration, resigning when mated, node limits.
#include <gtest/gtest.h>

#include <future>

#include "core/movegen.h"
#include "core/position.h"
#include "core/rules.h"
#include "engine/engine.h"
#include "engine/mate1ply.h"
#include "notation/usi.h"

using namespace hisha::core;
using namespace hisha::engine;

namespace {
std::unique_ptr<Position> pos(const std::string& sfen) {
    auto p = std::make_unique<Position>();
    EXPECT_TRUE(p->set(sfen).has_value()) << sfen;
    return p;
}
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
