// TokenBucket: how fast one connection's commands or requests are handled. `burst` may come at
// once, then `per_second`; the session waits (and does not read its socket) until a token is
// there, so that a fast client is slowed down and loses nothing.
#pragma once

#include <algorithm>
#include <chrono>

namespace hisha::server::net {

class TokenBucket {
public:
    using Clock = std::chrono::steady_clock;
    TokenBucket(double per_second, double burst) : per_second_(per_second), burst_(burst), tokens_(burst) {}
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
};

}  // namespace hisha::server::net
