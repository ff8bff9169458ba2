// log_event: JSON lines with escaped strings; one write per line so lines never interleave.
#include "server/service/log.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

namespace hisha::server {

namespace {

std::atomic<bool> g_on{true};

void append_json(std::string& out, std::string_view s) {
    out += '"';
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += char(c);
        }
    }
    out += '"';
}

}  // namespace

void set_logging(bool on) { g_on = on; }
bool logging() { return g_on; }

void log_event(std::string_view event, std::initializer_list<std::pair<std::string_view, std::string_view>> fields) {
    if (!g_on)
        return;
    using namespace std::chrono;
    auto now = system_clock::now();
    std::time_t t = system_clock::to_time_t(now);
    int ms = int(duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char ts[40];
    std::snprintf(ts, sizeof ts, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
    std::string line = "{\"ts\":\"";
    line += ts;
    line += "\",\"event\":";
    append_json(line, event);
    for (auto& [k, v] : fields) {
        line += ',';
        append_json(line, k);
        line += ':';
        append_json(line, v);
    }
    line += "}\n";
    (void)!::write(2, line.data(), line.size());
}

}  // namespace hisha::server
