// The JSON API's administration routes (/api/admin/...): status, bans, kicks, ending games,
// announcements; every action checked and logged by the service (Service::authorize).
#include "server/proto/json_api.h"
#include "server/proto/json_api_util.h"

// The rows of the administrators' status as JSON objects, a field for each member named (an
// audit entry without its id).
namespace hisha::server {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(BanRow, kind, target, reason, by, created, expires)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(AuditRow, at, admin, action, target, detail, peer)
namespace service {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ConnectionInfo, name, protocol, peer, since)
}
}  // namespace hisha::server

namespace hisha::server::proto {

using nlohmann::json;
using namespace json_util;

namespace {
// GET /api/admin/status: the connections, the server's figures, the bans and the last 50 audit entries.
json status_json(service::Service& svc) {
    json status = json::object();
    for (auto& [k, v] : svc.status())
        status[k] = v;
    return json{
        {"connections", svc.connections()}, {"status", status}, {"bans", svc.bans()}, {"audit", svc.audit_log(50)}};
}
}  // namespace

HttpReply JsonApi::admin(std::string_view method, const std::vector<std::string>& seg, const json& in,
                         const std::string& me, std::string_view peer) {
    service::AdminActor who{me, std::string(peer)};
    auto refused = [](const std::string& why) { return error(why == service::NOT_ADMIN ? 403 : 400, why); };
    bool post = method == "POST";
    auto route = [&](std::initializer_list<const char*> parts) {
        if (seg.size() != parts.size() + 1)
            return false;
        std::size_t i = 1;
        for (const char* p : parts) {
            if (std::string_view(p) != "*" && seg[i] != p)
                return false;
            ++i;
        }
        return true;
    };
    auto kind_of = [&](service::BanKind& kind) {
        std::string k = str(in, "kind");
        kind = k == "address" ? service::BanKind::Address : service::BanKind::User;
        return k == "user" || k == "address";
    };
    if (method == "GET" && route({"status"})) {
        if (auto r = svc_.authorize(who, "status"); !r)
            return refused(r.error());
        return reply(200, status_json(svc_));
    }
    if (post && (route({"ban"}) || route({"unban"}))) {
        service::BanKind kind;
        if (!kind_of(kind))
            return error(400, "kind must be \"user\" or \"address\"");
        if (seg[1] == "unban") {
            auto r = svc_.unban(who, kind, str(in, "target"));
            return r ? reply(200, {{"ok", true}}) : refused(r.error());
        }
        service::Millis duration = 0;
        if (std::string d = str(in, "duration"); !d.empty()) {
            auto ms = service::Service::parse_duration(d);
            if (!ms)
                return error(400, "bad duration '" + d + "' (30m, 12h, 7d, 2w; empty: until lifted)");
            duration = *ms;
        }
        auto b = svc_.ban(who, kind, str(in, "target"), duration, str(in, "reason"));
        if (!b)
            return refused(b.error());
        return reply(200, {{"kind", b->kind}, {"target", b->target}, {"expires", b->expires}});
    }
    if (post && route({"kick"})) {
        auto n = svc_.kick(who, str(in, "name"), str(in, "reason"));
        return n ? reply(200, {{"closed", *n}}) : refused(n.error());
    }
    if (post && (route({"games", "*", "abort"}) || route({"games", "*", "adjudicate"}))) {
        auto id = to_id(seg[2]);
        if (!id)
            return error(400, "bad game number " + seg[2]);
        service::Reply<void> r;
        if (seg[3] == "abort") {
            r = svc_.abort_game(who, *id, str(in, "reason"));
        } else {
            core::Winner winner = service::winner_from_name(str(in, "winner"));
            if (winner == core::Winner::None)
                return error(400, "winner must be \"black\", \"white\" or \"draw\"");
            r = svc_.adjudicate(who, *id, winner, str(in, "reason"));
        }
        if (!r)
            return refused(r.error());
        return reply(200, {{"ok", true}, {"game", game_json(*svc_.game(*id), false)}});
    }
    if (post && route({"announce"})) {
        auto n = svc_.announce(who, str(in, "text"));
        return n ? reply(200, {{"reached", *n}}) : refused(n.error());
    }
    if (auto r = svc_.authorize(who, "unknown"); !r)
        return refused(r.error());
    return error(
        404, "no such administrators' API: " + std::string(method) + " /api/" + [&] {
            std::string p;
            for (auto& s : seg)
                p += (p.empty() ? "" : "/") + s;
            return p;
        }());
}

}  // namespace hisha::server::proto
