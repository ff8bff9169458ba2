// AttemptLimits: how often logins and registrations may be tried, new games and challenges
// made, and JSON API requests sent. Token buckets per address (logins, registrations, API
// requests) and per account (logins, new games and challenges, API requests and WebSocket
// messages), and a delay after consecutive failed
// logins of an address or an account that doubles with each failure and is forgotten at the
// next success. Pure bookkeeping over a clock it is given; the service consults it before it
// spends a password hash on an attempt.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "server/service/clock.h"

namespace hisha::server::service {

/// A token bucket: `burst` attempts at once, then `per_minute` (burst 0: no limit).
struct RateLimit {
    double burst = 0;
    double per_minute = 0;
    bool on() const { return burst > 0; }
};

struct AttemptPolicy {
    RateLimit login_per_address{20, 30};
    RateLimit login_per_account{10, 10};
    RateLimit register_per_address{30, 10};
    RateLimit new_game_per_account{20, 20};    // challenges, accepted challenges, web games, CSA waits
    RateLimit request_per_address{600, 6000};  // JSON API requests (HTTP) of an address: 100/s
    RateLimit request_per_account{300, 3000};  // ... of an account, and its WebSocket messages: 50/s
    int free_failures_address = 10;            // failed logins in a row from an address before delays
    int free_failures_account = 3;             // ... and of an account
    Millis first_delay_ms = 1000;              // the first delay, doubled at each further failure...
    Millis max_delay_ms = 60'000;              // ...up to this (0: no delays)
};

/// The limits, as named in logs, counters and replies.
enum class Limit {
    None,
    LoginAddress,
    LoginAccount,
    RegisterAddress,
    LoginBackoffAddress,
    LoginBackoffAccount,
    NewGameAccount,
    RequestAddress,
    RequestAccount,
};
const char* limit_name(Limit l);

/// Attempts refused by each limit since the start (what /metrics exposes).
struct AttemptCounters {
    std::uint64_t login_address = 0, login_account = 0, register_address = 0;
    std::uint64_t backoff_address = 0, backoff_account = 0;
    std::uint64_t new_game_account = 0;
    std::uint64_t request_address = 0, request_account = 0;
    std::uint64_t busy = 0;  // refused because the hashing queue was full
    std::uint64_t count(Limit l) const;
};

class AttemptLimits {
public:
    explicit AttemptLimits(AttemptPolicy policy = {}) : policy_(policy) {}
    struct Verdict {
        Limit limit = Limit::None;  // None: go ahead (a token was taken from each bucket)
        Millis retry_after_ms = 0;
        bool first = false;  // the first refusal of this address or account since it was last let in
    };
    /// A login of `account` (its name key; "" when no such account) from `address`.
    Verdict login(const std::string& address, const std::string& account, Millis now);
    Verdict registration(const std::string& address, Millis now);
    /// A new challenge or game of `account` (its name key).
    Verdict new_game(const std::string& account, Millis now);
    /// A JSON API request or WebSocket message of `address` ("": not counted by address) and
    /// `account` (its name key; "": no login).
    Verdict request(const std::string& address, const std::string& account, Millis now);
    /// How an admitted login came out (a wrong password, or an unknown account: failed).
    void login_failed(const std::string& address, const std::string& account, Millis now);
    void login_succeeded(const std::string& address, const std::string& account);
    const AttemptCounters& counters() const { return counters_; }
    AttemptCounters& counters() { return counters_; }
    const AttemptPolicy& policy() const { return policy_; }

private:
    struct Entry {
        double tokens = 0;
        Millis refilled = 0;
        bool fresh = true;  // tokens not set yet (a full bucket)
        int failures = 0;   // failed logins in a row
        Millis last_failure = 0;
        bool refused = false;  // refused since last let in (logged once)
        Millis last_seen = 0;
    };
    struct Table {
        std::map<std::string, Entry> entries;
        std::size_t sweep_at = 4096;  // forget idle entries when there are this many
    };
    static Millis bucket_wait(Entry& e, const RateLimit& r, Millis now);  // 0: a token is there
    static void take(Entry& e, const RateLimit& r);
    Millis backoff_wait(const Entry& e, int free_failures, Millis now) const;
    Verdict refuse(Entry& e, Limit l, Millis wait);
    /// An attempt that only `key`'s bucket in `t` limits (`r`; refused as `l`).
    Verdict one_bucket(Table& t, const std::string& key, const RateLimit& r, Limit l, Millis now);
    Entry& entry(Table& t, const std::string& key, Millis now);
    void forget_idle(Table& t, Millis now);

    AttemptPolicy policy_;
    Table login_address_, login_account_, register_address_, new_game_account_;
    Table request_address_, request_account_;
    AttemptCounters counters_;
};

}  // namespace hisha::server::service
