// The move picker: every legal move exactly once, the TT move first, and the ordering of
// quiet moves (a safe check before other quiet moves when the histories know nothing).
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/movepick.h"

using namespace hisha::core;
using namespace hisha::engine;

namespace {

struct Picked {
    std::vector<std::string> legal;  // in the order the picker gave them (illegal ones left out)
    int pseudo_legal_count = 0;
};

Picked pick_all(const Position& p, Move tt_move, const History& h) {
    Move killers[2] = {Move::none(), Move::none()};
    const PieceToHistory* cont[3] = {&h.continuation[0][0], &h.continuation[0][0], &h.continuation[0][0]};
    MovePicker mp(p, tt_move, h, killers, Move::none(), cont);
    Picked out;
    for (Move m; (m = mp.next_move());) {
        ++out.pseudo_legal_count;
        if (p.legal(m))
            out.legal.push_back(to_usi(m));
    }
    return out;
}

std::unique_ptr<History> empty_history() {
    auto h = std::make_unique<History>();
    h->clear();
    return h;
}

int index_of(const std::vector<std::string>& v, const std::string& s) {
    for (std::size_t i = 0; i < v.size(); ++i)
        if (v[i] == s)
            return int(i);
    return -1;
}

}  // namespace

TEST(MovePicker, EveryLegalMoveOnceWithTheTtMoveFirst) {
    auto h = empty_history();
    for (const char* sfen : {
             "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
             "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P1P/PPSP1PN2/2G1KS1R1/LN3G2L b Bb 31",
             "4k4/9/4P4/9/9/9/9/9/4K4 b GSr 1",
             "4k4/4r4/9/9/9/9/9/9/4K4 b G 1",  // Black in check: evasions
         }) {
        Position p;
        ASSERT_TRUE(p.set(sfen).has_value()) << sfen;
        std::set<std::string> expected;
        for (const ScoredMove& sm : MoveList<LEGAL>(p))
            expected.insert(to_usi(sm.move));
        Move tt = MoveList<LEGAL>(p).begin()[MoveList<LEGAL>(p).size() / 2].move;
        Picked got = pick_all(p, tt, *h);
        ASSERT_FALSE(got.legal.empty()) << sfen;
        EXPECT_EQ(got.legal.front(), to_usi(tt)) << sfen;
        EXPECT_EQ(std::set<std::string>(got.legal.begin(), got.legal.end()), expected) << sfen;
        EXPECT_EQ(got.legal.size(), expected.size()) << sfen << ": a move was given twice";
    }
}

// White's king on 5a, a Black pawn on 5c guarding 5b, a gold in Black's hand. Of the gold's
// checking drops only G*5b is safe (the others stand next to the king, unguarded): it comes
// before every other quiet move, even one with a good history; the unsafe checks get no bonus
// and come after that move.
TEST(MovePicker, ASafeCheckComesBeforeOtherQuietMoves) {
    auto h = empty_history();
    Position p;
    ASSERT_TRUE(p.set("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").has_value());
    Move liked = Move::none();
    for (const ScoredMove& sm : MoveList<LEGAL>(p))
        if (to_usi(sm.move) == "G*1i")
            liked = sm.move;
    ASSERT_TRUE(liked);
    h->main[BLACK][from_index(liked)][liked.to()].update(500);
    Picked got = pick_all(p, Move::none(), *h);
    int safe = index_of(got.legal, "G*5b"), good = index_of(got.legal, "G*1i");
    ASSERT_GE(safe, 0);
    ASSERT_GE(good, 0);
    EXPECT_LT(safe, good);
    for (const char* other : {"G*9e", "5i4h", "G*4a", "G*6a", "G*4b", "G*6b"}) {
        int i = index_of(got.legal, other);
        ASSERT_GE(i, 0) << other;
        EXPECT_LT(good, i) << "G*1i (good history, no check) should come before " << other;
    }
}
