// Structured logs: one JSON object per line on stderr ({"ts":..., "event":..., fields...}), for
// the events an operator follows (listening, connections, logins, games, failures). Off with
// `hisha-server --log off`.
#pragma once

#include <initializer_list>
#include <string_view>
#include <utility>

namespace hisha::server {

void set_logging(bool on);
bool logging();
/// Writes {"ts":"<UTC ISO 8601 with ms>","event":"<event>","<key>":"<value>",...}.
void log_event(std::string_view event,
               std::initializer_list<std::pair<std::string_view, std::string_view>> fields = {});

}  // namespace hisha::server
