// Positions for tests: pos_of(SFEN) sets one up under the relaxed rules (no king, extra pieces
// in hand ...) and fails the test when the SFEN does not read; VARIED_SFENS, positions that
// exercise a notation; random_games, the positions along seeded random games.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"

namespace hisha::testing {

inline std::unique_ptr<core::Position> pos_of(const std::string& sfen) {
    auto p = std::make_unique<core::Position>();
    EXPECT_TRUE(p->set(sfen, core::SfenRules::Relaxed).has_value()) << sfen;
    return p;
}

/// Positions that exercise a notation: the start, and three of the perft table's (the "matsuri"
/// middle game: promoted pieces, pieces in both hands, White to move; and two with every kind of
/// piece in hand).
inline const std::vector<std::string> VARIED_SFENS = {
    std::string(core::START_SFEN),
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1",
};

/// Calls visit(pos, played) at every position of `games` random games from the start (each move
/// drawn uniformly from the legal ones, unpromoted included, by an mt19937 seeded with `seed`),
/// `played` being the number of moves before it: from 0 up to `plies`, or to a position without
/// a legal move. Stops at a fatal failure.
template <class Visit>
void random_games(unsigned seed, int games, int plies, Visit visit) {
    std::mt19937 rng(seed);
    for (int game = 0; game < games; ++game) {
        core::Position pos;
        for (int played = 0;; ++played) {
            visit(static_cast<const core::Position&>(pos), played);
            if (::testing::Test::HasFatalFailure())
                return;
            if (played == plies)
                break;
            core::MoveList<core::LEGAL, true> moves(pos);
            if (moves.size() == 0)
                break;
            pos.play((moves.begin() + rng() % moves.size())->move);
        }
    }
}

}  // namespace hisha::testing
