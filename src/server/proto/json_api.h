// The JSON API of the web UI, without sockets: HTTP requests (method, target, body, token)
// map to service calls and JSON replies; WebSocket messages and events use the same JSON.
//
//   POST /api/register|login {name,password} -> {token,user}; with "cookie":true -> {user} and the
//        session cookie instead (the web page: HttpOnly, SameSite=Strict; the token is never in JS)
//   POST /api/logout (this session)   POST /api/logout/everywhere (every session of the account)
//   POST /api/guest -> {user} (user.guest true) and the session cookie of a new guest account
//        "guest-xxxxxx" (no login; limited per address like registrations; plays the bots only,
//        unrated; no challenges, TELL or SHOUT; gone a day later). POST /api/register with a
//        guest's session makes the account and gives it the guest's games.
//   GET  /api/version -> {version}
//   GET  /api/me   GET /api/lobby   GET /api/users?pattern=P   GET /api/who
//   GET  /api/challenges   POST /api/challenges {pattern,color,first_move,comment,time_control}
//   POST /api/challenges/N/accept   DELETE /api/challenges/N
//   GET  /api/games (active)   GET /api/games/N   GET /api/games/N/record?format=kif|kifu|csa|psn|sfen|ki2|usi
//   GET  /api/games/N/spectators -> {count, names} (watching now: connected, not the players); every
//        change reaches the game's players and watchers on the WebSocket as {type:"spectators",game,count,names}
//   GET  /api/ratings (the public rating list: accounts with rated games, best first)
//   GET  /api/users/NAME -> the public profile: user fields, history:[{time,game,rating,deviation}] (after
//        each rated game), by_color:{black,white:{wins,losses,draws}}, by_time_control:[{time_control,...}]
//   GET  /api/users/NAME/games?opponent=&result=win|loss|draw&time_control=&from=&to=&limit=&offset=
//        -> {total, games:[{id,black,white,color,opponent,result,winner,reason,time_control,started,ended,plies}]}
//        (finished games, the last ended first; from/to: YYYY-MM-DD (UTC) or epoch ms; opponent: part of a name)
//   GET  /api/users/NAME/games/records?format=kif|kifu|csa (and the same filters): every game in one file
//        (KIF Shift_JIS, KIFU UTF-8, CSA with a '/' line between games)
//   GET  /api/tournaments -> {now, tournaments:[{pattern,interval_s,next_round,rounds,games,waiting}]}
//   GET  /api/tournaments/PATTERN/games?limit=N (PATTERN percent-encoded; newest first, each with its record's URL)
//   POST /api/games {opponent,color,time_control,handicap}   POST /api/games/N/{move|resign|undo|seen|say|kibitz|watch}
//   POST /api/games/N/move {move, ply}: "ply" (optional) the plies the client saw, 409 if the game
//        has another number (a move sent again after a lost connection is never played twice)
//   POST /api/tell {to,text,leave}   POST /api/shout {text}
//   GET|POST|DELETE /api/vacation: the player's vacation days {on,started,until,allowance,used,left};
//        POST {until: "YYYY-MM-DD" | epoch ms | absent} starts one (correspondence clocks stop on their
//        turn), DELETE ends it (json_api_pauses.cpp; service/pauses.h)
//   POST /api/games/N/adjourn|resume|decline: offer or accept an adjournment (both clocks stop) or its
//        resumption; decline the opponent's offer -> {step: offered|done|declined, game}. A game carries
//        adjourned, adjourned_at, offer {by,color,kind}, vacation {black,white: until}; its clock stopped
//   GET|PUT|DELETE /api/games/N/conditional: the player's conditional moves in game N (their own
//        only; PUT while the opponent is to move) {tree:[{move,reply,then:[...]}]} (USI) ->
//        {game,ply,tree}; the server plays the reply when the opponent's move matches a branch
//        (service/conditional.h: every move checked, at most 8 levels and 64 branches)
//   GET  /api/puzzles/next -> {puzzle:{id,sfen,length,rating,source,ply}, player:{rating,deviation,plays,rated}}
//        (tsume puzzles of hisha-server --puzzles FILE: the nearest the player's rating not done; guests unrated)
//   GET  /api/puzzles/ID   POST /api/puzzles/ID/attempt {moves:[usi...]} (from the start, the defender's
//        replies as given) -> {result: correct|continue (reply)|wrong (reason: illegal|not a check|no mate,
//        refutation, explanation), rated, rating:{before,after,change}, solution when it ended}
//   GET  /api/puzzles/ID/hint?moves=M1,M2&level=1|2 (the moves played) -> {from|drop} (the piece), level 2
//        also {move} (rated as failed): the solution's move, or off its line the solver's
//   GET  /api/mail -> {address, confirmed, kinds:[turn|challenge|end|message]}   PUT /api/mail {address?, kinds?}
//        (a new address is mailed a confirmation link; nothing else goes there until it is confirmed;
//        "" forgets it). POST /api/mail/confirm {token} and POST /api/mail/unsubscribe/TOKEN (no login:
//        the mails' links; RFC 8058 one click, any body) -> {user}. 404 where SMTP is not configured.
// Stateless helpers of the board (no login; the rules stay in core/, the browser asks):
//   POST /api/position {sfen,moves} -> {sfen,turn,check,legal,over,moves:[{usi,western,ja,kif}]}
//   POST /api/record/parse {text,name} -> {start_sfen,headers,moves (with comments, variations),result}
//   POST /api/record/write {sfen,moves,format,headers} -> the record's text
// Administrators only (403 otherwise; each action logged and audited, see Service):
//   GET  /api/admin/status -> {connections,status,bans,audit}
//   POST /api/admin/ban {kind: user|address, target, duration ("7d"; "" until lifted), reason}
//   POST /api/admin/unban {kind, target}   POST /api/admin/kick {name, reason}
//   POST /api/admin/games/N/abort {reason}   POST /api/admin/games/N/adjudicate {winner: black|white|draw, reason}
//   POST /api/admin/announce {text}   POST /api/admin/reset-password {name, password}
// Served by net/http_server.cpp: POST /api/tsume (with a login: a job of the solver's queue).
//        {"explain": true} adds explain: {defences, yozume, undecided, questions, timeouts}
//        (the other defences on the main line and other mating moves: net/tsume_explain_json.h)
// Credentials: `Authorization: Bearer <token>`, or the session cookie; a request authenticated by
// the cookie that changes something must carry `X-Hisha-Request: 1` and a same-origin Origin
// (net/http_server.cpp checks it: CSRF).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/service/service.h"

namespace hisha::tsume {
class Solver;
}
namespace hisha::puzzle {
struct Puzzle;
}

namespace hisha::server::proto {

/// The web page's session cookie (its value is a session token).
inline constexpr std::string_view SESSION_COOKIE = "hisha_session";
/// The header a cookie-authenticated request that changes something must carry (a page of
/// another site cannot send it without the server's consent: CSRF).
inline constexpr std::string_view CSRF_HEADER = "X-Hisha-Request";

struct HttpReply {
    int status = 200;
    std::string body;
    std::string content_type = "application/json";
    std::string filename;         // set for downloads (Content-Disposition)
    int retry_after_s = 0;        // 429 and 503: Retry-After
    std::string set_cookie = {};  // a Set-Cookie value (the network adds Secure over HTTPS)
    /// A reply that needs the tsume solver first (a puzzle's attempt or hint): the network runs
    /// `work` as a job of the solver's queue on a solver thread (never on the event loop), then
    /// `then` on the loop makes the reply. Empty: the reply is complete.
    struct Deferred {
        std::string account;      // the job's account (one job at a time each)
        std::string kind;         // for the queue's log
        std::int64_t max_ms = 0;  // how long the work may run at most
        std::function<void(tsume::Solver&)> work;
        std::function<HttpReply()> then;
    };
    std::shared_ptr<Deferred> deferred = {};
};

class JsonApi {
public:
    explicit JsonApi(service::Service& svc) : svc_(svc) {}
    /// `peer`: the client's address (the administrators' audit log).
    HttpReply handle(std::string_view method, std::string_view target, std::string_view body, std::string_view token,
                     std::string_view peer = {});
    /// POST /api/register, /api/login and /api/admin/reset-password, whose password is hashed or
    /// checked on another thread: `done` gets the reply later (at once when refused: 400/401/403,
    /// limited: 429, busy: 503). False when the request is not one of them (handle() answers it).
    bool account(std::string_view method, std::string_view target, std::string_view body, const std::string& peer,
                 std::string_view token, std::function<void(HttpReply)> done);
    /// The Set-Cookie value that holds `token` (empty: the one that clears it).
    std::string session_cookie(const std::string& token) const;
    /// The reply, with its deferred work (if any) done here with `solver` (tests, tools).
    static HttpReply settle(HttpReply r, tsume::Solver& solver);
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
    /// A request as the routes see it: the path's segments after /api, the query string, the
    /// body, and the logged-in user for the routes that need one.
    struct Request {
        std::string_view method;
        std::vector<std::string> seg;
        std::string_view query;
        nlohmann::json in;
        std::string_view token, peer;
        std::string me;
    };
    using Handler = HttpReply (JsonApi::*)(Request&);
    struct Route {
        std::string_view method;   // empty: any
        std::string_view pattern;  // segments after /api/: "*" any one, a last "**" any number
        bool login;
        Handler handler;
    };
    static const std::vector<Route>& routes();
    // The routes' handlers (the path in each name; see the list at the top).
    HttpReply get_version(Request& r);
    HttpReply get_who(Request& r);
    HttpReply get_games(Request& r);
    HttpReply get_game(Request& r);
    HttpReply get_game_record(Request& r);
    HttpReply get_ratings(Request& r);
    HttpReply get_tournaments(Request& r);
    HttpReply get_tournament_games(Request& r);
    HttpReply get_users(Request& r);
    // (json_api_players.cpp: the player page's and the game page's public reads)
    HttpReply get_user(Request& r);
    HttpReply get_user_games(Request& r);
    HttpReply get_user_records(Request& r);
    HttpReply get_game_spectators(Request& r);
    HttpReply post_position(Request& r);
    HttpReply post_record_parse(Request& r);
    HttpReply post_record_write(Request& r);
    HttpReply post_logout(Request& r);
    HttpReply post_guest(Request& r);  // json_api_guest.cpp
    HttpReply post_logout_everywhere(Request& r);
    HttpReply get_me(Request& r);
    HttpReply any_admin(Request& r);
    HttpReply get_challenges(Request& r);
    HttpReply get_lobby(Request& r);
    HttpReply post_challenge(Request& r);
    HttpReply post_accept(Request& r);
    HttpReply delete_challenge(Request& r);
    HttpReply post_game(Request& r);
    HttpReply post_game_action(Request& r);
    HttpReply any_game_conditional(Request& r);  // json_api_conditional.cpp
    HttpReply any_puzzles(Request& r);           // json_api_puzzles.cpp
    HttpReply any_vacation(Request& r);          // json_api_pauses.cpp
    HttpReply post_game_pause(Request& r);
    void pause_clock(nlohmann::json& clock, const service::LiveGame& g);
    void pause_fields(nlohmann::json& game, const service::LiveGame& g);
    HttpReply any_mail(Request& r);  // json_api_mail.cpp
    HttpReply hint_reply(service::Puzzles& set, const std::string& key, bool guest, const puzzle::Puzzle& p,
                         const std::string& move, const std::string& why, int level, std::size_t ply);
    HttpReply post_tell(Request& r);
    HttpReply post_shout(Request& r);

    HttpReply account_reply(bool registering, bool cookie, const service::AuthReply& r);
    HttpReply admin(std::string_view method, const std::vector<std::string>& seg, const nlohmann::json& in,
                    const std::string& me, std::string_view peer);
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
