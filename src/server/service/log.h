// Structured logs: one JSON object per line ({"ts":..., "level":..., "event":..., fields...}), for
// the events an operator follows (listening, connections, logins, games, failures), written by
// spdlog on stderr or into a file (`hisha-server --log-file PATH`). Each event has a level by its
// kind (refusals and limits warn, failed commits are errors, the rest info); `--log-level`
// leaves out those below it. Off with `hisha-server --log off`.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace hisha::server {

void set_logging(bool on);
bool logging();
/// The least level written: trace, debug, info (the default), warn, error or off; false when
/// `name` is none of them.
bool set_log_level(std::string_view name);
/// Writes the log into `path` (appended) instead of stderr: "" or why it cannot.
std::string set_log_file(const std::string& path);
/// The level an event is written at: "warn" for refusals and limits, "error" for failures, else "info".
std::string_view event_level(std::string_view event);
/// Writes {"ts":"<UTC ISO 8601 with ms>","level":"<level>","event":"<event>","<key>":"<value>",...}.
void log_event(std::string_view event,
               std::initializer_list<std::pair<std::string_view, std::string_view>> fields = {});
/// A failure the operator must see even with the log off: `hisha-server: TEXT` on stderr, and,
/// when the log goes to a file (--log-file), the event there too (level error).
void log_failure(std::string_view event, std::string_view text,
                 std::initializer_list<std::pair<std::string_view, std::string_view>> fields = {});

}  // namespace hisha::server
