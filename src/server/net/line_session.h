// LineSession: one TCP connection of a line protocol (text or CSA). It owns its socket, reads
// with a C++20 coroutine (as_tuple error codes), cuts lines at LF with a size limit, strips
// telnet negotiation, closes idle connections (no complete line for `idle`), connections that
// take longer than `line_timeout` to finish a line they began (slowloris) and connections that
// send a line of more than `max_discard` bytes (an endless line is not read on and on), and
// writes through a queue with exactly one
// write in flight: what is durable goes out at once, by the server's write thread (Sender) or
// else with one non-blocking send; the rest waits for its batch (OutputGate) or for the socket.
// Input is never thrown away: lines are handed over in order, as fast as the rate limit allows
// and while the handler has not paused them; meanwhile the socket is not read (backpressure).
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "server/net/metrics.h"
#include "server/net/net.h"
#include "server/net/token_bucket.h"
#include "server/proto/line_handler.h"

namespace hisha::server::net {

struct LineLimits {
    std::size_t max_line = 4096;
    std::size_t max_queued = 4u << 20;      // bytes waiting to be written before we give up
    std::chrono::seconds idle{3600};        // no complete line for this long: closed
    std::chrono::seconds line_timeout{60};  // a line begun and not ended for this long: closed (0: never)
    std::size_t max_discard = 64u << 10;    // a line this long is not read further: closed
    double lines_per_second = 20;           // sustained command rate (token bucket): faster lines wait...
    double burst = 60;                      // ...once this many have come at once
    bool telnet = true;                     // strip IAC sequences
    std::string protocol = "text";          // the connection's kind, as /metrics counts it
};

class LineSession : public std::enable_shared_from_this<LineSession> {
public:
    using Output = std::function<void(std::string)>;
    using Factory = std::function<std::shared_ptr<proto::LineHandler>(Output out, std::function<void()> close)>;

    LineSession(tcp::socket socket, LineLimits limits);
    void start(const Factory& make_handler);
    void send(std::string text);
    /// Closes after the queued output is written.
    void close();
    /// Closes now (server shutdown).
    void abort();
    const std::string& peer() const { return peer_; }

private:
    struct Input {
        std::string text;
        bool too_long = false;  // stands for a line cut off at the length limit
    };

    asio::awaitable<void> read_loop();
    /// Hands the lines read over until none is left (waiting for tokens or a resume).
    asio::awaitable<void> handle_lines();
    asio::awaitable<void> sleep(std::chrono::steady_clock::duration d);
    void deliver(const Input& in);
    void cut_lines(const char* data, std::size_t n);
    bool telnet_byte(unsigned char c);  // true when `c` belongs to a telnet command
    void end_line();
    void pause();
    void resume();
    asio::awaitable<void> watchdog();
    /// Sets the watchdog's timer: the idle deadline, or the line's when a line is under way.
    void arm_timer();
    void pump();  // starts the next write unless one is in flight or the gate is closed
    void write_rest();
    void written(std::size_t n, int error, std::string text);
    void shutdown();

    tcp::socket socket_;
    std::string peer_;
    LineLimits limits_;
    OpenConnection open_;  // counted while it lives
    asio::steady_timer idle_timer_;
    asio::steady_timer wake_;  // handle_lines() waiting for a token or a resume
    std::shared_ptr<proto::LineHandler> handler_;
    std::deque<Input> lines_;  // read, not yet handled
    bool paused_ = false;
    struct Pending {
        std::string text;
        std::uint64_t ticket;  // the group-commit batch it waits for (OutputGate)
    };
    std::deque<Pending> queue_;
    std::string out_;  // what is being written: the queued text whose batches are durable
    std::size_t queued_bytes_ = 0;
    std::string partial_;
    bool discarding_ = false;
    std::size_t discarded_ = 0;                           // bytes of the line too long thrown away
    bool overflow_ = false;                               // the line went past max_discard: the connection closes
    std::chrono::steady_clock::time_point last_line_;     // the last complete line (or the connection)
    std::chrono::steady_clock::time_point line_started_;  // the first byte of the line under way ({}: none)
    bool line_deadline_ = false;                          // the timer holds the line's deadline
    int telnet_state_ = 0;
    TokenBucket bucket_;  // the rate limit
    bool closing_ = false, closed_ = false, writing_ = false, parked_ = false;
    bool in_sender_ = false;  // the write in flight is with the write thread
};

}  // namespace hisha::server::net
