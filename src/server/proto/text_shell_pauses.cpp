// The text protocol's vacations and adjournments (issue 20; service/pauses.h):
//   VACATION                       the allowance and the vacation in force
//   VACATION START [YYYY-MM-DD]    start one (until that day, 00:00 UTC, or while days are left)
//   VACATION END                   end it now
//   ADJOURN [gid]                  offer to adjourn the game, or accept the opponent's offer
//   RESUME [gid]                   offer to resume an adjourned game, or accept the offer
//   DECLINE [gid]                  decline the opponent's offer
// and the lines BOARD, STAT and USER add about them.
#include "server/proto/text_shell.h"
#include "server/proto/text_shell_words.h"
#include "server/service/pauses.h"
#include "server/service/utc_text.h"

namespace hisha::server::proto {

using service::LiveGame;
using namespace text_words;

namespace {

std::string day_text(service::Millis t) { return service::utc_text(t, "%Y-%m-%d %H:%M UTC"); }

std::string vacation_line(const service::VacationInfo& v) {
    std::string days = std::to_string(v.used) + " of " + std::to_string(v.allowance) + " vacation days used this year, "
                     + std::to_string(v.left) + " left.";
    if (v.on)
        return "You are on vacation until " + day_text(v.until) + " (" + days + ")";
    return "You are not on vacation (" + days + ")";
}

}  // namespace

void TextShell::cmd_vacation(const Args& a) {
    std::string what = a.size() > 1 ? upper(a[1]) : "";
    if (what.empty())
        return line(vacation_line(svc_.vacation(user_)));
    if (what == "END" || what == "-") {
        auto v = svc_.end_vacation(user_);
        return v ? line("Vacation ended. " + vacation_line(*v)) : error(v.error());
    }
    if (what != "START" || a.size() > 3)
        return error("usage: VACATION [START [YYYY-MM-DD] | END]");
    service::Millis until = 0;
    if (a.size() == 3) {
        auto d = service::parse_utc_date(a[2]);
        if (!d)
            return error("bad date '" + a[2] + "': give the day you are back as YYYY-MM-DD (UTC)");
        until = *d;
    }
    auto v = svc_.start_vacation(user_, until);
    if (!v)
        return error(v.error());
    line(vacation_line(*v) + " Your correspondence clocks stand still on your turn.");
}

void TextShell::agreement(const Args& a, int which) {
    auto gid = game_arg(a, 1);
    if (!gid)
        return;
    std::string id = std::to_string(*gid);
    if (which == 2) {
        auto r = svc_.decline_offer(user_, *gid);
        return r ? line("Offer in game " + id + " declined.") : error(r.error());
    }
    auto r = which == 0 ? svc_.adjourn(user_, *gid) : svc_.resume(user_, *gid);
    if (!r)
        return error(r.error());
    if (*r == service::AgreeStep::Offered)
        return line(std::string("Offer to ") + (which == 0 ? "adjourn" : "resume") + " game " + id
                    + " sent: your opponent may accept or decline it.");
    line(which == 0 ? "Game " + id + " adjourned: the clocks stand still."
                    : "Game " + id + " resumed: the clocks run on as they stood.");
}

void TextShell::cmd_adjourn(const Args& a) { agreement(a, 0); }
void TextShell::cmd_resume(const Args& a) { agreement(a, 1); }
void TextShell::cmd_decline(const Args& a) { agreement(a, 2); }

std::string TextShell::pause_text(const LiveGame& g) {
    if (!g.active())
        return {};
    std::string out;
    if (g.adjourned())
        out = "Adjourned since " + day_text(g.pauses.back().started) + ": RESUME " + std::to_string(g.row.id)
            + " (both players) continues it.";
    if (g.offer && g.offer->ply == int(g.row.moves.size()) && g.offer->resume == g.adjourned())
        out += std::string(out.empty() ? "" : " ") + g.player(core::Color(g.offer->color)) + " offers to "
             + (g.offer->resume ? "resume" : "adjourn") + ".";
    if (!g.row.tc.realtime())
        for (core::Color c : {core::BLACK, core::WHITE})
            if (auto until = svc_.vacation_until(g.player(c)))
                out += std::string(out.empty() ? "" : " ") + g.player(c) + " is on vacation until " + day_text(*until)
                     + " (the clock stands still on " + g.player(c) + "'s turn).";
    return out;
}

std::string TextShell::pause_tag(const LiveGame& g) {
    if (g.adjourned())
        return " adjourned";
    if (!g.row.tc.realtime())
        if (auto until = svc_.vacation_until(g.player(g.to_move())))
            return " (on vacation until " + service::utc_text(*until, "%Y-%m-%d") + ")";
    return {};
}

}  // namespace hisha::server::proto
