// JsonApi: POST /api/guest, a visitor's temporary account (Service::create_guest), answered like
// a registration with "cookie": true: the user (guest: true) and the session cookie.
#include "server/proto/json_api.h"

namespace hisha::server::proto {

HttpReply JsonApi::post_guest(Request& r) { return account_reply(true, true, svc_.create_guest(std::string(r.peer))); }

}  // namespace hisha::server::proto
