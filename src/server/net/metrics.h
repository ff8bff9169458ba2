// Metrics: what /metrics exposes (Prometheus' text format) beyond the service's own counts: the
// connections open by protocol, and histograms of the moves' latency on the server and of the
// database's commits. Touched by the event loop's thread only.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace hisha::server::service {
class Service;
}

namespace hisha::server::net {

class JobQueue;

/// A Prometheus histogram: counts of observations at or below each bound (seconds).
class Histogram {
public:
    explicit Histogram(std::vector<double> bounds) : bounds_(std::move(bounds)), counts_(bounds_.size() + 1) {}
    void observe(double value, std::uint64_t times = 1);
    /// `name`_bucket{le=...} (cumulative), `name`_sum and `name`_count, after HELP and TYPE.
    void write(std::string& out, std::string_view name, std::string_view help) const;
    std::uint64_t count() const { return count_; }

private:
    std::vector<double> bounds_;
    std::vector<std::uint64_t> counts_;  // per bucket, the last for above every bound
    double sum_ = 0;
    std::uint64_t count_ = 0;
};

struct Metrics {
    std::map<std::string, long> connections{{"text", 0}, {"csa", 0}, {"http", 0}, {"websocket", 0}};
    // From a move's group-commit batch taking its first write to the batch on disk (when the
    // reply may leave): the server's part of a move's latency.
    Histogram move_seconds{{0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1}};
    // From a move given to the service (Service::play: its line, request or WebSocket message
    // read and parsed on the event loop) to its relay handed to the opponent's connection (the
    // batch durable and the held output released to the sockets' writes), on every protocol.
    Histogram relay_seconds{{0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1}};
    // A batch's commit and its sync (fdatasync), together.
    Histogram commit_seconds{{0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1}};
    // The network's own limits, by name: commands, requests or WebSocket messages that waited
    // for their connection's token bucket (commands_per_connection), connections refused at
    // accept (connections_per_address).
    std::map<std::string, std::uint64_t> limited{{"commands_per_connection", 0}, {"connections_per_address", 0}};
};

/// The server's (one per process, like output_gate()).
Metrics& metrics();

/// Counts one open connection of `protocol` for as long as it lives.
class OpenConnection {
public:
    explicit OpenConnection(std::string protocol) : protocol_(std::move(protocol)) {
        ++metrics().connections[protocol_];
    }
    ~OpenConnection() { --metrics().connections[protocol_]; }
    OpenConnection(const OpenConnection&) = delete;
    OpenConnection& operator=(const OpenConnection&) = delete;

private:
    std::string protocol_;
};

/// The whole /metrics page: connections, games, moves, the scheduled tournaments' rounds, games
/// and waiting players, the latency histograms, the hashing and solver queues, and the requests
/// refused by each limit.
std::string metrics_text(service::Service& svc, const JobQueue& jobs);

}  // namespace hisha::server::net
