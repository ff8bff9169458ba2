// The JSON API of the web UI, without sockets: HTTP requests (method, target, body, token)
// map to service calls and JSON replies; WebSocket messages and events use the same JSON.
//
//   POST /api/register|login {name,password} -> {token,user}      POST /api/logout
//   GET  /api/me   GET /api/lobby   GET /api/users?pattern=P   GET /api/who
//   GET  /api/challenges   POST /api/challenges {pattern,color,first_move,comment,time_control}
//   POST /api/challenges/N/accept   DELETE /api/challenges/N
//   GET  /api/games (active)   GET /api/games/N   GET /api/games/N/record?format=kif|csa|psn|sfen|ki2|usi
//   POST /api/games {opponent,color,time_control}   POST /api/games/N/{move|resign|undo|seen|say|watch}
//   POST /api/tell {to,text,leave}   POST /api/shout {text}
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "server/service/service.h"

namespace hisha::server::proto {

struct HttpReply {
    int status = 200;
    std::string body;
    std::string content_type = "application/json";
    std::string filename;  // set for downloads (Content-Disposition)
};

class JsonApi {
public:
    explicit JsonApi(service::Service& svc) : svc_(svc) {}
    HttpReply handle(std::string_view method, std::string_view target, std::string_view body, std::string_view token);
    /// A WebSocket message from `user`: the reply to send back.
    nlohmann::json on_ws_message(const std::string& user, std::string_view text);
    nlohmann::json event_json(const service::Event& e);
    nlohmann::json game_json(const service::LiveGame& g, bool with_moves = true);
    std::string record(const service::LiveGame& g, std::string_view format, std::string& filename, bool& ok);

private:
    nlohmann::json user_json(const UserRow& u);
    nlohmann::json challenge_json(const ChallengeRow& c);
    service::Service& svc_;
};

}  // namespace hisha::server::proto
