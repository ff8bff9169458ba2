// LineHandler: a line protocol as the network sees it. The session reads lines (CR LF or
// LF, telnet negotiation stripped) and hands them over; the handler writes through the
// output function it was built with.
#pragma once

#include <string_view>

namespace hisha::server::proto {

class LineHandler {
public:
    virtual ~LineHandler() = default;
    virtual void start() = 0;
    virtual void on_line(std::string_view line) = 0;
    /// A line longer than the session's limit arrived; it was discarded.
    virtual void on_line_too_long() = 0;
    /// A line came faster than the session's rate limit allows; it was discarded.
    virtual void on_rate_limited() = 0;
    virtual void on_disconnect() = 0;
};

}  // namespace hisha::server::proto
