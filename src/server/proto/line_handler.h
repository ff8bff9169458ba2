// LineHandler: a line protocol as the network sees it. The session reads lines (CR LF or
// LF, telnet negotiation stripped) and hands them over one at a time, in order; the handler
// writes through the output function it was built with. A handler that must wait for
// something before it can answer (a password checked on another thread) pauses its input:
// the next lines wait, in order, and the socket is not read, until it resumes.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace hisha::server::proto {

class LineHandler {
public:
    /// What the session lends its handler besides output: input flow control and the peer.
    struct Flow {
        std::function<void()> pause, resume;
        std::string peer;  // the client's address
    };

    virtual ~LineHandler() = default;
    virtual void start() = 0;
    virtual void on_line(std::string_view line) = 0;
    /// A line longer than the session's limit arrived; it was discarded.
    virtual void on_line_too_long() = 0;
    virtual void on_disconnect() = 0;
    /// Called by the session before start().
    void set_flow(Flow flow) { flow_ = std::move(flow); }

protected:
    /// No more lines until resume_input() (which may come from inside this on_line).
    void pause_input() {
        if (flow_.pause)
            flow_.pause();
    }
    void resume_input() {
        if (flow_.resume)
            flow_.resume();
    }
    const std::string& peer() const { return flow_.peer; }

private:
    Flow flow_;
};

}  // namespace hisha::server::proto
