// The network built into the binary: src/engine/nnue/nets/hisha.nnue when the tree has one
// (the last training pass that passed, NETS.md), embedded at build time with .incbin.
#pragma once

#include <memory>
#include <string_view>

#include "engine/nnue/network.h"

namespace hisha::engine::nnue {

/// The built-in net file's bytes; empty when the build has none.
std::string_view builtin_net_bytes();

/// The built-in net, read once; null when the build has none (or, which a test rules out, it
/// does not read).
std::shared_ptr<const Network> builtin_net();

}  // namespace hisha::engine::nnue
