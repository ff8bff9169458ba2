// The text protocol's IF (CONDITIONAL), over a real socket against a hisha-server process:
// conditional moves stored, shown, played by the server when the opponent's move matches (the
// opponent hears of the reply as of any move), the subtree kept, removed with IF -.
#include <gtest/gtest.h>

#include "server_process.h"
#include "test_util.h"
#include "text_session.h"

using namespace hisha::server::test;

TEST(TextConditional, StoredShownPlayedAndRemoved) {
    auto [srv, alice, bob] = TwoPlayers(temp_db("text_conditional"));
    EXPECT_TRUE(has(alice->cmd("NEW bob P-7f"), "Challenge 1 added"));
    EXPECT_TRUE(has(bob->cmd("N 1"), "You accepted challenge 1: game 1"));
    alice->read_until("accepted challenge 1");
    alice->drain();
    EXPECT_TRUE(has(alice->cmd("B 1"), "White (bob) to move."));
    std::string set = alice->cmd("IF 3c3d 2g2f (8c8d 2f2e)");
    EXPECT_TRUE(has(set, "Conditional moves in game 1: 3c3d 2g2f (8c8d 2f2e)")) << set;
    EXPECT_TRUE(has(alice->cmd("CONDITIONAL"), "Conditional moves in game 1: 3c3d 2g2f (8c8d 2f2e)"));
    // Bob is to move: nothing to answer; a bad tree is refused with the reason.
    EXPECT_TRUE(has(bob->cmd("B 1"), "White (bob) to move."));
    EXPECT_TRUE(has(bob->cmd("IF 2g2f 8c8d"), "Error: it is your turn"));
    EXPECT_TRUE(has(alice->cmd("IF 3c3e 2g2f"), "Error: the opponent's move '3c3e'"));
    EXPECT_TRUE(has(alice->cmd("IF 3c3d"), "Error: usage: IF"));
    // Bob's 3c3d: the server answers 2g2f for alice at once.
    std::string played = play(*bob, "P-3d");
    EXPECT_TRUE(has(played, "you played P-3d")) << played;
    if (!has(played, "alice played P-2f"))  // (the notice may come after the prompt)
        played += bob->read_until("alice played P-2f");
    EXPECT_TRUE(has(played, "alice played P-2f")) << played;
    alice->drain();
    EXPECT_TRUE(has(alice->cmd("IF"), "Conditional moves in game 1: 8c8d 2f2e"));
    EXPECT_TRUE(has(alice->cmd("IF -"), "Conditional moves of game 1 removed."));
    EXPECT_TRUE(has(alice->cmd("IF"), "No conditional moves in game 1."));
    EXPECT_TRUE(has(alice->cmd("HELP -n IF"), "Usage: IF"));
}
