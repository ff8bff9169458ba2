// Conditional moves (issue 20): a player whose opponent is to move leaves a small tree of
// "if he plays X, I reply Y (then if he plays Z, I reply W ...)"; when the opponent's move
// matches a branch the service plays the reply for the player at once and keeps the branch's
// subtree; any other move clears the tree. Moves are USI; the tree is checked against the
// game's position when it is stored (every move legal where it is played) and bounded in
// depth and size. Stored as text (store::Store::conditional):
//   PLY BRANCHES      BRANCHES := (IF REPLY ['(' BRANCHES ')'])*
// e.g. "12 7g7f 3c3d (2g2f 8c8d) 2g2f 8c8d": made when the game had 12 plies (the opponent to
// move), the tree's moves answer the 13th ply.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"
#include "server/service/reply.h"

namespace hisha::server::service {

struct ConditionalBranch {
    std::string move;   // the opponent's move (USI)
    std::string reply;  // the player's answer (USI)
    std::vector<ConditionalBranch> then;
};

struct ConditionalTree {
    int ply = 0;  // the game's plies when it applies: its branches' moves are the next ply
    std::vector<ConditionalBranch> branches;
    bool empty() const { return branches.empty(); }
};

/// At most this many levels (a branch and its answer is one) and branches in all.
inline constexpr int MAX_CONDITIONAL_DEPTH = 8;
inline constexpr int MAX_CONDITIONAL_BRANCHES = 64;

/// The tree's text (the store's form; the text protocol's too).
std::string write_conditional(const ConditionalTree& t);
/// Reads write_conditional's text; nullopt when malformed.
std::optional<ConditionalTree> read_conditional(std::string_view text);
/// Reads BRANCHES (without the ply) and checks them in `pos` (the opponent to move): every move
/// legal where it is played, no move twice among siblings, the bounds. The moves come back in
/// their USI spelling. `pos` is left as it was.
Reply<std::vector<ConditionalBranch>> check_conditional(core::Position& pos, std::vector<ConditionalBranch> branches);

}  // namespace hisha::server::service
