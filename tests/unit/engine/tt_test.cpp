// Transposition table: what is stored is found again, and a position that only shares the
// cluster of a stored one is not mistaken for it.
#include <gtest/gtest.h>

#include "engine/tt.h"

using namespace hisha::engine;

TEST(TranspositionTable, FindsWhatWasStored) {
    TranspositionTable tt;
    tt.resize(1);
    TTData d;
    TranspositionTable::Entry* slot = nullptr;
    const hisha::core::Key key = 0x9e3779b97f4a7c14ULL;
    EXPECT_FALSE(tt.probe(key, d, slot));
    tt.store(slot, key, 123, false, BOUND_EXACT, 5, hisha::core::Move16(), 45);
    ASSERT_TRUE(tt.probe(key, d, slot));
    EXPECT_EQ(d.value, 123);
    EXPECT_EQ(d.eval, 45);
    EXPECT_EQ(d.depth, 5);
    EXPECT_EQ(d.bound, BOUND_EXACT);
}

TEST(TranspositionTable, ASharedClusterIsNotAHit) {
    // The cluster comes from a key's high bits: keys that differ only in their low bits share
    // it, and every one of them must still miss until it is stored itself.
    TranspositionTable tt;
    tt.resize(1);
    TTData d;
    TranspositionTable::Entry* slot = nullptr;
    const hisha::core::Key base = 0x5bd1e9955bd1e994ULL & ~0xffffULL;
    for (hisha::core::Key low = 2; low <= 8; low += 2) {
        EXPECT_FALSE(tt.probe(base | low, d, slot)) << low;
        tt.store(slot, base | low, Value(low), false, BOUND_EXACT, 3, hisha::core::Move16(), 0);
    }
    EXPECT_FALSE(tt.probe(base | 0x40, d, slot));
    EXPECT_FALSE(tt.probe(base | 1, d, slot)) << "the other side to move is another position";
    ASSERT_TRUE(tt.probe(base | 8, d, slot));
    EXPECT_EQ(d.value, 8);
}
