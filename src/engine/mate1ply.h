// A complete one-ply mate test: some checking move after which the opponent has no legal
// reply. Exact (never a false mate), used near the root and at inner nodes of the search;
// the tsume solver has its own, faster one.
#pragma once

#include "core/position.h"

namespace hisha::engine {

/// A move that mates at once, or Move::none(). The position is restored.
core::Move mate_in_one(core::Position& pos);

}  // namespace hisha::engine
