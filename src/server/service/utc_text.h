// Times as the server writes them for people and protocols: UTC, in a strftime format.
#pragma once

#include <ctime>
#include <string>

#include "server/service/clock.h"

namespace hisha::server::service {

/// `ms` (epoch milliseconds) in UTC, written with strftime's `format` ("%Y-%m-%d %H:%M").
inline std::string utc_text(Millis ms, const char* format) {
    std::time_t t = std::time_t(ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, format, &tm);
    return buf;
}

/// How long a ban holds: "until lifted" (expires 0) or "until 2025-01-31 18:00 UTC".
inline std::string until_text(Millis expires) {
    return expires == 0 ? "until lifted" : "until " + utc_text(expires, "%Y-%m-%d %H:%M UTC");
}

}  // namespace hisha::server::service
