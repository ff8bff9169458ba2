// The JSON API of the web UI, without sockets: HTTP requests (method, target, body, token)
// map to service calls and JSON replies; WebSocket messages and events use the same JSON.
//
//   POST /api/register|login {name,password} -> {token,user}      POST /api/logout
//   GET  /api/version -> {version}
//   GET  /api/me   GET /api/lobby   GET /api/users?pattern=P   GET /api/who
//   GET  /api/challenges   POST /api/challenges {pattern,color,first_move,comment,time_control}
//   POST /api/challenges/N/accept   DELETE /api/challenges/N
//   GET  /api/games (active)   GET /api/games/N   GET /api/games/N/record?format=kif|csa|psn|sfen|ki2|usi
//   POST /api/games {opponent,color,time_control,handicap}   POST /api/games/N/{move|resign|undo|seen|say|watch}
//   POST /api/tell {to,text,leave}   POST /api/shout {text}
// Stateless helpers of the board (no login; the rules stay in core/, the browser asks):
//   POST /api/position {sfen,moves} -> {sfen,turn,check,legal,over,moves:[{usi,western,ja,kif}]}
//   POST /api/record/parse {text,name} -> {start_sfen,headers,moves (with comments, variations),result}
//   POST /api/record/write {sfen,moves,format,headers} -> the record's text
// Served by net/http_server.cpp: POST /api/tsume (with a login: a job of the solver's queue).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <string_view>

#include "server/service/service.h"

namespace hisha::server::proto {

struct HttpReply {
    int status = 200;
    std::string body;
    std::string content_type = "application/json";
    std::string filename;   // set for downloads (Content-Disposition)
    int retry_after_s = 0;  // 429 and 503: Retry-After
};

class JsonApi {
public:
    explicit JsonApi(service::Service& svc) : svc_(svc) {}
    HttpReply handle(std::string_view method, std::string_view target, std::string_view body, std::string_view token);
    /// POST /api/register and /api/login, whose password is hashed or checked on another thread:
    /// `done` gets the reply later (at once when refused: 400/401, limited: 429, busy: 503).
    /// False when the request is not one of them (handle() answers it).
    bool account(std::string_view method, std::string_view target, std::string_view body, const std::string& peer,
                 std::function<void(HttpReply)> done);
    /// A WebSocket message from `user`: the reply to send back.
    nlohmann::json on_ws_message(const std::string& user, std::string_view text);
    nlohmann::json event_json(const service::Event& e);
    /// The event as the WebSocket message every listener gets (a move's is made once).
    std::string event_text(const service::Event& e);
    nlohmann::json game_json(const service::LiveGame& g, bool with_moves = true);
    std::string record(const service::LiveGame& g, std::string_view format, std::string& filename, bool& ok);

    /// A move in every spelling the UI shows: usi, western, ja (KI2 with its side mark), kif.
    static nlohmann::json move_json(const core::Position& pos, core::Move m, core::Move previous);
    /// The legal moves of the side to move (USI, promotion choices included).
    static nlohmann::json legal_json(const core::Position& pos);
    /// The side to move, check, the legal moves (USI, promotion choices included) and whether the
    /// side to move is checkmated or has no move.
    static nlohmann::json position_json(const core::Position& pos);
    /// "startpos", "" or an SFEN (with "sfen " and " moves ..." allowed) and then `moves` (USI):
    /// the position, or an error message. Relaxed SFEN rules (composed problems).
    static std::unique_ptr<core::Position> read_position(const nlohmann::json& in, std::string& error,
                                                         nlohmann::json* moves_out = nullptr);

private:
    HttpReply account_reply(bool registering, const service::AuthReply& r);
    nlohmann::json user_json(const UserRow& u);
    nlohmann::json challenge_json(const ChallengeRow& c);
    nlohmann::json clock_json(const service::LiveGame& g);
    /// The position the game's moves start from (after a handicap removal).
    static std::string start_sfen(const service::LiveGame& g);
    service::Service& svc_;
    std::shared_ptr<const service::MoveFacts> cached_facts_;  // event_text(): the last move's
    std::int64_t cached_game_ = 0;
    std::string cached_text_;
};

}  // namespace hisha::server::proto
