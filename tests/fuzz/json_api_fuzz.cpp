// libFuzzer target for the JSON API and the WebSocket messages. The input's first line is the
// request line ("METHOD /api/... [token]"), the rest its body; a first line "WS user" sends the
// rest as a WebSocket message from that user instead. Every request must get a status and a body
// that is valid JSON (or a record download), without a crash, a leak or a hang.
#include <nlohmann/json.hpp>

#include <string>

#include "server/proto/json_api.h"
#include "server_fuzz.h"

using namespace hisha::server;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::World& w = fuzz::world();
    w.env.t += 10'000;
    static proto::JsonApi api(*w.svc);
    std::string_view in(reinterpret_cast<const char*>(data), size);
    auto nl = in.find('\n');
    std::string_view head = in.substr(0, nl), body = nl == std::string_view::npos ? "" : in.substr(nl + 1);
    auto sp = head.find(' ');
    std::string_view method = head.substr(0, sp), rest = sp == std::string_view::npos ? "" : head.substr(sp + 1);
    auto sp2 = rest.find(' ');
    std::string_view target = rest.substr(0, sp2), token = sp2 == std::string_view::npos ? "" : rest.substr(sp2 + 1);
    if (method == "WS") {
        nlohmann::json reply = api.on_ws_message(std::string(target), body);
        FUZZ_CHECK(!reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).empty());
        return 0;
    }
    bool async = api.account(method, target, body, "127.0.0.1", token, [](proto::HttpReply r) {
        FUZZ_CHECK(r.status >= 200 && r.status < 600);
    });
    if (async)
        return 0;
    proto::HttpReply r = api.handle(method, target, body, token, "127.0.0.1");
    FUZZ_CHECK(r.status >= 200 && r.status < 600);
    if (r.content_type == "application/json")
        FUZZ_CHECK(nlohmann::json::accept(r.body));
    return 0;
}
