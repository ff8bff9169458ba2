// Positions for tests: pos_of(SFEN) sets one up under the relaxed rules (no king, extra pieces
// in hand ...) and fails the test when the SFEN does not read.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/position.h"

namespace hisha::testing {

inline std::unique_ptr<core::Position> pos_of(const std::string& sfen) {
    auto p = std::make_unique<core::Position>();
    EXPECT_TRUE(p->set(sfen, core::SfenRules::Relaxed).has_value()) << sfen;
    return p;
}

}  // namespace hisha::testing
