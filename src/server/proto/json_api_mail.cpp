// The JSON API's mail notifications (issue 20, service/mail.h), where the operator configured
// SMTP (404 otherwise: the page shows no mail settings):
//   GET /api/mail -> {address, confirmed, kinds}   PUT /api/mail {address?, kinds?} (login)
//   POST /api/mail/confirm {token} -> {user}   POST /api/mail/unsubscribe/TOKEN -> {user}
// (no login: the links of the mails; the unsubscribe is RFC 8058's one click, whatever its body).
#include "server/proto/json_api.h"
#include "server/proto/json_api_util.h"
#include "server/service/mail.h"

namespace hisha::server::proto {

using json = nlohmann::json;
using namespace json_util;

namespace {

json settings_json(const service::MailSettings& s) {
    return {{"address", s.address}, {"confirmed", s.confirmed}, {"kinds", s.kinds}};
}

HttpReply refused(const std::string& why) { return error(why.rfind("storage error", 0) == 0 ? 500 : 400, why); }

}  // namespace

HttpReply JsonApi::any_mail(Request& r) {
    service::Mail* mail = svc_.mail();
    if (!mail)
        return error(404, "this server sends no mail (its operator has not configured SMTP)");
    if (r.seg.size() == 2 && r.seg[1] == "confirm" && r.method == "POST") {
        auto who = mail->confirm(str(r.in, "token"));
        return who ? reply(200, {{"user", *who}}) : error(400, who.error());
    }
    if (r.seg.size() == 3 && r.seg[1] == "unsubscribe" && r.method == "POST") {
        auto who = mail->unsubscribe(r.seg[2]);
        return who ? reply(200, {{"user", *who}}) : error(400, who.error());
    }
    if (r.seg.size() != 1)
        return error(404, "no such API: mail/" + (r.seg.size() > 1 ? r.seg[1] : std::string()));
    if (r.me.empty()) {
        auto user = svc_.token_user(r.token);
        if (!user)
            return error(401, "log in first (Authorization: Bearer <token>, or the session cookie)");
        r.me = *user;
    }
    if (r.method == "GET") {
        auto s = mail->settings(r.me);
        return s ? reply(200, settings_json(*s)) : refused(s.error());
    }
    if (r.method != "PUT")
        return error(405, "mail settings are read (GET) or changed (PUT)");
    if (r.in.contains("kinds")) {
        const json& k = r.in["kinds"];
        if (!k.is_array() || k.size() > 8)
            return error(400, "kinds is a list of turn, challenge, end and message");
        std::vector<std::string> kinds;
        for (const json& e : k) {
            if (!e.is_string())
                return error(400, "kinds is a list of turn, challenge, end and message");
            kinds.push_back(e.get<std::string>());
        }
        if (auto s = mail->set_kinds(r.me, kinds); !s)
            return refused(s.error());
    }
    if (r.in.contains("address")) {
        if (!r.in["address"].is_string())
            return error(400, "address is a string (\"\" forgets it)");
        auto s = mail->set_address(r.me, r.in["address"].get<std::string>());
        if (!s)
            return refused(s.error());
    }
    auto s = mail->settings(r.me);
    return s ? reply(200, settings_json(*s)) : refused(s.error());
}

}  // namespace hisha::server::proto
