// AttemptLimits: token buckets and failure delays, by address and by account.
#include "server/service/attempt_limits.h"

#include <algorithm>
#include <cmath>

namespace hisha::server::service {

namespace {
// An entry not used for this long is forgotten (once a table is large): its bucket is full again
// and its failures are old.
constexpr Millis IDLE_MS = 10 * 60'000;
}  // namespace

const char* limit_name(Limit l) {
    switch (l) {
    case Limit::None: return "";
    case Limit::LoginAddress: return "login_per_address";
    case Limit::LoginAccount: return "login_per_account";
    case Limit::RegisterAddress: return "register_per_address";
    case Limit::LoginBackoffAddress: return "login_backoff_address";
    case Limit::LoginBackoffAccount: return "login_backoff_account";
    case Limit::NewGameAccount: return "new_game_per_account";
    case Limit::RequestAddress: return "request_per_address";
    case Limit::RequestAccount: return "request_per_account";
    }
    return "";
}

std::uint64_t AttemptCounters::count(Limit l) const {
    switch (l) {
    case Limit::LoginAddress: return login_address;
    case Limit::LoginAccount: return login_account;
    case Limit::RegisterAddress: return register_address;
    case Limit::LoginBackoffAddress: return backoff_address;
    case Limit::LoginBackoffAccount: return backoff_account;
    case Limit::NewGameAccount: return new_game_account;
    case Limit::RequestAddress: return request_address;
    case Limit::RequestAccount: return request_account;
    case Limit::None: break;
    }
    return 0;
}

AttemptLimits::Entry& AttemptLimits::entry(Table& t, const std::string& key, Millis now) {
    if (t.entries.size() >= t.sweep_at)
        forget_idle(t, now);
    Entry& e = t.entries[key];
    e.last_seen = now;
    return e;
}

void AttemptLimits::forget_idle(Table& t, Millis now) {
    Millis idle = std::max(IDLE_MS, 2 * policy_.max_delay_ms);
    std::erase_if(t.entries, [&](const auto& kv) { return now - kv.second.last_seen > idle; });
    t.sweep_at = std::max<std::size_t>(4096, 2 * t.entries.size());
}

Millis AttemptLimits::bucket_wait(Entry& e, const RateLimit& r, Millis now) {
    if (!r.on())
        return 0;
    if (e.fresh) {
        e.fresh = false;
        e.tokens = r.burst;
    } else {
        e.tokens = std::min(r.burst, e.tokens + double(now - e.refilled) * r.per_minute / 60'000.0);
    }
    e.refilled = now;
    if (e.tokens >= 1)
        return 0;
    if (r.per_minute <= 0)
        return IDLE_MS;  // no refill: the bucket is spent until the entry is forgotten
    return Millis(std::ceil((1 - e.tokens) * 60'000.0 / r.per_minute));
}

void AttemptLimits::take(Entry& e, const RateLimit& r) {
    if (r.on())
        e.tokens -= 1;
    e.refused = false;
}

Millis AttemptLimits::backoff_wait(const Entry& e, int free_failures, Millis now) const {
    if (policy_.max_delay_ms <= 0 || e.failures < free_failures)
        return 0;
    int doublings = std::min(e.failures - free_failures, 30);
    Millis delay = std::min(policy_.max_delay_ms, policy_.first_delay_ms << doublings);
    return std::max<Millis>(0, e.last_failure + delay - now);
}

AttemptLimits::Verdict AttemptLimits::refuse(Entry& e, Limit l, Millis wait) {
    Verdict v{l, wait, !e.refused};
    e.refused = true;
    switch (l) {
    case Limit::LoginAddress: ++counters_.login_address; break;
    case Limit::LoginAccount: ++counters_.login_account; break;
    case Limit::RegisterAddress: ++counters_.register_address; break;
    case Limit::LoginBackoffAddress: ++counters_.backoff_address; break;
    case Limit::LoginBackoffAccount: ++counters_.backoff_account; break;
    case Limit::NewGameAccount: ++counters_.new_game_account; break;
    case Limit::RequestAddress: ++counters_.request_address; break;
    case Limit::RequestAccount: ++counters_.request_account; break;
    case Limit::None: break;
    }
    return v;
}

AttemptLimits::Verdict AttemptLimits::login(const std::string& address, const std::string& account, Millis now) {
    Entry& by_address = entry(login_address_, address, now);
    Entry* by_account = account.empty() ? nullptr : &entry(login_account_, account, now);
    if (Millis w = backoff_wait(by_address, policy_.free_failures_address, now))
        return refuse(by_address, Limit::LoginBackoffAddress, w);
    if (Millis w = by_account ? backoff_wait(*by_account, policy_.free_failures_account, now) : 0)
        return refuse(*by_account, Limit::LoginBackoffAccount, w);
    if (Millis w = bucket_wait(by_address, policy_.login_per_address, now))
        return refuse(by_address, Limit::LoginAddress, w);
    if (Millis w = by_account ? bucket_wait(*by_account, policy_.login_per_account, now) : 0)
        return refuse(*by_account, Limit::LoginAccount, w);
    take(by_address, policy_.login_per_address);
    if (by_account)
        take(*by_account, policy_.login_per_account);
    return {};
}

AttemptLimits::Verdict AttemptLimits::registration(const std::string& address, Millis now) {
    return one_bucket(register_address_, address, policy_.register_per_address, Limit::RegisterAddress, now);
}

AttemptLimits::Verdict AttemptLimits::new_game(const std::string& account, Millis now) {
    return one_bucket(new_game_account_, account, policy_.new_game_per_account, Limit::NewGameAccount, now);
}

AttemptLimits::Verdict AttemptLimits::request(const std::string& address, const std::string& account, Millis now) {
    Entry* by_address = address.empty() ? nullptr : &entry(request_address_, address, now);
    Entry* by_account = account.empty() ? nullptr : &entry(request_account_, account, now);
    if (Millis w = by_address ? bucket_wait(*by_address, policy_.request_per_address, now) : 0)
        return refuse(*by_address, Limit::RequestAddress, w);
    if (Millis w = by_account ? bucket_wait(*by_account, policy_.request_per_account, now) : 0)
        return refuse(*by_account, Limit::RequestAccount, w);
    if (by_address)
        take(*by_address, policy_.request_per_address);
    if (by_account)
        take(*by_account, policy_.request_per_account);
    return {};
}

AttemptLimits::Verdict AttemptLimits::one_bucket(Table& t, const std::string& key, const RateLimit& r, Limit l,
                                                 Millis now) {
    Entry& e = entry(t, key, now);
    if (Millis w = bucket_wait(e, r, now))
        return refuse(e, l, w);
    take(e, r);
    return {};
}

void AttemptLimits::login_failed(const std::string& address, const std::string& account, Millis now) {
    for (Entry* e :
         {&entry(login_address_, address, now), account.empty() ? nullptr : &entry(login_account_, account, now)})
        if (e) {
            ++e->failures;
            e->last_failure = now;
        }
}

void AttemptLimits::login_succeeded(const std::string& address, const std::string& account) {
    if (auto it = login_address_.entries.find(address); it != login_address_.entries.end())
        it->second.failures = 0;
    if (auto it = login_account_.entries.find(account); it != login_account_.entries.end())
        it->second.failures = 0;
}

}  // namespace hisha::server::service
