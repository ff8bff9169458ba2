// JSON as text for the wire and the log. Strings in replies often come from clients (names, paths,
// messages) and may hold bytes that are not UTF-8; nlohmann::json::dump() throws on them, which
// would end the server's thread. Every reply is written with json_text(), which puts U+FFFD for
// such bytes instead.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace hisha::server::proto {

inline std::string json_text(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace hisha::server::proto
