// Mail notifications: see mail.h.
#include "server/service/mail.h"

#include <sodium.h>

#include <algorithm>

#include "notation/bod.h"
#include "server/service/log.h"
#include "server/service/mail_message.h"
#include "server/service/pattern.h"
#include "server/service/service.h"
#include "server/service/utc_text.h"
#include "server/store/store.h"

namespace hisha::server::service {

using store::MailPlayerRow;
using store::MailRow;

namespace {

constexpr Millis HOUR_MS = 3'600'000;

std::vector<std::string> split_kinds(std::string_view s) {
    std::vector<std::string> out;
    for (std::string_view k : MAIL_KINDS)
        if (("," + std::string(s) + ",").find("," + std::string(k) + ",") != std::string::npos)
            out.emplace_back(k);
    return out;
}

std::string joined(const std::vector<std::string>& kinds) {
    std::string out;
    for (const auto& k : kinds)
        out += (out.empty() ? "" : ",") + k;
    return out;
}

bool has_kind(const MailPlayerRow& p, std::string_view kind) {
    return ("," + p.kinds + ",").find("," + std::string(kind) + ",") != std::string::npos;
}

std::string game_mark(std::int64_t id) { return "," + std::to_string(id) + ","; }

MailSettings settings_of(const MailPlayerRow& p) { return {p.address, p.confirmed, split_kinds(p.kinds)}; }

}  // namespace

std::string mail_token() {
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    static const char* const HEX = "0123456789abcdef";
    std::string out;
    for (unsigned char c : raw)
        out += {HEX[c >> 4], HEX[c & 15]};
    return out;
}

std::string mail_token_hash(std::string_view token) {
    unsigned char h[32];
    crypto_generichash(h, sizeof h, reinterpret_cast<const unsigned char*>(token.data()), token.size(), nullptr, 0);
    static const char* const HEX = "0123456789abcdef";
    std::string out;
    for (unsigned char c : h)
        out += {HEX[c >> 4], HEX[c & 15]};
    return out;
}

Mail::Mail(Service& svc, store::Store& store, Environment& env, MailConfig config)
    : svc_(svc), store_(store), env_(env), config_(std::move(config)) {
    while (!config_.base_url.empty() && config_.base_url.back() == '/')
        config_.base_url.pop_back();
    // The log keeps what happened to the old ones; the queued are sent at once.
    store_.forget_mails(env_.now() - 7 * 24 * HOUR_MS, env_.now());
}

// --- the player's side

Reply<MailSettings> Mail::settings(std::string_view user) {
    if (svc_.is_guest(user))
        return fail("a guest has no mail settings: register to keep an address");
    auto p = store_.mail_player("player_key", name_key(user));
    return p ? settings_of(*p) : MailSettings{{}, false, {std::begin(MAIL_KINDS), std::end(MAIL_KINDS)}};
}

Reply<MailSettings> Mail::set_address(std::string_view user, std::string_view address) {
    if (svc_.is_guest(user))
        return fail("a guest has no mail settings: register to keep an address");
    std::string key = name_key(user);
    auto p =
        store_.mail_player("player_key", key).value_or(MailPlayerRow{key, {}, false, "turn,challenge,end,message"});
    if (address.empty()) {
        p.address.clear();
        p.confirmed = false;
        p.confirm_hash.clear();
        p.notified.clear();
        if (!store_.save_mail_player(p))
            return fail("storage error: " + store_.last_error());
        return settings_of(p);
    }
    if (std::string why = mail::address_problem(address); !why.empty())
        return fail(why);
    if (p.address == address && p.confirmed)
        return settings_of(p);
    // The hourly limit holds confirmation mails too (nobody makes the server mail a stranger
    // more often than that).
    if (store_.mails_since(key, env_.now() - HOUR_MS) >= config_.per_hour)
        return fail("too many mails to you this hour: try again later");
    std::string token = mail_token();
    p.address = std::string(address);
    p.confirmed = false;
    p.confirm_hash = mail_token_hash(token);
    p.confirm_expires = env_.now() + config_.confirm_lifetime_ms;
    if (p.unsubscribe.empty())
        p.unsubscribe = mail_token();
    p.notified.clear();
    if (!store_.save_mail_player(p))
        return fail("storage error: " + store_.last_error());
    std::string name = display_name(key);
    std::string body =
        "Hello " + name + ",\n\nsomeone (you, we hope) gave this address for the Hisha shogi server's mail as " + name
        + ". To confirm it, open this link within " + std::to_string(config_.confirm_lifetime_ms / (24 * HOUR_MS))
        + " days:\n\n" + link("#/mail/confirm/" + token)
        + "\n\nUntil then nothing else is mailed here. If it was not you, ignore this mail.\n";
    if (!queue(p, "confirm", 0, "Confirm your address for Hisha (" + name + ")", body))
        return fail("the confirmation mail could not be queued: " + store_.last_error());
    return settings_of(p);
}

Reply<MailSettings> Mail::set_kinds(std::string_view user, const std::vector<std::string>& kinds) {
    if (svc_.is_guest(user))
        return fail("a guest has no mail settings: register to keep an address");
    for (const auto& k : kinds)
        if (std::find(std::begin(MAIL_KINDS), std::end(MAIL_KINDS), k) == std::end(MAIL_KINDS))
            return fail("unknown mail kind " + k + " (turn, challenge, end or message)");
    std::string key = name_key(user);
    auto p = store_.mail_player("player_key", key).value_or(MailPlayerRow{key, {}, false, {}});
    p.kinds = joined(kinds);
    p.kinds = joined(split_kinds(p.kinds));  // in the canonical order, once each
    if (!store_.save_mail_player(p))
        return fail("storage error: " + store_.last_error());
    return settings_of(p);
}

Reply<std::string> Mail::confirm(std::string_view token) {
    auto p = token.size() == 64 ? store_.mail_player("confirm_hash", mail_token_hash(token)) : std::nullopt;
    if (!p)
        return fail("this confirmation link is not valid (used already, or replaced by a newer address)");
    if (p->confirm_expires < env_.now())
        return fail("this confirmation link has expired: give the address again for a new one");
    p->confirmed = true;
    p->confirm_hash.clear();
    if (!store_.save_mail_player(*p))
        return fail("storage error: " + store_.last_error());
    log_event("mail_confirmed", {{"user", p->player_key}});
    return display_name(p->player_key);
}

Reply<std::string> Mail::unsubscribe(std::string_view token) {
    auto p = token.size() == 64 ? store_.mail_player("unsubscribe", std::string(token)) : std::nullopt;
    if (!p)
        return fail("this unsubscribe link is not valid");
    p->kinds.clear();
    p->notified.clear();
    if (!store_.save_mail_player(*p))
        return fail("storage error: " + store_.last_error());
    log_event("mail_unsubscribed", {{"user", p->player_key}});
    return display_name(p->player_key);
}

// --- the service's hooks

std::optional<MailPlayerRow> Mail::recipient(std::string_view user, std::string_view kind, bool away) {
    const UserRow* u = svc_.user(user);
    if (!u || !u->bot.empty() || (away && svc_.online(u->name)))
        return std::nullopt;
    auto p = store_.mail_player("player_key", name_key(u->name));
    if (!p || !p->confirmed || p->address.empty() || !has_kind(*p, kind))
        return std::nullopt;
    return p;
}

void Mail::moved(const LiveGame& g) {
    if (g.log.empty())
        return;
    const std::string& mover = g.player(g.log.back().mover);
    if (auto p = store_.mail_player("player_key", name_key(mover));
        p && p->notified.find(game_mark(g.row.id)) != std::string::npos) {
        std::string mark = game_mark(g.row.id);
        p->notified.replace(p->notified.find(mark), mark.size() - 1, "");
        store_.save_mail_player(*p);
    }
    if (!g.active() || g.row.tc.realtime())
        return;
    const std::string& next = g.player(g.to_move());
    auto p = recipient(next, "turn");
    if (!p || p->notified.find(game_mark(g.row.id)) != std::string::npos)
        return;  // told once already, and not looked at since
    const MoveRecord& last = g.log.back();
    std::string subject = "Your turn in game " + std::to_string(g.row.id) + ": " + mover + " played "
                        + (last.ja.empty() ? last.western : last.ja);
    std::string body = "Hello " + next + ",\n\n" + mover + " played " + (last.ja.empty() ? "" : last.ja + " ") + "("
                     + last.western + ") in game " + std::to_string(g.row.id) + ", and it is your turn.\n" + "Move by "
                     + utc_text(g.row.turn_started + g.deadline(), "%Y-%m-%d %H:%M UTC") + ".\n\n" + game_text(g);
    if (queue(*p, "turn", g.row.id, subject, body)) {
        p->notified = (p->notified.empty() ? "," : p->notified) + std::to_string(g.row.id) + ",";
        store_.save_mail_player(*p);
    }
}

void Mail::ended(const LiveGame& g) {
    for (core::Color c : {core::BLACK, core::WHITE}) {
        auto p = recipient(g.player(c), "end");
        if (!p)
            continue;
        std::string result = g.row.winner == "draw"                                 ? "drawn"
                           : g.row.winner == (c == core::BLACK ? "black" : "white") ? "won"
                                                                                    : "lost";
        std::string subject =
            "Game " + std::to_string(g.row.id) + " is over: you " + result + " against " + g.player(~c);
        std::string body = "Hello " + g.player(c) + ",\n\ngame " + std::to_string(g.row.id) + " against " + g.player(~c)
                         + " is over: you " + result + " (" + g.row.reason + ").\n\n" + game_text(g);
        queue(*p, "end", g.row.id, subject, body);
    }
}

void Mail::challenged(const ChallengeRow& c) {
    if (!pattern_is_literal(c.pattern))
        return;
    auto p = recipient(c.pattern, "challenge");
    if (!p)
        return;
    const char* colour = c.challenger_color == 0 ? "Black (sente)" : "White (gote)";
    std::string body = "Hello " + display_name(p->player_key) + ",\n\n" + c.challenger + " challenges you to a game ("
                     + c.challenger + " plays " + colour + ", " + c.tc.describe() + ")"
                     + (c.comment.empty() ? "" : ": \"" + c.comment + "\"") + ".\n\nAccept or leave it in the lobby:\n"
                     + link("#/lobby") + "\n";
    queue(*p, "challenge", 0, c.challenger + " challenges you (challenge " + std::to_string(c.id) + ")", body);
}

void Mail::message_left(const MessageRow& m) {
    auto p = recipient(m.to, "message");
    if (!p)
        return;
    std::string body = "Hello " + m.to + ",\n\n" + m.from + " left you a message while you were away:\n\n  " + m.text
                     + "\n\nYou will also find it when you next log in.\n" + link("") + "\n";
    queue(*p, "message", 0, "A message from " + m.from, body);
}

void Mail::looked(std::string_view user) {
    auto p = store_.mail_player("player_key", name_key(user));
    if (p && !p->notified.empty()) {
        p->notified.clear();
        store_.save_mail_player(*p);
    }
}

// --- writing and queueing

std::string Mail::link(std::string_view fragment) const { return config_.base_url + "/" + std::string(fragment); }

std::string Mail::display_name(std::string_view user_key) const {
    const UserRow* u = svc_.user(user_key);
    return u ? u->name : std::string(user_key);
}

std::string Mail::footer(const MailPlayerRow& p) const {
    return "\n-- \nHisha shogi server. What is mailed to you: " + link("#/settings")
         + "\nNo more mail (one click): " + link("#/mail/unsubscribe/" + p.unsubscribe) + "\n";
}

std::string Mail::game_text(const LiveGame& g) const {
    std::string out = "Game " + std::to_string(g.row.id) + ": " + g.row.black + " (Black, sente) vs " + g.row.white
                    + " (White, gote), " + g.row.tc.describe() + "\n\nMoves:\n";
    int n = 0;
    for (const MoveRecord& r : g.log) {
        if (!r.board())
            continue;
        ++n;
        std::string entry = std::to_string(n) + ". " + (r.ja.empty() ? r.western : r.ja + " " + r.western);
        out += (n % 2 == 1 ? "  " : "    ") + entry + (n % 2 == 0 ? "\n" : "");
    }
    if (n % 2 == 1)
        out += "\n";
    if (n == 0)
        out += "  (none yet)\n";
    out += "\n" + notation::write_bod(g.game.position()) + "\nThe game: " + link("#/game/" + std::to_string(g.row.id))
         + "\n";
    return out;
}

bool Mail::queue(const MailPlayerRow& p, const std::string& kind, std::int64_t game_id, const std::string& subject,
                 const std::string& body) {
    Millis now = env_.now();
    if (store_.mails_since(p.player_key, now - HOUR_MS) >= config_.per_hour) {
        log_event("mail_limited",
                  {{"user", p.player_key}, {"kind", kind}, {"limit", std::to_string(config_.per_hour)}});
        return false;
    }
    mail::Message m;
    m.from = config_.from;
    m.from_name = "Hisha";
    m.to = p.address;
    m.subject = subject;
    m.text = body + footer(p);
    m.unsubscribe = config_.base_url + "/api/mail/unsubscribe/" + p.unsubscribe;
    m.date_ms = now;
    std::string domain = config_.from.substr(config_.from.rfind('@') + 1);
    m.message_id =
        std::to_string(now) + "." + std::to_string(++sequence_) + "." + mail_token().substr(0, 16) + "@" + domain;
    MailRow row;
    row.player_key = p.player_key;
    row.address = p.address;
    row.kind = kind;
    row.game_id = game_id;
    row.message = mail::write(m);
    row.created = now;
    row.next_try = now;
    if (!store_.insert_mail(row)) {
        log_event("mail_failed", {{"user", p.player_key}, {"kind", kind}, {"error", store_.last_error()}});
        return false;
    }
    log_event("mail_queued", {{"user", p.player_key}, {"kind", kind}, {"mail", std::to_string(row.id)}});
    if (wake)
        wake();
    return true;
}

bool Mail::sender_here() { return svc_.claim("mail sender"); }

bool Mail::shared() const { return store_.shared(); }

std::vector<MailRow> Mail::take_due(int limit) {
    Millis now = env_.now();
    auto due = store_.mails_due(now, limit);
    for (MailRow& m : due) {  // leased: not given again while this attempt may last
        MailRow lease = m;
        lease.next_try = now + 4 * config_.timeout_ms;
        store_.update_mail(lease);
    }
    return due;
}

Millis Mail::next_due() { return store_.next_mail_due(); }

void Mail::done(MailRow m, const MailOutcome& o) {
    Millis now = env_.now();
    ++m.attempts;
    m.error = o.error;
    std::string id = std::to_string(m.id), attempts = std::to_string(m.attempts);
    if (o.kind == MailOutcome::Sent) {
        m.state = MailRow::SENT;
        m.sent = now;
        log_event("mail_sent", {{"mail", id}, {"user", m.player_key}, {"kind", m.kind}});
    } else if (o.kind == MailOutcome::Permanent || m.attempts >= config_.attempts) {
        m.state = MailRow::FAILED;
        log_event(
            o.kind == MailOutcome::Permanent ? "mail_bounced" : "mail_given_up",
            {{"mail", id}, {"user", m.player_key}, {"address", m.address}, {"attempts", attempts}, {"error", o.error}});
    } else {
        Millis delay = config_.retry_ms << std::min(m.attempts - 1, 20);
        m.next_try = now + delay;
        log_event("mail_retry", {{"mail", id},
                                 {"user", m.player_key},
                                 {"attempts", attempts},
                                 {"retry_in_s", std::to_string(delay / 1000)},
                                 {"error", o.error}});
    }
    if (!store_.update_mail(m))
        log_event("mail_failed", {{"mail", id}, {"error", store_.last_error()}});
}

std::vector<int> Mail::counts() { return store_.mail_counts(); }

}  // namespace hisha::server::service
