// log_event over spdlog: the logger's pattern writes the timestamp (UTC) and the level, the
// message is the rest of the JSON object; every line is flushed at once (a file is read while
// the server runs, and lines never interleave).
#include "server/service/log.h"

#include <fmt/format.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>

#include "notation/encoding.h"

namespace hisha::server {

namespace {

std::atomic<bool> g_on{true};
std::atomic<bool> g_to_file{false};

// {"ts":"2026-11-27T11:09:54.123Z","level":"info", then the message: "event":"...",...}
constexpr const char* PATTERN = R"({"ts":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l",%v)";

std::shared_ptr<spdlog::logger> make_logger(spdlog::sink_ptr sink, spdlog::level::level_enum level) {
    auto logger = std::make_shared<spdlog::logger>("hisha-server", std::move(sink));
    logger->set_pattern(PATTERN, spdlog::pattern_time_type::utc);
    logger->set_level(level);
    logger->flush_on(spdlog::level::trace);
    return logger;
}

std::mutex g_mutex;  // guards the replacement of the logger (options are read before serving)

std::shared_ptr<spdlog::logger>& logger() {
    static std::shared_ptr<spdlog::logger> l =
        make_logger(std::make_shared<spdlog::sinks::stderr_sink_mt>(), spdlog::level::info);
    return l;
}

std::shared_ptr<spdlog::logger> current() {
    std::lock_guard lock(g_mutex);
    return logger();
}

// A JSON string of `s`; bytes that are not UTF-8 (a client's) become U+FFFD, so that every line
// stays valid JSON.
void append_json(fmt::memory_buffer& out, std::string_view s) {
    std::string repaired;
    if (!notation::is_valid_utf8(s)) {
        repaired = notation::to_utf8(s, notation::Encoding::Utf8).text;
        s = repaired;
    }
    auto it = std::back_inserter(out);
    out.push_back('"');
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(char(c));
        } else if (c < 0x20) {
            fmt::format_to(it, "\\u{:04x}", c);
        } else {
            out.push_back(char(c));
        }
    }
    out.push_back('"');
}

spdlog::level::level_enum level_of(std::string_view event) {
    std::string_view name = event_level(event);
    return name == "error" ? spdlog::level::err : name == "warn" ? spdlog::level::warn : spdlog::level::info;
}

}  // namespace

void set_logging(bool on) { g_on = on; }
bool logging() { return g_on && current()->should_log(spdlog::level::info); }

bool set_log_level(std::string_view name) {
    static const std::pair<std::string_view, spdlog::level::level_enum> levels[] = {
        {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug}, {"info", spdlog::level::info},
        {"warn", spdlog::level::warn},   {"error", spdlog::level::err},   {"off", spdlog::level::off}};
    for (auto [n, level] : levels)
        if (n == name) {
            current()->set_level(level);
            return true;
        }
    return false;
}

std::string set_log_file(const std::string& path) {
    // spdlog would create missing directories: a mistyped path is refused instead.
    if (!std::ofstream(path, std::ios::app))
        return std::strerror(errno);
    try {
        auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(path, false);
        std::lock_guard lock(g_mutex);
        logger() = make_logger(std::move(sink), logger()->level());
        g_to_file = true;
        return {};
    } catch (const spdlog::spdlog_ex& e) {
        return e.what();
    }
}

std::string_view event_level(std::string_view event) {
    for (std::string_view e :
         {"commit_failed", "audit_failed", "listen_failed", "open_failed", "start_failed", "bot_failed"})
        if (event == e)
            return "error";
    for (std::string_view e : {"refused", "limited", "banned", "admin_refused", "race_retried", "csa_comment_dropped",
                               "mail_retry", "mail_bounced", "mail_given_up", "mail_limited"})
        if (event == e)
            return "warn";
    return "info";
}

void log_event(std::string_view event, std::initializer_list<std::pair<std::string_view, std::string_view>> fields) {
    if (!g_on)
        return;
    auto l = current();
    spdlog::level::level_enum level = level_of(event);
    if (!l->should_log(level))
        return;
    fmt::memory_buffer line;
    fmt::format_to(std::back_inserter(line), "\"event\":");
    append_json(line, event);
    for (auto& [k, v] : fields) {
        line.push_back(',');
        append_json(line, k);
        line.push_back(':');
        append_json(line, v);
    }
    line.push_back('}');
    l->log(level, std::string_view(line.data(), line.size()));
}

void log_failure(std::string_view event, std::string_view text,
                 std::initializer_list<std::pair<std::string_view, std::string_view>> fields) {
    fmt::print(stderr, "hisha-server: {}\n", text);
    if (g_to_file)
        log_event(event, fields);
}

}  // namespace hisha::server
