// The Classic evaluation kept incrementally (ClassicStack) against the evaluation computed in
// full, at every node of random search-like walks: lines that go deeper and come back, nodes
// left unevaluated (so that updates span several moves), null moves, drops, captures into hand,
// promotions and king moves.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/classic_stack.h"
#include "engine/evaluate.h"

using namespace hisha::core;
using namespace hisha::engine;

namespace {

struct Walk {
    Position& pos;
    ClassicStack& stack;
    const ClassicEvaluator& eval;
    std::mt19937_64& rng;
    std::vector<StateInfo>& states;  // one per ply, as the search's stack has
    int checked = 0;

    void visit(int ply, int depth) {
        if (rng() % 4 != 0) {  // most nodes are evaluated, some are skipped
            ASSERT_EQ(stack.evaluate(pos, ply), eval.evaluate(pos)) << pos.sfen() << " ply " << ply;
            ++checked;
        }
        if (depth == 0)
            return;
        MoveList<LEGAL> moves(pos);
        if (moves.size() == 0)
            return;
        int children = 1 + int(rng() % 3);
        for (int i = 0; i < children; ++i) {
            if (!pos.in_check() && rng() % 10 == 0) {
                pos.do_null_move(states[std::size_t(ply + 1)]);
                visit(ply + 1, depth - 1);
                pos.undo_null_move();
                continue;
            }
            Move m = moves.begin()[rng() % moves.size()].move;
            pos.do_move(m, states[std::size_t(ply + 1)]);
            visit(ply + 1, depth - 1);
            pos.undo_move(m);
        }
    }
};

}  // namespace

TEST(ClassicStack, IncrementalPlacementEqualsTheFullEvaluation) {
    const char* starts[] = {
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        "4k4/9/4P4/9/9/9/9/9/4K4 b GS2r2b3g3s4n4l17p 1",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",  // two-piece handicap
    };
    auto eval = std::make_shared<const ClassicEvaluator>();
    ClassicStack stack(eval, 64);
    std::mt19937_64 rng(7);
    int checked = 0;
    for (const char* sfen : starts)
        for (int game = 0; game < 6; ++game) {
            Position pos;
            ASSERT_TRUE(pos.set(sfen));
            // Into the game first (the root of each walk is a new search).
            for (int ply = 0; ply < 20 * game; ++ply) {
                MoveList<LEGAL> moves(pos);
                if (moves.size() == 0)
                    break;
                pos.play(moves.begin()[rng() % moves.size()].move);
            }
            stack.clear();
            std::vector<StateInfo> states(64);
            Walk w{pos, stack, *eval, rng, states};
            w.visit(0, 7);
            checked += w.checked;
        }
    EXPECT_GT(checked, 1000);
    // Most placements were updated, not computed afresh.
    EXPECT_GT(stack.updates, stack.refreshes);
}

TEST(ClassicStack, TheScoreIsThePlacementAndTheRest) {
    ClassicEvaluator eval;
    Position pos;
    ASSERT_TRUE(pos.set("ln1g1g1nl/1r1s2k2/p1pp1p1pp/4p1p2/1p5P1/2P1P4/PPSP1PP1P/1BK1GS1R1/LN1G3NL b Bs 27"));
    EXPECT_EQ(eval.black_score(pos), eval.placement(pos) + eval.dynamic_score(pos));
    EXPECT_EQ(eval.evaluate(pos), eval.finish(pos, eval.black_score(pos)));
    // The placement counts material: without Black's bishop in hand it drops by its value.
    Position fewer;
    ASSERT_TRUE(fewer.set("ln1g1g1nl/1r1s2k2/p1pp1p1pp/4p1p2/1p5P1/2P1P4/PPSP1PP1P/1BK1GS1R1/LN1G3NL b s 27"));
    EXPECT_EQ(eval.placement(pos) - eval.placement(fewer), eval.params().hand[BISHOP][1]);
}
