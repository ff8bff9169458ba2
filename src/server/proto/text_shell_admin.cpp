// The text protocol's ADMIN command: an administrator's actions (ban, unban, kick, abort,
// adjudicate, announce, reset a password) and listings (connections, queues, bans, the audit
// log). The rules and the checks are the service's (admin.cpp); this is their wording.
#include <utility>

#include "core/text.h"
#include "server/proto/text_shell.h"
#include "server/proto/text_shell_words.h"

namespace hisha::server::proto {

using namespace text_words;

namespace {

constexpr const char* ADMIN_USAGE[] = {
    "ADMIN BAN USER <name> [FOR <duration>] [reason]",
    "ADMIN BAN ADDRESS <address>[/<bits>] [FOR <duration>] [reason]",
    "ADMIN UNBAN USER <name> | ADMIN UNBAN ADDRESS <address>[/<bits>]",
    "ADMIN BANS",
    "ADMIN KICK <name> [reason]",
    "ADMIN ABORT <gid> [reason]",
    "ADMIN ADJUDICATE <gid> BLACK|WHITE|DRAW [reason]",
    "ADMIN ANNOUNCE <text>",
    "ADMIN RESETPASSWORD <name> <new password>",
    "ADMIN CONNECTIONS | ADMIN QUEUES | ADMIN AUDIT [n]",
    "(durations: 30m, 12h, 7d, 2w; without FOR a ban holds until lifted)",
};

std::string usage_text(std::size_t i) { return std::string("usage: ") + ADMIN_USAGE[i]; }

// "1 player", "3 players".
std::string count_of(std::int64_t n, const std::string& thing) {
    return std::to_string(n) + " " + thing + (n == 1 ? "" : "s");
}

}  // namespace

void TextShell::cmd_admin(const Args& a) {
    using Action = void (TextShell::*)(const Args&, const service::AdminActor&);
    static const std::pair<const char*, Action> ACTIONS[] = {
        {"BAN", &TextShell::admin_ban},
        {"UNBAN", &TextShell::admin_unban},
        {"BANS", &TextShell::admin_bans},
        {"KICK", &TextShell::admin_kick},
        {"ABORT", &TextShell::admin_abort},
        {"ADJUDICATE", &TextShell::admin_adjudicate},
        {"ANNOUNCE", &TextShell::admin_announce},
        {"RESETPASSWORD", &TextShell::admin_reset_password},
        {"CONNECTIONS", &TextShell::admin_listing},
        {"QUEUES", &TextShell::admin_listing},
        {"AUDIT", &TextShell::admin_listing},
    };
    service::AdminActor me{user_, peer()};
    std::string sub = a.size() > 1 ? upper(a[1]) : "";
    if (!svc_.is_admin(user_))  // (refused and logged; the service checks each action again)
        return error(svc_.authorize(me, sub.empty() ? "help" : sub).error());
    if (sub.empty() || sub == "HELP") {
        for (const char* u : ADMIN_USAGE)
            line(u);
        return;
    }
    for (const auto& [name, action] : ACTIONS)
        if (sub == name)
            return (this->*action)(a, me);
    error("unknown ADMIN command '" + a[1] + "' (ADMIN HELP lists them)");
}

std::optional<std::int64_t> TextShell::admin_game_number(const Args& a, std::size_t words, std::size_t usage) {
    if (a.size() < words) {
        error(usage_text(usage));
        return std::nullopt;
    }
    auto id = to_int(a[2]);
    if (!id)
        error("'" + a[2] + "' is not a game number");
    return id;
}

// ADMIN BAN USER|ADDRESS <target> [FOR <duration>] [reason]
void TextShell::admin_ban(const Args& a, const service::AdminActor& me) {
    std::string kind_word = a.size() > 2 ? upper(a[2]) : "";
    if (a.size() < 4 || (kind_word != "USER" && kind_word != "ADDRESS"))
        return error(usage_text(kind_word == "ADDRESS" ? 1 : 0));
    auto kind = kind_word == "USER" ? service::BanKind::User : service::BanKind::Address;
    service::Millis duration = 0;
    std::size_t words = 4;
    if (a.size() > 4 && upper(a[4]) == "FOR") {
        auto d = a.size() > 5 ? service::Service::parse_duration(a[5]) : std::nullopt;
        if (!d)
            return error("'" + (a.size() > 5 ? a[5] : std::string())
                         + "' is not a duration (30m, 12h, 7d, 2w; or no FOR: until lifted)");
        duration = *d;
        words = 6;
    }
    auto b = svc_.ban(me, kind, a[3], duration, rest_of(raw_line_, words));
    if (!b)
        return error(b.error());
    line("Banned " + b->kind + " " + (kind == service::BanKind::User ? svc_.user(a[3])->name : b->target) + " "
         + service::until_text(b->expires) + (b->reason.empty() ? "" : ": " + b->reason) + ".");
}

// ADMIN UNBAN USER|ADDRESS <target>
void TextShell::admin_unban(const Args& a, const service::AdminActor& me) {
    std::string kind_word = a.size() > 2 ? upper(a[2]) : "";
    if (a.size() != 4 || (kind_word != "USER" && kind_word != "ADDRESS"))
        return error(usage_text(2));
    auto kind = kind_word == "USER" ? service::BanKind::User : service::BanKind::Address;
    if (auto r = svc_.unban(me, kind, a[3]); !r)
        return error(r.error());
    line("Lifted the ban of " + a[3] + ".");
}

void TextShell::admin_bans(const Args&, const service::AdminActor& me) {
    if (auto r = svc_.authorize(me, "bans"); !r)
        return error(r.error());
    auto bans = svc_.bans();
    if (bans.empty())
        return line("No bans.");
    for (auto& b : bans)
        line(pad(b.kind, 8) + pad(b.target, 24) + service::until_text(b.expires) + ", by " + b.by + " on "
             + time_text(b.created) + (b.reason.empty() ? "" : ": " + b.reason));
}

void TextShell::admin_kick(const Args& a, const service::AdminActor& me) {
    if (a.size() < 3)
        return error(usage_text(4));
    auto n = svc_.kick(me, a[2], rest_of(raw_line_, 3));
    if (!n)
        return error(n.error());
    line("Closed " + count_of(*n, "connection") + " of " + a[2] + ".");
}

void TextShell::admin_abort(const Args& a, const service::AdminActor& me) {
    auto id = admin_game_number(a, 3, 5);
    if (!id)
        return;
    if (auto r = svc_.abort_game(me, *id, rest_of(raw_line_, 3)); !r)
        return error(r.error());
    line("Game " + std::to_string(*id) + " aborted.");
}

void TextShell::admin_adjudicate(const Args& a, const service::AdminActor& me) {
    auto id = admin_game_number(a, 4, 6);
    if (!id)
        return;
    core::Winner winner = service::winner_from_name(text::lower(a[3]));
    if (winner == core::Winner::None)
        return error("the result is BLACK, WHITE or DRAW, not '" + a[3] + "'");
    if (auto r = svc_.adjudicate(me, *id, winner, rest_of(raw_line_, 4)); !r)
        return error(r.error());
    line("Game " + std::to_string(*id) + " adjudicated: "
         + (winner == core::Winner::Draw    ? "a draw"
            : winner == core::Winner::Black ? "Black wins"
                                            : "White wins")
         + ".");
}

void TextShell::admin_announce(const Args& a, const service::AdminActor& me) {
    if (a.size() < 3)
        return error(usage_text(7));
    auto n = svc_.announce(me, rest_of(raw_line_, 2));
    if (!n)
        return error(n.error());
    line("Announced to " + count_of(*n, "player") + ".");
}

// The new password is hashed off the loop; the answer comes when it is stored.
void TextShell::admin_reset_password(const Args& a, const service::AdminActor& me) {
    if (a.size() != 4)
        return error(usage_text(8));
    std::string name = a[2];
    auto answered = when_answered([this, name](const service::AuthReply& r) {
        if (!r.ok())
            return error(r.error);
        line("The password of " + name + " is reset; their web sessions are logged out.");
    });
    svc_.reset_password(me, name, a[3], [answered](service::Reply<void> r) {
        service::AuthReply reply;
        if (!r) {
            reply.status = service::AuthReply::Status::Refused;
            reply.error = r.error();
        }
        answered(reply);
    });
}

// ADMIN CONNECTIONS | ADMIN QUEUES | ADMIN AUDIT [n], paged.
void TextShell::admin_listing(const Args& a, const service::AdminActor& me) {
    std::string sub = upper(a[1]);
    if (sub != "AUDIT" && a.size() != 2)
        return error(usage_text(9));
    int n = 20;
    if (sub == "AUDIT" && a.size() > 2) {
        auto v = to_int(a[2]);
        if (!v || a.size() > 3 || *v > 1000)
            return error("usage: ADMIN AUDIT [n] (n from 1 to 1000)");
        n = int(*v);
    }
    if (auto r = svc_.authorize(me, sub == "AUDIT" ? "audit" : sub == "QUEUES" ? "queues" : "connections"); !r)
        return error(r.error());
    std::vector<std::string> out;
    if (sub == "CONNECTIONS") {
        for (auto& c : svc_.connections())
            out.push_back(pad(c.name, 20) + pad(c.protocol, 6) + pad(c.peer.empty() ? "-" : c.peer, 40) + "since "
                          + time_text(c.since));
        if (out.empty())
            out.push_back("No one is logged in.");
    } else if (sub == "QUEUES") {
        for (auto& [k, v] : svc_.status())
            out.push_back(pad(k, 32) + v);
    } else {
        for (auto& e : svc_.audit_log(n))
            out.push_back(time_text(e.at) + " " + e.admin + (e.peer.empty() ? "" : " (" + e.peer + ")") + ": "
                          + e.action + " " + e.target + (e.detail.empty() ? "" : " -- " + e.detail));
        if (out.empty())
            out.push_back("The audit log is empty.");
    }
    page(std::move(out));
}

}  // namespace hisha::server::proto
