// The service's answers: a value or the message that tells the player why not.
#pragma once

#include <string>

#include "core/result.h"

namespace hisha::server::service {

template <typename T>
using Reply = core::Result<T, std::string>;
inline core::Unexpected<std::string> fail(std::string msg) { return {std::move(msg)}; }

}  // namespace hisha::server::service
