// The JSON API's vacations and adjournments (issue 20; service/pauses.h):
//   GET /api/vacation -> {on, started, until, allowance, used, left}
//   POST /api/vacation {until: "YYYY-MM-DD" (UTC) | epoch ms | absent} starts one; DELETE ends it
//   POST /api/games/N/adjourn|resume|decline -> {game, step: "offered"|"done"|"declined", ...game}
// and what a game, its clock and a user carry about them.
#include "server/proto/json_api.h"
#include "server/proto/json_api_util.h"
#include "server/service/pauses.h"

namespace hisha::server::proto {

using json = nlohmann::json;
using namespace json_util;
using service::LiveGame;

namespace {

json vacation_json(const service::VacationInfo& v) {
    return {{"on", v.on},     {"started", v.started}, {"until", v.until}, {"allowance", v.allowance},
            {"used", v.used}, {"left", v.left}};
}

HttpReply refused(const std::string& why) {
    return error(why.find("not yours") != std::string::npos      ? 403
                 : why.find("no such game") != std::string::npos ? 404
                 : why.rfind("storage error", 0) == 0            ? 500
                                                                 : 409,
                 why);
}

}  // namespace

HttpReply JsonApi::any_vacation(Request& r) {
    if (r.method == "GET")
        return reply(200, vacation_json(svc_.vacation(r.me)));
    if (r.method == "DELETE") {
        auto v = svc_.end_vacation(r.me);
        return v ? reply(200, vacation_json(*v)) : error(409, v.error());
    }
    if (r.method != "POST")
        return error(405, "a vacation is read (GET), started (POST) or ended (DELETE)");
    service::Millis until = 0;
    if (r.in.contains("until") && !r.in["until"].is_null()) {
        const json& u = r.in["until"];
        std::optional<service::Millis> t;
        if (u.is_string())
            t = service::parse_utc_date(u.get<std::string>());
        else if (u.is_number_integer() && u.get<std::int64_t>() > 0)
            t = u.get<std::int64_t>();
        if (!t)
            return error(400, "until is the day you are back, \"YYYY-MM-DD\" (UTC), or epoch milliseconds");
        until = *t;
    }
    auto v = svc_.start_vacation(r.me, until);
    return v ? reply(200, vacation_json(*v)) : error(409, v.error());
}

HttpReply JsonApi::post_game_pause(Request& r) {
    auto id = to_id(r.seg[1]);
    if (!id || !svc_.game(*id))
        return error(404, "no such game");
    const std::string& what = r.seg[2];
    json out;
    if (what == "decline") {
        if (auto d = svc_.decline_offer(r.me, *id); !d)
            return refused(d.error());
        out["step"] = "declined";
    } else {
        auto step = what == "adjourn" ? svc_.adjourn(r.me, *id) : svc_.resume(r.me, *id);
        if (!step)
            return refused(step.error());
        out["step"] = *step == service::AgreeStep::Offered ? "offered" : "done";
    }
    out["game"] = game_json(*svc_.game(*id), false);
    return reply(200, out);
}

void JsonApi::pause_clock(json& clock, const LiveGame& g) {
    if (!g.active())
        return;
    service::Millis now = svc_.now();
    // The turn's start as the client counts from it: the stopped time left out.
    clock["turn_started"] = now - svc_.turn_elapsed(g, now);
    bool vacation = !g.row.tc.realtime() && svc_.vacation_until(g.player(g.to_move()));
    clock["stopped"] = g.adjourned() || vacation;
}

void JsonApi::pause_fields(json& game, const LiveGame& g) {
    game["adjourned"] = g.adjourned();
    if (g.adjourned())
        game["adjourned_at"] = g.pauses.back().started;
    json offer = nullptr;
    if (g.active() && g.offer && g.offer->ply == int(g.row.moves.size()) && g.offer->resume == g.adjourned())
        offer = {{"by", g.player(core::Color(g.offer->color))},
                 {"color", g.offer->color == 0 ? "black" : "white"},
                 {"kind", g.offer->resume ? "resume" : "adjourn"}};
    game["offer"] = offer;
    json vacation = json::object();
    if (!g.row.tc.realtime() && g.active())
        for (core::Color c : {core::BLACK, core::WHITE})
            if (auto until = svc_.vacation_until(g.player(c)))
                vacation[c == core::BLACK ? "black" : "white"] = *until;
    game["vacation"] = vacation;
}

}  // namespace hisha::server::proto
