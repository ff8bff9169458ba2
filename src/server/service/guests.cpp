// Service: guests. A web visitor gets a temporary account at once (POST /api/guest) to play the
// server's bots (unrated), analyse and solve; it is refused what involves other people
// (challenges, games with people, TELL, SHOUT). A guest is an account with the reserved prefix
// "guest-" and no password (no login can reach it): that is its mark in the store. It leaves with
// its sessions config.guest_lifetime_ms after it was made, unless it is in a game (a game it
// plays keeps it until that game is over); registering from a guest's session keeps its games
// (adopt_guest). A timer of the event loop (the Environment's GUEST_TIMER) sweeps them: set for
// the next guest due, again every GUEST_RECHECK_MS while a guest past its time is in a game.
#include <sodium.h>

#include <algorithm>

#include "core/text.h"
#include "server/service/log.h"
#include "server/service/service.h"

namespace hisha::server::service {

namespace {

constexpr std::string_view GUEST_PREFIX = "guest-";

std::string random_guest_name() {
    static constexpr char ALPHABET[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string name(GUEST_PREFIX);
    for (int i = 0; i < 6; ++i)
        name += ALPHABET[randombytes_uniform(sizeof ALPHABET - 1)];
    return name;
}

}  // namespace

bool Service::guest_name(std::string_view name) {
    return name.size() > GUEST_PREFIX.size() && text::lower(name.substr(0, GUEST_PREFIX.size())) == GUEST_PREFIX;
}

bool Service::is_guest(std::string_view name) const {
    if (!guest_name(name))
        return false;
    const UserRow* u = user(name);
    return u && u->password_hash.empty() && u->bot.empty();
}

Reply<void> Service::refuse_guest(std::string_view user, std::string_view what) const {
    if (!is_guest(user))
        return {};
    return fail("guests may not " + std::string(what) + ": create an account to play people and keep your games");
}

AuthReply Service::create_guest(const std::string& peer) {
    AuthReply out;
    auto keep = [&out](const AuthReply& r) { out = r; };
    if (config_.guest_lifetime_ms <= 0) {
        out.status = AuthReply::Status::Refused;
        out.error = "this server has no guest play: register to play";
        return out;
    }
    if (refused_by_ban(peer, "", keep) || limited(attempts_.registration(peer, env_.now()), peer, "guest", keep))
        return out;
    UserRow u;
    for (int attempt = 0; attempt < 16 && u.name.empty(); ++attempt)
        if (std::string name = random_guest_name(); !user(name))
            u.name = name;
    if (u.name.empty()) {  // (36^6 names: only a full table gets here)
        out.status = AuthReply::Status::Busy;
        out.retry_after_s = 1;
        out.error = "no guest name free, retry in 1 s";
        return out;
    }
    u.created = u.last_login = env_.now();
    if (!store_.save_user(u)) {
        out.status = AuthReply::Status::Refused;
        out.error = "storage error: " + store_.last_error();
        return out;
    }
    users_[name_key(u.name)] = u;
    log_event("guest", {{"name", u.name}, {"peer", peer}});
    if (Millis due = u.created + config_.guest_lifetime_ms; guest_timer_at_ == 0 || due < guest_timer_at_) {
        guest_timer_at_ = due;
        env_.schedule(GUEST_TIMER, due);
    }
    out.user = u;
    return out;
}

int Service::expire_guests() {
    if (config_.guest_lifetime_ms <= 0)
        return 0;
    Millis cutoff = env_.now() - config_.guest_lifetime_ms;
    std::vector<std::string> gone;
    for (const auto& [key, u] : users_)
        if (u.created <= cutoff && is_guest(u.name) && games_of(u.name).empty())
            gone.push_back(u.name);
    for (const std::string& name : gone) {
        std::string key = name_key(name);
        end_sessions([&key](const Connection& c) { return c.user_key == key; }, "the guest session has expired");
        if (!store_.delete_user(name)) {
            log_failure("guest_expiry", "cannot delete the guest " + name + ": " + store_.last_error());
            continue;
        }
        users_.erase(key);
        log_event("guest_expired", {{"name", name}});
    }
    return int(gone.size());
}

void Service::schedule_guest_expiry() {
    Millis next = 0, now = env_.now();
    if (config_.guest_lifetime_ms > 0)
        for (const auto& [key, u] : users_) {
            if (!is_guest(u.name))
                continue;
            Millis due = u.created + config_.guest_lifetime_ms;
            if (due <= now)
                due = now + GUEST_RECHECK_MS;  // past its time, it is in a game: looked at again later
            if (next == 0 || due < next)
                next = due;
        }
    guest_timer_at_ = next;
    if (next == 0)
        env_.cancel(GUEST_TIMER);
    else
        env_.schedule(GUEST_TIMER, next);
}

void Service::on_guest_timer() {
    if (env_.now() >= guest_timer_at_)
        expire_guests();
    schedule_guest_expiry();
    flush();
}

Reply<void> Service::adopt_guest(std::string_view guest, std::string_view account) {
    const UserRow* a = user(account);
    if (!is_guest(guest) || !a || is_guest(account))
        return fail("not a guest and an account");
    std::string to = a->name, key = name_key(guest);
    if (!store_.rename_player(guest, to))
        return fail("storage error: " + store_.last_error());
    for (auto& [id, g] : games_) {  // the games in memory (a game in play goes on under the new name)
        if (name_key(g->row.black) == key)
            g->row.black = to;
        if (name_key(g->row.white) == key)
            g->row.white = to;
    }
    // Its sessions go (a WebSocket it opened stays until the page, logged in anew, closes it).
    if (!store_.delete_user(guest))
        return fail("storage error: " + store_.last_error());
    log_event("guest_registered", {{"name", std::string(guest)}, {"account", to}});
    users_.erase(key);
    return {};
}

}  // namespace hisha::server::service
