// Service: construction and start-up, accounts and tokens, presence, messages, event
// delivery, and the helpers the protocols share (move parsing, check notices).
#include "server/service/service.h"

#include <sodium.h>

#include <algorithm>
#include <cctype>

#include "core/movegen.h"
#include "core/text.h"
#include "notation/csa.h"
#include "notation/western.h"
#include "server/service/log.h"
#include "server/service/mail.h"
#include "server/service/pattern.h"

namespace hisha::server::service {

using core::BLACK;
using core::WHITE;

std::string name_key(std::string_view name) { return text::lower(name); }

namespace {

constexpr std::pair<core::EndReason, const char*> REASON_NAMES[] = {
    {core::EndReason::None, ""},
    {core::EndReason::Checkmate, "checkmate"},
    {core::EndReason::NoLegalMoves, "no_legal_moves"},
    {core::EndReason::Resignation, "resignation"},
    {core::EndReason::Sennichite, "sennichite"},
    {core::EndReason::PerpetualCheck, "perpetual_check"},
    {core::EndReason::Declaration, "declaration"},
    {core::EndReason::ImpasseCount, "impasse_count"},
    {core::EndReason::TimeUp, "time_up"},
    {core::EndReason::IllegalMove, "illegal_move"},
    {core::EndReason::MoveLimit, "move_limit"},
    {core::EndReason::Abort, "abort"},
    {core::EndReason::SealedMove, "sealed_move"},
    {core::EndReason::Disconnect, "disconnect"},  // (games lost so before were stored as resignation)
    {core::EndReason::Adjudication, "adjudication"},
};

constexpr std::pair<core::Winner, const char*> WINNER_NAMES[] = {
    {core::Winner::None, ""},
    {core::Winner::Black, "black"},
    {core::Winner::White, "white"},
    {core::Winner::Draw, "draw"},
};

/// The name of `v` in `names` ("" when it has none).
template <class T, std::size_t N>
constexpr const char* name_in(const std::pair<T, const char*> (&names)[N], T v) {
    for (auto& [value, name] : names)
        if (value == v)
            return name;
    return "";
}

/// The value named `s` in `names`, or `none`.
template <class T, std::size_t N>
constexpr T value_named(const std::pair<T, const char*> (&names)[N], std::string_view s, T none) {
    for (auto& [value, name] : names)
        if (s == name)
            return value;
    return none;
}

std::string to_hex(const unsigned char* p, std::size_t n) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

std::string token_hash(std::string_view token) {
    unsigned char h[32];
    crypto_generichash(h, sizeof h, reinterpret_cast<const unsigned char*>(token.data()), token.size(), nullptr, 0);
    return to_hex(h, sizeof h);
}

// How long an offered CSA game may wait for its AGREEs before a server starting on the same
// database takes it for the leftover of one that stopped.
constexpr Millis SHARED_OFFER_MS = 60'000;

}  // namespace

const char* reason_name(core::EndReason r) { return name_in(REASON_NAMES, r); }
core::EndReason reason_from_name(std::string_view s) { return value_named(REASON_NAMES, s, core::EndReason::None); }
const char* winner_name(core::Winner w) { return name_in(WINNER_NAMES, w); }
core::Winner winner_from_name(std::string_view s) { return value_named(WINNER_NAMES, s, core::Winner::None); }

std::optional<core::Color> LiveGame::color_of(std::string_view user) const {
    std::string k = name_key(user);
    if (name_key(row.black) == k)
        return BLACK;
    if (name_key(row.white) == k)
        return WHITE;
    return std::nullopt;
}

Millis LiveGame::deadline() const { return time_allowed(row.tc, row.remaining[to_move()]); }

Service::Service(store::Store& store, Environment& env, Config config)
    : store_(store), env_(env), config_(config), attempts_(config.attempts) {
    if (sodium_init() < 0)
        config_.password_ops = 0;  // checked in hash_password
}

Service::~Service() = default;

Reply<void> Service::start() {
    for (auto& u : store_.all_users())
        users_[name_key(u.name)] = u;
    backfill_rating_history();  // once per database: the points of games rated before they were kept
    challenges_ = store_.challenges();
    Millis t = env_.now();
    // The vacations that may still stop a clock or count against this year's allowance.
    for (auto& v : store_.vacations(t - 2 * 366 * 86'400'000LL))
        vacations_[v.player_key].push_back(std::move(v));
    for (auto& row : store_.open_games()) {
        auto g = std::make_unique<LiveGame>();
        g->row = std::move(row);
        // An unagreed CSA offer does not survive a restart; on a database shared with running
        // servers only a stale one is dropped (a fresh one may be theirs, still being agreed).
        if (g->row.status == GameStatus::Offered && store_.shared() && t - g->row.updated < SHARED_OFFER_MS)
            continue;
        if (g->row.status == GameStatus::Offered) {
            g->row.status = GameStatus::Aborted;
            g->row.reason = reason_name(core::EndReason::Abort);
            store_.save_game(g->row, int(g->row.moves.size()));
            continue;
        }
        if (auto r = rebuild(*g); !r)
            return fail("game " + std::to_string(g->row.id) + ": " + r.error());
        if (g->row.tc.realtime() && !g->adjourned())
            g->row.turn_started = t;  // the clock was stopped while the server was down
        std::int64_t id = g->row.id;
        games_[id] = std::move(g);
        arm_timer(*games_[id]);
    }
    start_tournaments();
    schedule_guest_expiry();  // the guests left by the last run go when due
    return {};
}

// --- accounts

bool Service::valid_name(std::string_view name) {
    if (name.empty() || name.size() > 32 || !std::isalnum(static_cast<unsigned char>(name[0])))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    });
}

std::string Service::hash_password(std::string_view pw) const {
    return password_hash(pw, config_.password_ops, config_.password_mem);
}

Reply<void> Service::check_new_account(std::string_view name, std::string_view password) const {
    if (!valid_name(name))
        return fail("invalid name: use 1-32 letters, digits, '.', '_' or '-', starting with a letter or digit");
    if (password.size() < 4 || password.size() > 128)
        return fail("the password must have 4 to 128 characters");
    if (user(name))
        return fail("the name " + std::string(name) + " is taken");
    if (guest_name(name))
        return fail("names starting with guest- are kept for guests");
    return {};
}

Reply<UserRow> Service::register_user(std::string_view name, std::string_view password) {
    if (auto r = check_new_account(name, password); !r)
        return fail(r.error());
    auto r = finish_register(std::string(name), hash_password(password));
    if (!r.ok())
        return fail(r.error);
    return r.user;
}

Reply<UserRow> Service::login(std::string_view name, std::string_view password) {
    UserRow* u = user_mut(name);
    if (!u || !u->bot.empty() || !password_matches(u->password_hash, password))
        return fail("incorrect name or password");
    u->last_login = env_.now();
    store_.save_user(*u);
    return *u;
}

Reply<void> Service::change_password(std::string_view name, std::string_view old_pw, std::string_view new_pw) {
    const UserRow* u = user(name);
    if (!u || !password_matches(u->password_hash, old_pw))
        return fail("the old password is not correct");
    if (new_pw.size() < 4 || new_pw.size() > 128)
        return fail("the password must have 4 to 128 characters");
    auto r = finish_password_change(std::string(name), u->password_hash, true, hash_password(new_pw));
    if (!r.ok())
        return fail(r.error);
    return {};
}

Reply<std::string> Service::create_token(std::string_view name) {
    if (!user(name))
        return fail("no such user");
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    std::string token = to_hex(raw, sizeof raw);
    store_.delete_expired_tokens(env_.now());  // (a login is rare enough to sweep them each time)
    Millis lifetime = config_.token_lifetime_ms;
    if (is_guest(name))  // a guest's session lasts no longer than the guest
        lifetime = std::min(lifetime, user(name)->created + config_.guest_lifetime_ms - env_.now());
    if (!store_.save_token(token_hash(token), user(name)->name, env_.now() + lifetime))
        return fail("storage error: " + store_.last_error());
    return token;
}

std::optional<std::string> Service::token_user(std::string_view token) {
    if (token.size() != 64)
        return std::nullopt;
    auto name = store_.token_user(token_hash(token), env_.now());
    if (name && ban_of_user(*name))
        return std::nullopt;
    return name;
}

void Service::revoke_token(std::string_view token) {
    std::string hash = token_hash(token);
    store_.delete_token(hash);
    end_sessions([&](const Connection& c) { return c.token_hash == hash; }, "logged out");
}

Reply<void> Service::revoke_tokens_of(std::string_view name) {
    const UserRow* u = user(name);
    if (!u)
        return fail("no such user");
    if (!store_.delete_tokens_of(u->name))
        return fail("storage error: " + store_.last_error());
    std::string key = name_key(u->name);
    int ended = end_sessions([&](const Connection& c) { return c.user_key == key && !c.token_hash.empty(); },
                             "logged out everywhere");
    log_event("logout_everywhere", {{"user", u->name}, {"connections", std::to_string(ended)}});
    return {};
}

const UserRow* Service::user(std::string_view name) const {
    auto it = users_.find(name_key(name));
    if (it != users_.end())
        return &it->second;
    // Registered through another server on the same database?
    if (!valid_name(name))
        return nullptr;
    auto row = store_.find_user(name);
    if (!row)
        return nullptr;
    return &users_.emplace(name_key(row->name), std::move(*row)).first->second;
}

UserRow* Service::user_mut(std::string_view name) {
    // On a shared database another server may have changed the row (a password, settings, the
    // counts and rating after a game): a change starts from what is stored.
    if (store_.shared() && valid_name(name)) {
        if (auto row = store_.find_user(name)) {
            UserRow& u = users_[name_key(row->name)];
            u = std::move(*row);
            return &u;
        }
    }
    return const_cast<UserRow*>(user(name));
}

std::vector<const UserRow*> Service::users(std::string_view pattern) const {
    // On a shared database: players registered through other servers, and their counts and
    // ratings after games that ended there, as stored.
    if (store_.shared())
        for (auto& row : store_.all_users())
            users_[name_key(row.name)] = std::move(row);
    std::vector<const UserRow*> out;
    for (auto& [key, u] : users_)
        if (pattern_matches(pattern, u.name))
            out.push_back(&u);
    return out;
}

Reply<void> Service::ensure_bot(std::string_view name, std::string_view level) {
    if (user(name))
        return {};
    if (!valid_name(name))
        return fail("invalid bot name");
    UserRow u;
    u.name = std::string(name);
    u.password_hash = "!";  // bots cannot log in
    u.bot = std::string(level);
    u.created = env_.now();
    if (!store_.save_user(u))
        return fail("storage error: " + store_.last_error());
    users_[name_key(name)] = u;
    return {};
}

std::string Service::setting(std::string_view name, std::string_view key) const {
    const UserRow* u = user(name);
    if (!u)
        return {};
    std::string k = std::string(key) + "=";
    std::string_view s = u->settings;
    while (!s.empty()) {
        auto semi = s.find(';');
        std::string_view item = s.substr(0, semi);
        if (item.starts_with(k))
            return std::string(item.substr(k.size()));
        if (semi == std::string_view::npos)
            break;
        s.remove_prefix(semi + 1);
    }
    return {};
}

Reply<void> Service::set_setting(std::string_view name, std::string_view key, std::string_view value) {
    UserRow* u = user_mut(name);
    if (!u)
        return fail("no such user");
    if (value.find(';') != std::string_view::npos || value.find('=') != std::string_view::npos)
        return fail("invalid value");
    std::string out, k = std::string(key) + "=";
    std::string_view s = u->settings;
    while (!s.empty()) {
        auto semi = s.find(';');
        std::string_view item = s.substr(0, semi);
        if (!item.empty() && !item.starts_with(k))
            out += std::string(item) + ";";
        if (semi == std::string_view::npos)
            break;
        s.remove_prefix(semi + 1);
    }
    out += k + std::string(value);
    UserRow copy = *u;
    copy.settings = out;
    if (!store_.save_user(copy))
        return fail("storage error: " + store_.last_error());
    *u = copy;
    return {};
}

// --- presence and messages

void Service::connect(std::string_view name, const std::shared_ptr<Listener>& l, std::string_view protocol,
                      std::string_view peer, std::string_view token) {
    connections_.push_back({l, name_key(name), std::string(protocol), env_.now(), std::string(peer),
                            token.empty() ? std::string() : token_hash(token)});
    by_key_stale_ = true;
    std::string key = connections_.back().user_key;
    update_presence(key);
    if (std::count_if(connections_.begin(), connections_.end(),
                      [&](const Connection& c) { return c.user_key == key && !c.listener.expired(); })
        == 1)
        presence_changed(key);  // the first connection: counted where the account watches
    // So that STAT, the turn notice at login and the player's game list have them.
    adopt_open_games(name);
    if (mail_)
        mail_->looked(name);  // the player sees their games now: "your turn" may be mailed again
    log_event("login", {{"user", name}, {"protocol", protocol}});
}

void Service::adopt_open_games(std::string_view user) {
    if (!store_.shared())
        return;
    // Only the games not held here are read (a bot's server asks every second).
    for (std::int64_t id : store_.open_game_ids_of(user)) {
        if (games_.contains(id))
            continue;
        auto row = store_.load_game(id);
        if (!row || row->status != GameStatus::Active)
            continue;
        auto g = std::make_unique<LiveGame>();
        g->row = std::move(*row);
        if (rebuild(*g))
            games_[id] = std::move(g);
    }
}

void Service::disconnect(const std::shared_ptr<Listener>& l) {
    std::set<std::string> gone;
    by_key_stale_ = true;
    std::erase_if(connections_, [&](const Connection& c) {
        auto p = c.listener.lock();
        bool out = !p || p == l;
        if (out)
            gone.insert(c.user_key);
        return out;
    });
    for (auto& k : gone) {
        update_presence(k);
        if (!online(k))
            presence_changed(k);  // the last connection: no longer counted where it watched
    }
}

void Service::update_presence(const std::string& key) {
    if (!store_.shared())
        return;
    PresenceRow p;
    for (auto& c : connections_) {
        if (c.user_key != key || c.listener.expired())
            continue;
        if (p.connections++ == 0 || c.since < p.since) {
            p.since = c.since;
            p.protocol = c.protocol;
        }
    }
    const UserRow* u = user(key);
    p.name = u ? u->name : key;
    store_.set_presence(p);
}

bool Service::online(std::string_view name) const {
    std::string k = name_key(name);
    return std::any_of(connections_.begin(), connections_.end(),
                       [&](const Connection& c) { return c.user_key == k && !c.listener.expired(); });
}

bool Service::online_elsewhere(std::string_view name) const {
    if (!store_.shared())
        return false;
    std::string k = name_key(name);
    auto remote = store_.remote_presence();
    return std::any_of(remote.begin(), remote.end(), [&](const PresenceRow& p) { return name_key(p.name) == k; });
}

std::vector<OnlineUser> Service::who(std::string_view pattern) const {
    std::map<std::string, OnlineUser> by_key;
    for (auto& c : connections_) {
        if (c.listener.expired())
            continue;
        const UserRow* u = user(c.user_key);
        if (!u || !pattern_matches(pattern, u->name))
            continue;
        OnlineUser& o = by_key[c.user_key];
        if (o.connections == 0 || c.since < o.since) {
            o.since = c.since;
            o.protocol = c.protocol;
        }
        o.name = u->name;
        ++o.connections;
    }
    // Players on the other servers sharing the database (the rows of servers that stopped
    // are not read: they belong to database sessions that ended).
    if (store_.shared()) {
        for (auto& p : store_.remote_presence()) {
            if (!pattern_matches(pattern, p.name))
                continue;
            OnlineUser& o = by_key[name_key(p.name)];
            if (o.connections == 0 || p.since < o.since) {
                o.since = p.since;
                o.protocol = p.protocol;
            }
            o.name = p.name;
            o.connections += p.connections;
        }
    }
    std::vector<OnlineUser> out;
    for (auto& [k, o] : by_key)
        out.push_back(o);
    return out;
}

std::vector<MessageRow> Service::take_messages(std::string_view name) {
    auto msgs = store_.messages_for(name);
    std::vector<std::int64_t> ids;
    for (auto& m : msgs)
        ids.push_back(m.id);
    if (!ids.empty())
        store_.delete_messages(ids);
    return msgs;
}

Reply<TellResult> Service::tell(std::string_view from, std::string_view to, std::string_view text, bool leave) {
    if (auto r = refuse_guest(from, "send messages"); !r)
        return fail(r.error());
    const UserRow* target = user(to);
    if (!target)
        return fail("no such player: " + std::string(to));
    if (text.empty())
        return fail("empty message");
    if (text.size() > config_.max_message)
        return fail("message too long");
    last_tell_[name_key(from)] = target->name;
    if (online(target->name)) {
        Event e;
        e.kind = EventKind::Tell;
        e.from = user(from) ? user(from)->name : std::string(from);
        e.text = std::string(text);
        emit_to(name_key(target->name), e);
        flush();
        return TellResult::Delivered;
    }
    if (online_elsewhere(target->name)) {  // that server delivers it
        store_.publish("T " + target->name + "\n" + (user(from) ? user(from)->name : std::string(from)) + "\n"
                       + std::string(text));
        return TellResult::Delivered;
    }
    if (!leave)
        return TellResult::Offline;
    MessageRow m;
    m.to = target->name;
    m.from = user(from) ? user(from)->name : std::string(from);
    m.text = std::string(text);
    m.kind = "tell";
    m.at = env_.now();
    if (!store_.insert_message(m))
        return fail("storage error: " + store_.last_error());
    if (mail_)
        mail_->message_left(m);
    return TellResult::Stored;
}

Reply<TellResult> Service::say(std::string_view from, std::int64_t game_id, std::string_view text, bool leave) {
    auto s = seat(from, game_id, Need::Player);
    if (!s)
        return core::unexpected(s.error());
    auto [g, c] = *s;
    const std::string& opponent = g->player(~c);
    if (text.empty())
        return fail("empty message");
    if (text.size() > config_.max_message)
        return fail("message too long");
    if (online(opponent)) {
        Event e;
        e.kind = EventKind::Say;
        e.game_id = game_id;
        e.from = g->player(c);
        e.text = std::string(text);
        emit_to(name_key(opponent), e);
        flush();
        return TellResult::Delivered;
    }
    if (online_elsewhere(opponent)) {
        store_.publish("Y " + std::to_string(game_id) + " " + opponent + "\n" + g->player(c) + "\n"
                       + std::string(text));
        return TellResult::Delivered;
    }
    if (!leave)
        return TellResult::Offline;
    MessageRow m;
    m.to = opponent;
    m.from = g->player(c);
    m.text = "(game " + std::to_string(game_id) + ") " + std::string(text);
    m.kind = "say";
    m.at = env_.now();
    if (!store_.insert_message(m))
        return fail("storage error: " + store_.last_error());
    if (mail_)
        mail_->message_left(m);
    return TellResult::Stored;
}

Reply<int> Service::shout(std::string_view from, std::string_view text) {
    if (auto r = refuse_guest(from, "shout"); !r)
        return fail(r.error());
    if (text.empty())
        return fail("empty message");
    if (text.size() > config_.max_message)
        return fail("message too long");
    std::set<std::string> reached;
    Event e;
    e.kind = EventKind::Shout;
    e.from = user(from) ? user(from)->name : std::string(from);
    e.text = std::string(text);
    for (auto& c : connections_) {
        if (c.listener.expired())
            continue;
        reached.insert(c.user_key);
        pending_.push_back({c.listener, e});
    }
    store_.publish("S " + e.from + "\n" + e.text);
    flush();
    return int(reached.size());
}

void Service::chat(std::string_view from, std::string_view text) {
    Event e;
    e.kind = EventKind::Chat;
    e.from = std::string(from);
    e.text = std::string(text.substr(0, config_.max_message));
    for (auto& c : connections_)
        if (c.protocol == "csa")
            pending_.push_back({c.listener, e});
    store_.publish("C " + e.from + "\n" + e.text);
    flush();
}

std::string Service::last_tell(std::string_view name) const {
    auto it = last_tell_.find(name_key(name));
    return it == last_tell_.end() ? std::string() : it->second;
}

// --- events

const std::map<std::string, std::vector<std::weak_ptr<Listener>>, std::less<>>& Service::listeners_by_key() {
    if (by_key_stale_) {
        by_key_.clear();
        for (auto& c : connections_)
            by_key_[c.user_key].push_back(c.listener);
        by_key_stale_ = false;
    }
    return by_key_;
}

void Service::emit_to(std::string_view user_key, const Event& e) {
    auto& by_key = listeners_by_key();
    auto it = by_key.find(user_key);
    if (it != by_key.end())
        for (auto& l : it->second)
            pending_.push_back({l, e});
}

void Service::emit_game(const LiveGame& g, Event e) {
    to_publish_.insert(g.row.id);
    emit_local(g, std::move(e));
}

void Service::emit_local(const LiveGame& g, Event e) {
    if (g.finished())
        touch_finished(g);  // its end, or news of it after the end
    e.game_id = g.row.id;
    std::string b = name_key(g.row.black), w = name_key(g.row.white);
    if (g.spectators.empty()) {  // the common case, without a set: the same order (by key)
        if (b > w)
            std::swap(b, w);
        emit_to(b, e);
        if (w != b)
            emit_to(w, e);
        return;
    }
    std::set<std::string> keys{std::move(b), std::move(w)};
    keys.insert(g.spectators.begin(), g.spectators.end());
    for (auto& k : keys)
        emit_to(k, e);
}

void Service::flush() {
    if (flushing_)
        return;  // the outer flush delivers what listeners cause
    flushing_ = true;
    while (!pending_.empty()) {
        auto batch = std::move(pending_);
        pending_.clear();
        for (auto& [weak, e] : batch)
            if (auto l = weak.lock())
                l->deliver(e);
    }
    flushing_ = false;
    std::set<std::string> gone;
    if (std::erase_if(connections_, [&](const Connection& c) {
            if (c.listener.expired())
                gone.insert(c.user_key);
            return c.listener.expired();
        }))
        by_key_stale_ = true;
    for (auto& k : gone) {
        update_presence(k);
        if (!online(k))
            presence_changed(k);
    }
    if (!store_.in_batch())
        publish_pending();  // written already; inside a batch, commit() publishes
    retire_finished();
}

void Service::touch_finished(const LiveGame& g) {
    finished_use_[g.row.id] = ++finished_tick_;
    finished_order_.emplace_back(g.row.id, finished_tick_);
    held_.erase(g.row.id);                                     // counted among the recently used again
    if (finished_order_.size() > 4 * (finished_kept_ + 16)) {  // mostly uses made old by later ones
        std::erase_if(finished_order_, [&](const auto& u) {
            auto it = finished_use_.find(u.first);
            return it == finished_use_.end() || it->second != u.second;
        });
    }
}

bool Service::watched_here(const LiveGame& g) {
    auto& by_key = listeners_by_key();
    for (auto& k : g.spectators)
        if (auto it = by_key.find(k); it != by_key.end())
            for (auto& l : it->second)
                if (!l.expired())
                    return true;
    return false;
}

bool Service::must_stay(const LiveGame& g) {
    if (stale_.contains(g.row.id))
        return true;  // refresh() tells what changed since this copy
    if (g.row.status != GameStatus::Finished || g.row.rated_applied)
        return false;  // its result stands: nothing more happens to it
    // Its end may be taken back: the spectators here hear of it only from this copy.
    if (watched_here(g))
        return true;
    if (!store_.shared())
        return false;
    // Another server's undo of it is told here as a change of this copy (a copy read again
    // would have this server announce the end's last move as new), unless the end stands now
    // (seen through another server, which does not tell it).
    auto row = store_.load_game(g.row.id);
    return !row || row->status != GameStatus::Finished || !row->rated_applied;
}

void Service::retire_finished() {
    std::size_t keep = std::max<std::size_t>(finished_kept_, 1);
    if (flushing_ || finished_use_.size() <= keep)
        return;  // (inside a flush, a listener's reaction: the operation may hold games still)
    // Every finished game is in the store (its end was saved before its events went out):
    // live() reads it again when it is asked for.
    std::erase_if(held_, [&](std::int64_t id) {
        auto it = games_.find(id);
        if (it == games_.end() || !it->second->finished())
            return true;  // gone, or an undone end made it a game in play again
        if (must_stay(*it->second))
            return false;
        games_.erase(it);
        return true;
    });
    while (finished_use_.size() > keep && !finished_order_.empty()) {
        auto [id, use] = finished_order_.front();
        finished_order_.pop_front();
        auto u = finished_use_.find(id);
        if (u == finished_use_.end() || u->second != use)
            continue;  // used again since
        finished_use_.erase(u);
        auto it = games_.find(id);
        if (it == games_.end() || !it->second->finished())
            continue;
        if (must_stay(*it->second))
            held_.insert(id);
        else
            games_.erase(it);
    }
}

void Service::publish_pending() {
    for (std::int64_t id : to_publish_)
        store_.publish("G " + std::to_string(id));
    to_publish_.clear();
}

void Service::reload_challenges() {
    if (store_.shared())
        challenges_ = store_.challenges();
}

void Service::refresh(std::int64_t id) {
    stale_.erase(id);
    auto row = id > 0 ? store_.load_game(id) : std::nullopt;
    if (!row)
        return;
    auto it = games_.find(id);
    bool cached = it != games_.end();
    bool player_here = std::any_of(connections_.begin(), connections_.end(), [&](const Connection& c) {
        return c.user_key == name_key(row->black) || c.user_key == name_key(row->white);
    });
    if (!cached && !player_here)
        return;  // nobody here follows it; it is read from the store when asked for
    // What this server last knew: for a game it never held, the move before the last.
    int old_n = cached ? int(it->second->row.moves.size()) : std::max(0, int(row->moves.size()) - 1);
    // A game offered by another server (CSA players paired across servers) is new here.
    bool offered_here = !cached && row->status == GameStatus::Offered;
    GameStatus old_status = cached                              ? it->second->row.status
                          : row->status == GameStatus::Finished ? GameStatus::Active
                                                                : row->status;
    auto g = std::make_unique<LiveGame>();
    g->row = std::move(*row);
    if (!rebuild(*g)) {
        if (cached)
            games_.erase(it);  // not served from a copy that is out of date
        return;
    }
    if (cached) {
        g->spectators = std::move(it->second->spectators);
        for (int c = 0; c < 2; ++c) {
            g->agreed[c] = it->second->agreed[c];
            g->agreed_here[c] = it->second->agreed_here[c];
        }
    }
    LiveGame& ref = *(games_[id] = std::move(g));
    env_.cancel(id);  // the server that wrote last keeps the clock
    int n = int(ref.row.moves.size());
    if (n > old_n) {
        for (int p = old_n; p < n && p < int(ref.log.size()); ++p) {
            const MoveRecord& m = ref.log[std::size_t(p)];
            if (m.kind == MoveKind::Resign || m.kind == MoveKind::Declare)
                continue;  // the end says it
            emit_local(ref, move_event(ref, m, p + 1 == n));
        }
    } else if (n < old_n) {
        Event e;
        e.kind = EventKind::Undo;
        e.ply = n;
        emit_local(ref, e);
    }
    if (offered_here) {
        std::erase_if(waiting_, [&](const Waiting& w) {
            return name_key(w.user) == name_key(ref.row.black) || name_key(w.user) == name_key(ref.row.white);
        });
        Event e;
        e.kind = EventKind::GameOffered;
        emit_local(ref, e);
    }
    if (old_status == GameStatus::Offered && ref.row.status == GameStatus::Active) {
        Event e;
        e.kind = EventKind::GameStarted;
        emit_local(ref, e);
    }
    if (old_status == GameStatus::Offered && ref.row.status == GameStatus::Aborted) {
        Event e;  // rejected on the other server, by the player who is not here
        e.kind = EventKind::GameRejected;
        e.from = online(ref.row.black) ? ref.row.white : ref.row.black;
        emit_local(ref, e);
    } else if (old_status != ref.row.status && ref.finished()) {
        Event e;
        e.kind = EventKind::GameEnded;
        e.winner = winner_from_name(ref.row.winner);
        e.reason = reason_from_name(ref.row.reason);
        e.ply = n;
        emit_local(ref, e);
    }
    flush();
}

// --- helpers

Reply<core::Move> Service::parse_move(const core::Position& pos, std::string_view text) {
    if (text.empty())
        return fail("no move given");
    if ((text[0] == '+' || text[0] == '-') && text.size() == 7 && std::isdigit(static_cast<unsigned char>(text[1]))) {
        auto m = notation::parse_csa_move(pos, text);
        if (!m)
            return fail(m.error().message);
        return *m;
    }
    auto m = notation::parse_western(pos, text);
    if (!m)
        return fail(m.error().message);
    return *m;
}

}  // namespace hisha::server::service
