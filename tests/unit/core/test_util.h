// Helpers for core tests: build a position from an SFEN and moves from USI strings.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/position.h"

namespace hisha::test {

// Parses "7g7f", "2c2b+" or "P*5b" in the position (no legality check).
inline core::Move usi(const core::Position& pos, const std::string& s) {
    using namespace hisha::core;
    auto sq = [](char f, char r) { return make_square(File(f - '1'), Rank(r - 'a')); };
    if (s.size() == 4 && s[1] == '*') {
        const std::string letters = " PLNSBRG";
        return pos.make_drop(PieceType(letters.find(s[0])), sq(s[2], s[3]));
    }
    return pos.make_move(sq(s[0], s[1]), sq(s[2], s[3]), s.size() == 5 && s[4] == '+');
}

inline std::unique_ptr<core::Position> position(const std::string& sfen) {
    auto p = std::make_unique<core::Position>();
    auto r = p->set(sfen);
    EXPECT_TRUE(r.has_value()) << sfen << ": " << (r ? "" : r.error().to_string());
    return p;
}

}  // namespace hisha::test
