// The text protocol's messages (SAY, SHOUT, TELL and `.`) and information commands (USER/STATS,
// WHO, SET): the part of TextShell that talks about players rather than games.
#include <algorithm>
#include <set>
#include <utility>

#include "notation/encoding.h"
#include "server/proto/text_shell.h"
#include "server/proto/text_shell_words.h"
#include "server/service/pattern.h"

namespace hisha::server::proto {

using service::Event;
using service::EventKind;
using service::LiveGame;
using namespace text_words;

// --- messages

void TextShell::send_message(const std::string& to, std::int64_t gid, const std::string& text) {
    auto r = gid ? svc_.say(user_, gid, text, false) : svc_.tell(user_, to, text, false);
    if (!r)
        return error(r.error());
    if (*r == service::TellResult::Delivered)
        return line("Told " + to + ".");
    pending_to_ = to;
    pending_gid_ = gid;
    pending_text_ = text;
    mode_ = Mode::LeaveMessage;
}

void TextShell::cmd_say(const Args& a) {
    if (a.size() < 2)
        return error("usage: SAY message text");
    if (current_ == 0)
        return error("no current game: load one with BOARD <gid>");
    const LiveGame* g = svc_.game(current_);
    if (!g || !g->color_of(user_))
        return error("game " + std::to_string(current_) + " is not yours");
    send_message(g->player(~*g->color_of(user_)), current_, rest_of(raw_line_, 1));
}

void TextShell::cmd_shout(const Args& a) {
    if (a.size() < 2)
        return error("usage: SHOUT message text");
    auto r = svc_.shout(user_, rest_of(raw_line_, 1));
    if (!r)
        return error(r.error());
}

void TextShell::cmd_tell(const Args& a) {
    if (a.size() < 3)
        return error("usage: TELL <player.name> message text, or TELL . message text");
    std::string to = a[1];
    if (to == ".") {
        to = svc_.last_tell(user_);
        if (to.empty())
            return error("you have not told anybody anything yet");
    }
    const UserRow* u = svc_.user(to);
    if (!u)
        return error("no such player: " + to);
    send_message(u->name, 0, rest_of(raw_line_, 2));
}

// --- information

void TextShell::cmd_user(const Args& a) {
    // USER [pattern...]: the players any pattern matches, each once, in the order of the list.
    std::vector<std::string> patterns(a.begin() + 1, a.end());
    if (patterns.empty())
        patterns.push_back(user_);
    using UserPtr = decltype(svc_.users(""))::value_type;
    std::vector<UserPtr> users;
    std::set<UserPtr> seen;
    for (const std::string& pattern : patterns) {
        if (!service::pattern_valid(pattern))
            return error("bad pattern " + pattern + " (HELP PATTERNS)");
        for (auto* u : svc_.users(pattern))
            if (seen.insert(u).second)
                users.push_back(u);
    }
    if (users.empty())
        return line("No player matches " + rest_of(raw_line_, 1) + ".");
    std::set<std::string> online;  // on any server
    for (auto& o : svc_.who("*"))
        online.insert(o.name);
    std::vector<std::string> lines;
    lines.push_back("Name              Rating   RD   Won Lost Drawn  Last login        Status");
    for (auto* u : users) {
        std::string status = !u->bot.empty() ? "bot " + u->bot : online.contains(u->name) ? "online" : "";
        if (auto back = svc_.vacation_until(u->name))  // issue 20: vacations
            status += (status.empty() ? "" : ", ") + std::string("on vacation until ") + time_text(*back);
        char buf[160];
        std::snprintf(buf, sizeof buf, "%-17s %6.0f %4.0f %5d %4d %5d  %-17s %s", u->name.c_str(), u->rating,
                      u->deviation, u->wins, u->losses, u->draws, time_text(u->last_login).c_str(), status.c_str());
        lines.emplace_back(buf);
    }
    page(std::move(lines));
}

void TextShell::cmd_who(const Args& a) {
    std::string pattern = a.size() > 1 ? a[1] : "*";
    if (!service::pattern_valid(pattern))
        return error("bad pattern (HELP PATTERNS)");
    auto who = svc_.who(pattern);
    if (who.empty())
        return line("Nobody matching " + pattern + " is online.");
    line("Name              Logged in (UTC)    Via");
    for (auto& o : who)
        line(pad(o.name, 18) + pad(time_text(o.since), 19) + o.protocol);
}

void TextShell::cmd_set(const Args& a) {
    if (a.size() < 2) {
        line("Settings:");
        for (auto k : {"BLACK", "WHITE", "THREATENED", "DRAGON", "KANJI", "PSTYLE", "BSTYLE"}) {
            std::string v = svc_.setting(user_, k);
            line("  " + pad(k, 11) + (v.empty() ? "(default)" : v));
        }
        return;
    }
    std::string what = upper(a[1]);
    if (what == "EMAIL" || what == "MAIL")
        return set_mail(a);  // (issue 20: mail notifications)
    if (what == "STYLE")
        what = "BSTYLE";
    std::string value = a.size() > 2 ? upper(a[2]) : "";
    if (what == "BLACK" || what == "WHITE" || what == "THREATENED") {
        if (value.empty() || value == "?") {
            std::string names;
            for (auto& n : attribute_names())
                names += " " + n;
            return line("Attributes:" + names);
        }
        if (attribute_code(value) == "?")
            return error("unknown attribute " + value + " (SET " + what + " ? lists them)");
    } else if (what == "DRAGON") {
        if (value != "OLD" && value != "NEW")
            return error("usage: SET DRAGON OLD|NEW");
    } else if (what == "KANJI") {
        if (value == "1")
            return error("JIS (ISO-2022-JP) output is not available: use 0 (UTF-8), 2 (EUC) or 3 (Shift-JIS)");
        if (value != "0" && value != "2" && value != "3")
            return error("usage: SET KANJI 0|2|3 (UTF-8, EUC, Shift-JIS)");
    } else if (what == "PSTYLE") {
        if (value.size() != 1 || value[0] < '0' || value[0] > '4')
            return error("usage: SET PSTYLE 0..4");
    } else if (what == "BSTYLE") {
        if (value.size() != 1 || value[0] < '0' || value[0] > '2')
            return error("usage: SET BSTYLE 0|1|2");
    } else {
        return error("unknown setting " + a[1] + " (BLACK WHITE THREATENED DRAGON KANJI PSTYLE BSTYLE)");
    }
    if (auto r = svc_.set_setting(user_, what, value); !r)
        return error(r.error());
    line(what + " set to " + value + ".");
}

}  // namespace hisha::server::proto
