// Small helpers shared by the JSON API's source files (json_api.cpp, json_api_admin.cpp):
// replies, a request body's string fields, ids in paths.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>

#include "server/proto/json_api.h"
#include "server/proto/json_text.h"

namespace hisha::server::proto::json_util {

/// A JSON reply with an HTTP status.
inline HttpReply reply(int status, const nlohmann::json& j) { return {status, json_text(j), "application/json", {}}; }
/// {"error": msg} with an HTTP status.
inline HttpReply error(int status, const std::string& msg) { return reply(status, nlohmann::json{{"error", msg}}); }

/// A positive number from a path segment, or none.
inline std::optional<std::int64_t> to_id(const std::string& s) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v <= 0)
        return std::nullopt;
    return v;
}

/// The string field `key` of a request body, or "" when absent or not a string.
inline std::string str(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace hisha::server::proto::json_util
