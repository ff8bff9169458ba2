// Tsume puzzles (puzzle/puzzle.h): a unique short mate is a puzzle, a position with two mating
// first moves is not; attempts are judged move by move, a wrong check gets the defender's
// refutation, and puzzle lines read back and refuse bad ones.
#include "puzzle/puzzle.h"

#include <gtest/gtest.h>

#include <memory>

#include "core/movegen.h"
#include "core/rules.h"
#include "notation/usi.h"

namespace hisha::puzzle {
namespace {

std::unique_ptr<core::Position> at(const std::string& sfen) {
    auto pos = std::make_unique<core::Position>();
    EXPECT_TRUE(pos->set(sfen)) << sfen;
    return pos;
}

std::vector<std::string> usi(const std::vector<core::Move>& moves) {
    std::vector<std::string> out;
    for (core::Move m : moves)
        out.push_back(notation::write_usi_move(m));
    return out;
}

// Plays the attempt and the judgement's refutation, and says whether the refutation is a legal
// defence after which the attacker has no mate within the plies left.
bool refutes(const Puzzle& p, const std::vector<std::string>& moves, const Judgement& j, tsume::Solver& solver) {
    auto pos = at(p.sfen);
    for (const std::string& m : moves)
        pos->play(*notation::parse_usi_move(*pos, m));
    auto reply = notation::parse_usi_move(*pos, j.refutation);
    if (!reply)
        return false;
    pos->play(*reply);
    tsume::Result r = solver.solve(*pos, tsume::Limits{});
    const int left = p.length - int(moves.size()) - 1;
    return r.status == tsume::Status::NoMate || (r.status == tsume::Status::Mate && r.exact && r.length > left);
}

const Budget budget;

// The golds' mate: G*5b, backed by the pawn on 5c, is the only mate in one.
const char* const ONE_MATE = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
// Both golds beside the pawn mate on 5b: two mating first moves.
const char* const TWO_MATES = "4k4/9/3GPG3/9/9/9/9/9/4K4 b - 1";

TEST(PuzzleFind, AUniqueMateInOneIsAPuzzle) {
    tsume::Solver solver;
    auto pos = at(ONE_MATE);
    Found f = find(*pos, 7, solver, budget);
    ASSERT_EQ(f.verdict, Verdict::Puzzle);
    EXPECT_EQ(usi(f.solution), std::vector<std::string>{"G*5b"});
    EXPECT_EQ(pos->sfen(), ONE_MATE);  // left as it was
}

TEST(PuzzleFind, TwoMatingFirstMovesAreRejected) {
    tsume::Solver solver;
    auto pos = at(TWO_MATES);
    Found f = find(*pos, 7, solver, budget);
    EXPECT_EQ(f.verdict, Verdict::NotUnique);
    // The other first move named mates too (4c5b, 6c5b and 5c5b+ all do).
    ASSERT_TRUE(pos->is_legal(f.other));
    pos->play(f.other);
    EXPECT_TRUE(core::is_checkmate(*pos)) << notation::write_usi_move(f.other);
}

TEST(PuzzleFind, NoMateWithinTheLengthIsNoPuzzle) {
    tsume::Solver solver;
    auto pos = at("4k4/9/9/9/9/9/9/9/4K4 b G 1");
    EXPECT_EQ(find(*pos, 7, solver, budget).verdict, Verdict::NoShortMate);
}

Puzzle from(const std::string& sfen, std::vector<std::string> solution) {
    Puzzle p;
    p.sfen = sfen;
    p.id = puzzle_id(sfen);
    p.length = int(solution.size());
    p.solution = std::move(solution);
    p.source = "test";
    return p;
}

TEST(PuzzleJudge, TheSolutionIsCorrect) {
    tsume::Solver solver;
    EXPECT_EQ(judge(from(ONE_MATE, {"G*5b"}), {"G*5b"}, solver, budget).kind, Judgement::Correct);
}

TEST(PuzzleJudge, AWrongCheckGetsALegalRefutation) {
    tsume::Solver solver;
    Puzzle p = from(ONE_MATE, {"G*5b"});
    for (const char* move : {"G*4b", "G*6b", "5c5b+"}) {
        Judgement j = judge(p, {move}, solver, budget);
        EXPECT_EQ(j.kind, Judgement::Wrong) << move;
        EXPECT_EQ(j.reason, "no mate") << move;
        EXPECT_TRUE(refutes(p, {move}, j, solver)) << move << " refuted by " << j.refutation;
    }
}

TEST(PuzzleJudge, NotACheckAndIllegalMovesAreWrong) {
    tsume::Solver solver;
    Puzzle p = from(ONE_MATE, {"G*5b"});
    Judgement j = judge(p, {"G*5d"}, solver, budget);
    EXPECT_EQ(j.kind, Judgement::Wrong);
    EXPECT_EQ(j.reason, "not a check");
    j = judge(p, {"G*5c"}, solver, budget);
    EXPECT_EQ(j.kind, Judgement::Wrong);
    EXPECT_EQ(j.reason, "illegal");
    EXPECT_EQ(judge(p, {"x9"}, solver, budget).kind, Judgement::BadInput);
    EXPECT_EQ(judge(p, {}, solver, budget).kind, Judgement::BadInput);
    EXPECT_EQ(judge(p, {"G*5b", "5a4a"}, solver, budget).kind, Judgement::BadInput);
}

// A five-ply mate from the game of tests/data/vectors/records/csa/uchifuzume.csa (hisha puzzles
// finds it at ply 97).
const char* const FIVE = "ln1g1k1nl/9/3+P1g1p1/2pKppp2/1+rS4PP/p1PBSPP1L/2G+rs4/9/LN7 w BS5Pgnp 98";
const std::vector<std::string> FIVE_LINE = {"N*7b", "6d6e", "8a7c", "6c7c", "G*6d"};

TEST(PuzzleJudge, AFiveMoveMateGoesOnWithTheDefendersReplies) {
    tsume::Solver solver;
    Puzzle p = from(FIVE, FIVE_LINE);
    Judgement j = judge(p, {"N*7b"}, solver, budget);
    ASSERT_EQ(j.kind, Judgement::Continue);
    EXPECT_EQ(j.reply, "6d6e");
    j = judge(p, {"N*7b", "6d6e", "8a7c"}, solver, budget);
    ASSERT_EQ(j.kind, Judgement::Continue);
    EXPECT_EQ(j.reply, "6c7c");
    EXPECT_EQ(judge(p, FIVE_LINE, solver, budget).kind, Judgement::Correct);
    // A defender's move other than the reply given is refused.
    EXPECT_EQ(judge(p, {"N*7b", "6d7c", "8a7c"}, solver, budget).kind, Judgement::BadInput);
}

TEST(PuzzleFind, TheFiveMoveMateOfTheGameIsAPuzzle) {
    tsume::Solver solver;
    auto pos = at(FIVE);
    Found f = find(*pos, 7, solver, budget);
    ASSERT_EQ(f.verdict, Verdict::Puzzle);
    EXPECT_EQ(usi(f.solution), FIVE_LINE);
}

TEST(PuzzleFind, ATotalBudgetStopsTheSearchUndecided) {
    tsume::Solver solver;
    auto pos = at(FIVE);
    const Budget tight{100000, 16, 1};  // one solve, then every question is undecided
    EXPECT_EQ(find(*pos, 7, solver, tight).verdict, Verdict::Undecided);
    EXPECT_GT(tight.spent, 0u);
    EXPECT_EQ(find(*pos, 7, solver, budget).verdict, Verdict::Puzzle);
}

TEST(PuzzleHint, TheSolutionsMoveOnItsLineAndTheSolversOffIt) {
    tsume::Solver solver;
    Puzzle p = from(FIVE, FIVE_LINE);
    std::string error;
    EXPECT_EQ(hint_move(p, {}, solver, budget, error), "N*7b");
    EXPECT_EQ(hint_move(p, {"N*7b", "6d6e"}, solver, budget, error), "8a7c");
    // Another defence than the solution's: the hint is a check that still mates in the plies left.
    auto pos = at(FIVE);
    pos->play(*notation::parse_usi_move(*pos, "N*7b"));
    int others = 0;
    for (const core::ScoredMove& sm : core::MoveList<core::LEGAL, true>(*pos)) {
        std::string reply = notation::write_usi_move(sm.move);
        if (reply == "6d6e")
            continue;
        ++others;
        std::string hint = hint_move(p, {"N*7b", reply}, solver, budget, error);
        ASSERT_FALSE(hint.empty()) << reply << ": " << error;
        pos->play(sm.move);
        auto m = notation::parse_usi_move(*pos, hint);
        ASSERT_TRUE(m) << hint;
        EXPECT_TRUE(pos->gives_check(*m)) << reply << " " << hint;
        pos->play(*m);
        EXPECT_EQ(mates_within(*pos, 2, solver, budget), Mates::Yes) << reply << " " << hint;
        pos->unplay();
        pos->unplay();
    }
    EXPECT_GT(others, 0);
    // Bad moves: a defender's turn, an illegal move.
    EXPECT_TRUE(hint_move(p, {"N*7b"}, solver, budget, error).empty());
    EXPECT_TRUE(hint_move(p, {"N*7b", "5a5b"}, solver, budget, error).empty());
    EXPECT_NE(error.find("move 2"), std::string::npos) << error;
}

TEST(PuzzleLine, ALineReadsBack) {
    Puzzle p = from(FIVE, FIVE_LINE);
    p.ply = 97;
    std::string error;
    auto q = from_line(to_line(p), error);
    ASSERT_TRUE(q) << error;
    EXPECT_EQ(q->id, p.id);
    EXPECT_EQ(q->sfen, p.sfen);
    EXPECT_EQ(q->solution, p.solution);
    EXPECT_EQ(q->length, 5);
    EXPECT_EQ(q->ply, 97);
}

TEST(PuzzleLine, BadLinesAreRefused) {
    std::string error;
    Puzzle p = from(ONE_MATE, {"G*5b"});
    std::string good = to_line(p);
    EXPECT_FALSE(from_line("abc", error));
    EXPECT_NE(error.find("fields"), std::string::npos);
    p.solution = {"G*4b"};
    EXPECT_FALSE(from_line(to_line(p), error));
    EXPECT_NE(error.find("mate"), std::string::npos) << error;
    p.solution = {"G*5c"};
    EXPECT_FALSE(from_line(to_line(p), error));
    p.sfen = "nonsense";
    EXPECT_FALSE(from_line(to_line(p), error));
    EXPECT_TRUE(from_line(good, error)) << error;
}

}  // namespace
}  // namespace hisha::puzzle
