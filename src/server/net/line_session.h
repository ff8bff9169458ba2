// LineSession: one TCP connection of a line protocol (text or CSA). It owns its socket, reads
// with a C++20 coroutine (as_tuple error codes), cuts lines at LF with a size limit, strips
// telnet negotiation, closes idle connections, and writes through a queue with exactly one
// write in flight: what is durable goes out at once, by the server's write thread (Sender) or
// else with one non-blocking send; the rest waits for its batch (OutputGate) or for the socket.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "server/net/net.h"
#include "server/proto/line_handler.h"

namespace hisha::server::net {

struct LineLimits {
    std::size_t max_line = 4096;
    std::size_t max_queued = 4u << 20;  // bytes waiting to be written before we give up
    std::chrono::seconds idle{3600};
    double lines_per_second = 20;  // sustained command rate (token bucket)...
    double burst = 60;             // ...and how many may come at once
    int max_dropped = 100;         // lines refused in a row before the connection is closed
    bool telnet = true;            // strip IAC sequences
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
    asio::awaitable<void> read_loop();
    asio::awaitable<void> watchdog();
    void pump();  // starts the next write unless one is in flight or the gate is closed
    void write_rest();
    void written(std::size_t n, int error, std::string text);
    void handle_bytes(const char* data, std::size_t n);
    void shutdown();

    tcp::socket socket_;
    std::string peer_;
    LineLimits limits_;
    asio::steady_timer idle_timer_;
    std::shared_ptr<proto::LineHandler> handler_;
    struct Pending {
        std::string text;
        std::uint64_t ticket;  // the group-commit batch it waits for (OutputGate)
    };
    std::deque<Pending> queue_;
    std::string out_;  // what is being written: the queued text whose batches are durable
    std::size_t queued_bytes_ = 0;
    std::string partial_;
    bool discarding_ = false;
    int telnet_state_ = 0;
    double tokens_ = 0;
    std::chrono::steady_clock::time_point refilled_;
    int dropped_ = 0;
    bool admit();  // the rate limit: true when this line may be handled
    bool closing_ = false, closed_ = false, writing_ = false, parked_ = false;
    bool in_sender_ = false;  // the write in flight is with the write thread
};

}  // namespace hisha::server::net
