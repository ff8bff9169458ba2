// Service: logins, registrations and password changes for the protocols. The password hash
// (argon2id, 64 MiB by default: tens of milliseconds) runs on the environment's offload
// threads; what it reads is copied to it, and its result is applied back on the loop, where
// the account may have changed meanwhile. Attempts are limited first (AttemptLimits).
#include <sodium.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "server/service/log.h"
#include "server/service/service.h"

namespace hisha::server::service {

namespace {

AuthReply refused(std::string why) {
    AuthReply r;
    r.status = AuthReply::Status::Refused;
    r.error = std::move(why);
    return r;
}

AuthReply accepted(const UserRow& u) {
    AuthReply r;
    r.user = u;
    return r;
}

int whole_seconds(Millis ms) { return int(std::max<Millis>(1, (ms + 999) / 1000)); }

std::string limit_text(Limit l, int seconds) {
    std::string what;
    switch (l) {
    case Limit::LoginAddress: what = "too many login attempts from your address"; break;
    case Limit::LoginAccount: what = "too many login attempts for this account"; break;
    case Limit::LoginBackoffAddress: what = "too many failed logins from your address"; break;
    case Limit::LoginBackoffAccount: what = "too many failed logins for this account"; break;
    case Limit::RegisterAddress: what = "too many new accounts from your address"; break;
    case Limit::NewGameAccount: what = "too many new games and challenges"; break;
    case Limit::RequestAddress: what = "too many requests from your address"; break;
    case Limit::RequestAccount: what = "too many requests for this account"; break;
    case Limit::None: break;
    }
    return what + ": retry in " + std::to_string(seconds) + " s";
}

constexpr const char* INCORRECT = "incorrect name or password";

}  // namespace

std::string password_hash(std::string_view pw, unsigned long long ops, std::size_t mem) {
    char out[crypto_pwhash_STRBYTES];
    ops = std::max<unsigned long long>(ops, crypto_pwhash_OPSLIMIT_MIN);
    mem = std::max<std::size_t>(mem, crypto_pwhash_MEMLIMIT_MIN);
    if (crypto_pwhash_str_alg(out, pw.data(), pw.size(), ops, mem, crypto_pwhash_ALG_ARGON2ID13) != 0)
        return {};
    return out;
}

bool password_matches(const std::string& hash, std::string_view pw) {
    return crypto_pwhash_str_verify(hash.c_str(), pw.data(), pw.size()) == 0;
}

bool Service::limited(const AttemptLimits::Verdict& v, const std::string& peer, std::string_view name,
                      const AuthDone& done) {
    if (v.limit == Limit::None)
        return false;
    AuthReply r;
    r.status = AuthReply::Status::Limited;
    r.retry_after_s = whole_seconds(v.retry_after_ms);
    r.error = limit_text(v.limit, r.retry_after_s);
    if (v.first)  // once until this address or account is let in again; the counter has them all
        log_event("limited", {{"limit", limit_name(v.limit)},
                              {"peer", peer},
                              {"name", name},
                              {"retry_after_s", std::to_string(r.retry_after_s)},
                              {"refused", std::to_string(attempts_.counters().count(v.limit))}});
    done(r);
    return true;
}

Reply<void> Service::admit_request(const std::string& peer, std::string_view user) {
    retire_finished();  // finished games read by earlier requests (GET of records) leave memory
    limit_retry_after_s_ = 0;
    auto v = attempts_.request(peer, user.empty() ? std::string() : name_key(user), env_.now());
    if (v.limit == Limit::None)
        return {};
    limit_retry_after_s_ = whole_seconds(v.retry_after_ms);
    if (v.first)
        log_event("limited", {{"limit", limit_name(v.limit)},
                              {"peer", peer},
                              {"name", user},
                              {"retry_after_s", std::to_string(limit_retry_after_s_)},
                              {"refused", std::to_string(attempts_.counters().count(v.limit))}});
    return fail(limit_text(v.limit, limit_retry_after_s_));
}

Reply<void> Service::admit_new_game(std::string_view user) {
    limit_retry_after_s_ = 0;
    if (const UserRow* u = this->user(user); u && !u->bot.empty())
        return {};  // the server's own engines answer whoever challenges them
    auto v = attempts_.new_game(name_key(user), env_.now());
    if (v.limit == Limit::None)
        return {};
    limit_retry_after_s_ = whole_seconds(v.retry_after_ms);
    if (v.first)
        log_event("limited", {{"limit", limit_name(v.limit)},
                              {"name", user},
                              {"retry_after_s", std::to_string(limit_retry_after_s_)},
                              {"refused", std::to_string(attempts_.counters().count(v.limit))}});
    return fail(limit_text(v.limit, limit_retry_after_s_));
}

bool Service::offload_hash(std::function<void()> work, std::function<void()> then, const AuthDone& done) {
    if (hashing_ >= config_.hash_queue) {
        ++attempts_.counters().busy;
        AuthReply r;
        r.status = AuthReply::Status::Busy;
        double threads = std::max(1, config_.hash_threads);
        r.retry_after_s = whole_seconds(Millis(std::ceil(double(hashing_) * hash_ms_ / threads)));
        r.error = "server busy, retry in " + std::to_string(r.retry_after_s) + " s";
        if (!busy_logged_)
            log_event("limited", {{"limit", "hash_queue"},
                                  {"pending", std::to_string(hashing_)},
                                  {"refused", std::to_string(attempts_.counters().busy)}});
        busy_logged_ = true;
        done(r);
        return false;
    }
    ++hashing_;
    auto took_ms = std::make_shared<double>(0);
    auto timed = [work = std::move(work), took_ms] {
        auto t0 = std::chrono::steady_clock::now();
        work();
        *took_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    env_.offload(std::move(timed), [this, then = std::move(then), took_ms] {
        --hashing_;
        busy_logged_ = busy_logged_ && hashing_ > 0;
        hash_ms_ = 0.8 * hash_ms_ + 0.2 * *took_ms;
        then();
    });
    return true;
}

// --- login

void Service::start_login(std::string peer, std::string name, std::string password, AuthDone done) {
    if (refused_by_ban(peer, name, done))
        return;
    UserRow* u = user_mut(name);
    std::string account = u ? name_key(name) : "";
    if (limited(attempts_.login(peer, account, env_.now()), peer, name, done))
        return;
    if (!u || !u->bot.empty()) {  // nothing to hash
        attempts_.login_failed(peer, account, env_.now());
        return done(refused(INCORRECT));
    }
    auto ok = std::make_shared<bool>(false);
    std::string hash = u->password_hash;
    offload_hash([hash, password = std::move(password), ok] { *ok = password_matches(hash, password); },
                 [this, peer, name, hash, ok, done] { done(finish_login(peer, name, hash, *ok)); }, done);
}

AuthReply Service::finish_login(const std::string& peer, const std::string& name, const std::string& checked_hash,
                                bool ok) {
    UserRow* u = user_mut(name);
    if (!ok || !u || u->password_hash != checked_hash) {  // (or the password changed meanwhile)
        attempts_.login_failed(peer, name_key(name), env_.now());
        return refused(INCORRECT);
    }
    if (AuthReply banned; refused_by_ban(peer, u->name, [&banned](const AuthReply& r) { banned = r; }))
        return banned;  // banned while the password was being checked
    attempts_.login_succeeded(peer, name_key(name));
    u->last_login = env_.now();
    store_.save_user(*u);
    return accepted(*u);
}

// --- registration

void Service::start_register(std::string peer, std::string name, std::string password, AuthDone done) {
    if (refused_by_ban(peer, "", done))
        return;
    if (auto r = check_new_account(name, password); !r)
        return done(refused(r.error()));
    if (limited(attempts_.registration(peer, env_.now()), peer, name, done))
        return;
    auto hash = std::make_shared<std::string>();
    offload_hash([hash, password = std::move(password), ops = config_.password_ops,
                  mem = config_.password_mem] { *hash = password_hash(password, ops, mem); },
                 [this, name, hash, done] { done(finish_register(name, *hash)); }, done);
}

AuthReply Service::finish_register(const std::string& name, const std::string& hash) {
    if (hash.empty())
        return refused("cannot hash the password (out of memory)");
    if (user(name))  // registered meanwhile
        return refused("the name " + name + " is taken");
    UserRow u;
    u.name = name;
    u.password_hash = hash;
    u.created = u.last_login = env_.now();
    if (!store_.save_user(u))
        return refused("storage error: " + store_.last_error());
    users_[name_key(name)] = u;
    return accepted(u);
}

// --- password change (the old password is a guess like a login's: limited the same way)

void Service::start_password_change(std::string peer, std::string name, std::string old_pw, std::string new_pw,
                                    AuthDone done) {
    const UserRow* u = user(name);
    if (!u)
        return done(refused("the old password is not correct"));
    if (new_pw.size() < 4 || new_pw.size() > 128)
        return done(refused("the password must have 4 to 128 characters"));
    if (limited(attempts_.login(peer, name_key(name), env_.now()), peer, name, done))
        return;
    auto ok = std::make_shared<bool>(false);
    auto new_hash = std::make_shared<std::string>();
    std::string hash = u->password_hash;
    auto work = [hash, old_pw = std::move(old_pw), new_pw = std::move(new_pw), ok, new_hash, ops = config_.password_ops,
                 mem = config_.password_mem] {
        *ok = password_matches(hash, old_pw);
        if (*ok)
            *new_hash = password_hash(new_pw, ops, mem);
    };
    offload_hash(
        std::move(work),
        [this, peer, name, hash, ok, new_hash, done] {
            if (!*ok)
                attempts_.login_failed(peer, name_key(name), env_.now());
            else
                attempts_.login_succeeded(peer, name_key(name));
            done(finish_password_change(name, hash, *ok, *new_hash));
        },
        done);
}

AuthReply Service::finish_password_change(const std::string& name, const std::string& checked_hash, bool ok,
                                          const std::string& new_hash) {
    UserRow* u = user_mut(name);
    if (!ok || !u || u->password_hash != checked_hash)
        return refused("the old password is not correct");
    if (new_hash.empty())
        return refused("cannot hash the password (out of memory)");
    UserRow copy = *u;
    copy.password_hash = new_hash;
    if (!store_.save_user(copy))
        return refused("storage error: " + store_.last_error());
    *u = copy;
    return accepted(*u);
}

}  // namespace hisha::server::service
