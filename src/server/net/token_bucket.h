// TokenBucket: how fast one connection's commands, requests or WebSocket messages are handled.
// `burst` may come at once, then `per_second`; the session waits (and does not read its socket)
// until a token is there, so that a fast client is slowed down and loses nothing. Each wait is
// counted in /metrics (hisha_limited_total{limit="commands_per_connection"}), and the first of a
// connection is logged as a "limited" event with its protocol and address (see describe()).
#pragma once

#include <algorithm>
#include <chrono>
#include <string>

#include "server/net/metrics.h"
#include "server/service/log.h"

namespace hisha::server::net {

class TokenBucket {
public:
    using Clock = std::chrono::steady_clock;
    TokenBucket(double per_second, double burst) : per_second_(per_second), burst_(burst), tokens_(burst) {}
    /// Names the connection for the log ("text", "csa", "http", "websocket"; the client's address).
    void describe(std::string protocol, std::string peer) {
        protocol_ = std::move(protocol);
        peer_ = std::move(peer);
    }
    /// How long until a token is there (zero: now).
    Clock::duration wait() {
        if (per_second_ <= 0)
            return {};
        auto now = Clock::now();
        if (refilled_ != Clock::time_point{})
            tokens_ = std::min(burst_, tokens_ + std::chrono::duration<double>(now - refilled_).count() * per_second_);
        refilled_ = now;
        if (tokens_ >= 1)
            return {};
        ++metrics().limited["commands_per_connection"];
        if (!logged_) {
            logged_ = true;
            log_event("limited", {{"limit", "commands_per_connection"}, {"protocol", protocol_}, {"peer", peer_}});
        }
        return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>((1 - tokens_) / per_second_));
    }
    /// Takes the token wait() found.
    void take() {
        if (per_second_ > 0)
            tokens_ -= 1;
    }

private:
    double per_second_, burst_, tokens_;
    Clock::time_point refilled_;
    std::string protocol_, peer_;
    bool logged_ = false;  // the first wait of this connection was logged
};

}  // namespace hisha::server::net
