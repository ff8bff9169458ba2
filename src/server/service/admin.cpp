// Service: administration. Administrators are the accounts the store lists (granted with
// `hisha-server admin grant NAME`, read at each check so that a grant or revocation made while
// the server runs counts at once). Their commands ban and unban accounts and addresses, close a
// player's connections, abort or adjudicate a game, announce, reset a password, and list the
// connections, queues, bans and the audit log. Every command is logged ("admin"); every one
// that changes something is also kept in the store's audit log.
#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <set>

#include "server/service/log.h"
#include "server/service/service.h"
#include "server/service/utc_text.h"

namespace hisha::server::service {

namespace {

const char* kind_name(BanKind k) { return k == BanKind::User ? "user" : "address"; }

const char* winner_word(core::Winner w) {
    switch (w) {
    case core::Winner::Black: return "black";
    case core::Winner::White: return "white";
    case core::Winner::Draw: return "draw";
    default: return "";
    }
}

// An address or network in binary: 4 or 16 bytes and the prefix length.
struct Network {
    int family = 0;  // AF_INET or AF_INET6
    unsigned char bytes[16] = {};
    int bits = 0;
};

std::optional<Network> read_network(std::string_view text) {
    std::string addr(text.substr(0, text.find('/')));
    Network n;
    if (inet_pton(AF_INET, addr.c_str(), n.bytes) == 1) {
        n.family = AF_INET;
        n.bits = 32;
    } else if (inet_pton(AF_INET6, addr.c_str(), n.bytes) == 1) {
        n.family = AF_INET6;
        n.bits = 128;
        // An IPv4 client of a dual-stack socket (::ffff:a.b.c.d) is that IPv4 address.
        static const unsigned char MAPPED[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (std::memcmp(n.bytes, MAPPED, 12) == 0 && text.find('/') == std::string_view::npos) {
            std::memmove(n.bytes, n.bytes + 12, 4);
            std::memset(n.bytes + 4, 0, 12);
            n.family = AF_INET;
            n.bits = 32;
        }
    } else {
        return std::nullopt;
    }
    if (auto slash = text.find('/'); slash != std::string_view::npos) {
        std::string_view b = text.substr(slash + 1);
        int bits = -1;
        auto [p, ec] = std::from_chars(b.data(), b.data() + b.size(), bits);
        if (ec != std::errc() || p != b.data() + b.size() || bits < 0 || bits > n.bits)
            return std::nullopt;
        n.bits = bits;
    }
    return n;
}

bool contains(const Network& net, const Network& a) {
    if (net.family != a.family)
        return false;
    int full = net.bits / 8, rest = net.bits % 8;
    if (std::memcmp(net.bytes, a.bytes, std::size_t(full)) != 0)
        return false;
    if (rest == 0)
        return true;
    unsigned char mask = static_cast<unsigned char>(0xff << (8 - rest));
    return (net.bytes[full] & mask) == (a.bytes[full] & mask);
}

}  // namespace

// --- durations and addresses

std::optional<Millis> Service::parse_duration(std::string_view text) {
    if (text.size() < 2)
        return std::nullopt;
    Millis unit = 0;
    switch (text.back()) {
    case 's': unit = 1000; break;
    case 'm': unit = 60'000; break;
    case 'h': unit = 3'600'000; break;
    case 'd': unit = 86'400'000; break;
    case 'w': unit = 7 * 86'400'000LL; break;
    default: return std::nullopt;
    }
    std::string_view digits = text.substr(0, text.size() - 1);
    long long n = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc() || p != digits.data() + digits.size() || n <= 0 || n > 100LL * 365 * 86'400'000 / unit)
        return std::nullopt;
    return n * unit;
}

Reply<std::string> Service::parse_network(std::string_view text) {
    auto n = read_network(text);
    if (!n)
        return fail("'" + std::string(text)
                    + "' is not an address or network (203.0.113.7, 203.0.113.0/24, 2001:db8::1, 2001:db8::/32)");
    // The canonical text: host bits cleared, no prefix for a single address.
    int len = n->family == AF_INET ? 4 : 16;
    for (int i = 0; i < len; ++i) {
        int keep = std::clamp(n->bits - i * 8, 0, 8);
        n->bytes[i] &= static_cast<unsigned char>(keep == 0 ? 0 : 0xff << (8 - keep));
    }
    char buf[INET6_ADDRSTRLEN];
    inet_ntop(n->family, n->bytes, buf, sizeof buf);
    std::string out = buf;
    if (n->bits != len * 8)
        out += "/" + std::to_string(n->bits);
    return out;
}

bool Service::address_in(std::string_view address, std::string_view net) {
    auto a = read_network(address);
    auto n = read_network(net);
    return a && n && contains(*n, *a);
}

// --- bans

void Service::load_bans() { bans_ = store_.bans(); }

std::vector<BanRow> Service::bans() {
    if (!bans_)
        load_bans();
    Millis now = env_.now();
    std::erase_if(*bans_, [now](const BanRow& b) { return b.expires != 0 && b.expires <= now; });
    return *bans_;
}

const BanRow* Service::ban_of_user(std::string_view user) {
    if (!bans_)
        load_bans();
    std::string key = name_key(user);
    Millis now = env_.now();
    for (const BanRow& b : *bans_)
        if (b.kind == "user" && b.target == key && (b.expires == 0 || b.expires > now))
            return &b;
    return nullptr;
}

const BanRow* Service::ban_of_address(std::string_view address) {
    if (!bans_)
        load_bans();
    if (address.empty())
        return nullptr;
    Millis now = env_.now();
    for (const BanRow& b : *bans_)
        if (b.kind == "address" && (b.expires == 0 || b.expires > now) && address_in(address, b.target))
            return &b;
    return nullptr;
}

bool Service::refused_by_ban(const std::string& peer, std::string_view name, const AuthDone& done) {
    const BanRow* b = ban_of_address(peer);
    std::string why;
    if (b)
        why = "your address is banned " + until_text(b->expires);
    else if ((b = ban_of_user(name)))
        why = "the account " + std::string(name) + " is banned " + until_text(b->expires);
    if (!b)
        return false;
    if (!b->reason.empty())
        why += ": " + b->reason;
    log_event("banned", {{"peer", peer}, {"name", name}, {"ban", b->kind + " " + b->target}});
    AuthReply r;
    r.status = AuthReply::Status::Banned;
    r.error = why;
    done(r);
    return true;
}

// --- the administrators

bool Service::is_admin(std::string_view user) {
    const UserRow* u = this->user(user);
    return u && u->bot.empty() && store_.is_admin(u->name) && !ban_of_user(u->name);
}

Reply<void> Service::authorize(const AdminActor& who, std::string_view action) {
    if (!is_admin(who.name)) {
        log_event("admin_refused", {{"user", who.name}, {"peer", who.peer}, {"action", action}});
        return fail(NOT_ADMIN);
    }
    log_event("admin", {{"admin", who.name}, {"peer", who.peer}, {"action", action}});
    return {};
}

void Service::audit(const AdminActor& who, std::string action, std::string target, std::string detail) {
    AuditRow a;
    a.at = env_.now();
    const UserRow* u = user(who.name);
    a.admin = u ? u->name : who.name;
    a.action = std::move(action);
    a.target = std::move(target);
    a.detail = std::move(detail);
    a.peer = who.peer;
    log_event("admin_action",
              {{"admin", a.admin}, {"peer", a.peer}, {"action", a.action}, {"target", a.target}, {"detail", a.detail}});
    if (!store_.insert_audit(a))
        log_event("audit_failed", {{"error", store_.last_error()}, {"action", a.action}});
}

int Service::end_sessions(const std::function<bool(const Connection&)>& which, const std::string& why) {
    std::vector<std::shared_ptr<Listener>> chosen;
    for (auto& c : connections_)
        if (which(c))
            if (auto l = c.listener.lock())
                chosen.push_back(std::move(l));
    for (auto& l : chosen)
        l->end_session(why);
    return int(chosen.size());
}

Reply<BanRow> Service::ban(const AdminActor& who, BanKind kind, std::string_view target, Millis duration_ms,
                           std::string_view reason) {
    if (auto r = authorize(who, std::string("ban ") + kind_name(kind)); !r)
        return fail(r.error());
    if (reason.size() > config_.max_message)
        return fail("the reason is too long (at most " + std::to_string(config_.max_message) + " characters)");
    BanRow b;
    b.kind = kind_name(kind);
    b.reason = std::string(reason);
    b.created = env_.now();
    b.expires = duration_ms > 0 ? b.created + duration_ms : 0;
    std::string shown;
    if (kind == BanKind::User) {
        const UserRow* u = user(target);
        if (!u)
            return fail("no account named " + std::string(target));
        if (name_key(u->name) == name_key(who.name))
            return fail("you cannot ban yourself");
        b.target = name_key(u->name);
        shown = u->name;
    } else {
        auto net = parse_network(target);
        if (!net)
            return fail(net.error());
        if (!who.peer.empty() && address_in(who.peer, *net))
            return fail("your own address " + who.peer + " is in " + *net + ": you cannot ban it");
        b.target = *net;
        shown = *net;
    }
    const UserRow* me = user(who.name);
    b.by = me ? me->name : who.name;
    if (!store_.save_ban(b))
        return fail("storage error: " + store_.last_error());
    load_bans();
    if (store_.shared())
        store_.publish("B");  // the other servers reread the bans
    std::string why = "banned by an administrator " + until_text(b.expires) + (b.reason.empty() ? "" : ": " + b.reason);
    int ended = 0;
    if (kind == BanKind::User) {
        store_.delete_tokens_of(user(target)->name);
        ended = end_sessions([&](const Connection& c) { return c.user_key == b.target; }, why);
    } else {
        ended = end_sessions([&](const Connection& c) { return address_in(c.peer, b.target); }, why);
    }
    audit(who, "ban", b.kind + " " + shown,
          until_text(b.expires) + (b.reason.empty() ? "" : "; " + b.reason) + "; " + std::to_string(ended)
              + " connection(s) closed");
    return b;
}

Reply<void> Service::unban(const AdminActor& who, BanKind kind, std::string_view target) {
    if (auto r = authorize(who, std::string("unban ") + kind_name(kind)); !r)
        return r;
    std::string key;
    if (kind == BanKind::User) {
        key = name_key(target);
    } else {
        auto net = parse_network(target);
        if (!net)
            return fail(net.error());
        key = *net;
    }
    if (!bans_)
        load_bans();
    bool known = std::any_of(bans_->begin(), bans_->end(),
                             [&](const BanRow& b) { return b.kind == kind_name(kind) && b.target == key; });
    if (!known)
        return fail(std::string("no ban of the ") + kind_name(kind) + " " + key + " (ADMIN BANS lists them)");
    if (!store_.delete_ban(kind_name(kind), key))
        return fail("storage error: " + store_.last_error());
    load_bans();
    if (store_.shared())
        store_.publish("B");
    audit(who, "unban", std::string(kind_name(kind)) + " " + key, "");
    return {};
}

// --- connections, games, messages, passwords

Reply<int> Service::kick(const AdminActor& who, std::string_view name, std::string_view reason) {
    if (auto r = authorize(who, "kick"); !r)
        return fail(r.error());
    const UserRow* u = user(name);
    if (!u)
        return fail("no account named " + std::string(name));
    std::string key = name_key(u->name);
    std::string why = "disconnected by an administrator" + (reason.empty() ? "" : ": " + std::string(reason));
    int ended = end_sessions([&](const Connection& c) { return c.user_key == key; }, why);
    if (ended == 0)
        return fail(u->name + " is not connected to this server");
    audit(who, "kick", u->name,
          std::string(reason) + (reason.empty() ? "" : "; ") + std::to_string(ended) + " connection(s) closed");
    return ended;
}

Reply<void> Service::abort_game(const AdminActor& who, std::int64_t game_id, std::string_view reason) {
    if (auto r = authorize(who, "abort"); !r)
        return r;
    LiveGame* g = live(game_id);
    if (!g)
        return fail("no game number " + std::to_string(game_id));
    if (g->finished())
        return fail("game " + std::to_string(game_id) + " is over already");
    std::string detail = "aborted by an administrator" + (reason.empty() ? "" : ": " + std::string(reason));
    end_game(*g, core::Winner::None, core::EndReason::Abort, detail);
    if (auto s = save(*g, int(g->row.moves.size())); !s)
        return s;
    flush();
    audit(who, "abort", "game " + std::to_string(game_id), std::string(reason));
    return {};
}

Reply<void> Service::adjudicate(const AdminActor& who, std::int64_t game_id, core::Winner winner,
                                std::string_view reason) {
    if (auto r = authorize(who, "adjudicate"); !r)
        return r;
    if (winner == core::Winner::None)
        return fail("the result is BLACK, WHITE or DRAW");
    LiveGame* g = live(game_id);
    if (!g)
        return fail("no game number " + std::to_string(game_id));
    if (!g->active())
        return fail("game " + std::to_string(game_id) + " is not in play");
    std::string detail = "adjudicated by an administrator" + (reason.empty() ? "" : ": " + std::string(reason));
    end_game(*g, winner, core::EndReason::Adjudication, detail);
    if (auto s = save(*g, int(g->row.moves.size())); !s)
        return s;
    flush();
    audit(who, "adjudicate", "game " + std::to_string(game_id),
          std::string(winner_word(winner)) + (reason.empty() ? "" : "; " + std::string(reason)));
    return {};
}

Reply<int> Service::announce(const AdminActor& who, std::string_view text) {
    if (auto r = authorize(who, "announce"); !r)
        return fail(r.error());
    if (text.empty())
        return fail("nothing to announce");
    if (text.size() > config_.max_message)
        return fail("the announcement is too long (at most " + std::to_string(config_.max_message) + " characters)");
    Event e;
    e.kind = EventKind::Announce;
    const UserRow* me = user(who.name);
    e.from = me ? me->name : who.name;
    e.text = std::string(text);
    std::set<std::string> reached;
    for (auto& c : connections_) {
        if (c.listener.expired() || c.protocol == "bot")
            continue;
        reached.insert(c.user_key);
        pending_.push_back({c.listener, e});
    }
    if (store_.shared())
        store_.publish("P " + e.from + "\n" + e.text);  // ("A " is a CSA AGREE)
    flush();
    audit(who, "announce", "everyone", std::string(text) + " (" + std::to_string(reached.size()) + " reached)");
    return int(reached.size());
}

void Service::reset_password(const AdminActor& who, std::string name, std::string password,
                             std::function<void(Reply<void>)> done) {
    if (auto r = authorize(who, "resetpassword"); !r)
        return done(r);
    const UserRow* u = user(name);
    if (!u)
        return done(fail("no account named " + name));
    if (!u->bot.empty())
        return done(fail(u->name + " is an engine bot: it has no password"));
    if (password.size() < 4 || password.size() > 128)
        return done(fail("the password must have 4 to 128 characters"));
    auto hash = std::make_shared<std::string>();
    AuthDone refused = [done](const AuthReply& r) { done(fail(r.error)); };
    offload_hash([hash, password = std::move(password), ops = config_.password_ops,
                  mem = config_.password_mem] { *hash = password_hash(password, ops, mem); },
                 [this, who, name, hash, done] {
                     UserRow* row = user_mut(name);
                     if (!row)
                         return done(fail("no account named " + name));
                     if (hash->empty())
                         return done(fail("cannot hash the password (out of memory)"));
                     UserRow copy = *row;
                     copy.password_hash = *hash;
                     if (!store_.save_user(copy))
                         return done(fail("storage error: " + store_.last_error()));
                     *row = copy;
                     store_.delete_tokens_of(row->name);
                     std::string key = name_key(row->name);
                     end_sessions([&](const Connection& c) { return c.user_key == key && !c.token_hash.empty(); },
                                  "your password was reset by an administrator: log in again");
                     audit(who, "resetpassword", row->name, "tokens revoked");
                     done({});
                 },
                 refused);
}

std::vector<ConnectionInfo> Service::connections() const {
    std::vector<ConnectionInfo> out;
    for (auto& c : connections_) {
        if (c.listener.expired())
            continue;
        const UserRow* u = user(c.user_key);
        out.push_back({u ? u->name : c.user_key, c.protocol, c.peer, c.since});
    }
    std::stable_sort(out.begin(), out.end(), [](const ConnectionInfo& a, const ConnectionInfo& b) {
        return name_key(a.name) < name_key(b.name);
    });
    return out;
}

std::vector<std::pair<std::string, std::string>> Service::status() {
    std::vector<std::pair<std::string, std::string>> out;
    std::set<std::string> players;
    for (auto& c : connections_)
        if (!c.listener.expired() && c.protocol != "bot")
            players.insert(c.user_key);
    out.emplace_back("players_online", std::to_string(players.size()));
    out.emplace_back("logged_in_connections", std::to_string(connections().size()));
    out.emplace_back("games_in_progress", std::to_string(games_in_progress()));
    out.emplace_back("moves_played", std::to_string(moves_played_));
    out.emplace_back("password_hashes_pending", std::to_string(hashing_) + " of " + std::to_string(config_.hash_queue));
    out.emplace_back("csa_waiting", std::to_string(waiting_.size()));
    out.emplace_back("bans", std::to_string(bans().size()));
    for (auto& source : status_sources_)
        source(out);
    return out;
}

}  // namespace hisha::server::service
