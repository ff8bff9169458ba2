// JsonApi: a table of routes (method, path pattern, whether a login is needed, handler) and one
// handler for each; errors are {"error": "..."} with a 4xx status and never throw past handle().
#include "server/proto/json_api.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <vector>

#include "core/movegen.h"
#include "core/text.h"
#include "core/version.h"
#include "notation/formats.h"
#include "notation/usi.h"
#include "notation/western.h"
#include "server/proto/game_record.h"
#include "server/proto/json_api_util.h"
#include "server/proto/move_text.h"

namespace hisha::server::proto {

using nlohmann::json;
using service::LiveGame;
using namespace json_util;

namespace {

// A record as a file to download: its format, the encoding Japanese desktop programs expect of
// its extension (Kakinoki's convention: .kif and .ki2 in Shift_JIS, .kifu and .ki2u in UTF-8)
// and the extension itself.
struct DownloadKind {
    notation::Format format;
    notation::Encoding encoding = notation::Encoding::Utf8;
    std::string extension;
    std::string content_type() const {
        return encoding == notation::Encoding::ShiftJis ? "text/plain; charset=shift_jis" : "text/plain; charset=utf-8";
    }
};

constexpr const char* UNKNOWN_FORMAT = "unknown format (kif kifu ki2 ki2u csa psn sfen usi western xshogi)";

std::optional<DownloadKind> download_kind(std::string_view name) {
    using notation::Encoding;
    using notation::Format;
    std::string n = text::lower(name.empty() ? "kif" : name);
    if (n == "kif")
        return DownloadKind{Format::Kif, Encoding::ShiftJis, "kif"};
    if (n == "kifu")
        return DownloadKind{Format::Kif, Encoding::Utf8, "kifu"};
    if (n == "ki2")
        return DownloadKind{Format::Ki2, Encoding::ShiftJis, "ki2"};
    if (n == "ki2u")
        return DownloadKind{Format::Ki2, Encoding::Utf8, "ki2u"};
    auto fmt = notation::format_from_name(n);
    if (!fmt)
        return std::nullopt;
    static const std::pair<notation::Format, const char*> EXT[] = {
        {Format::Csa, "csa"}, {Format::Csa22, "csa"},   {Format::Psn, "psn"},   {Format::Sfen, "sfen"},
        {Format::Usi, "usi"}, {Format::Western, "txt"}, {Format::Xshogi, "gam"}};
    std::string ext = "txt";
    for (auto& [f, e] : EXT)
        if (f == *fmt)
            ext = e;
    return DownloadKind{*fmt, Encoding::Utf8, ext};
}


// A refusal of the service: 429 with Retry-After when a limit refused it, else `status`.
HttpReply refusal(const service::Service& svc, int status, const std::string& msg) {
    int retry = svc.limit_retry_after_s();
    if (retry <= 0)
        return error(status, msg);
    HttpReply h = reply(429, json{{"error", msg}, {"retry_after_s", retry}});
    h.retry_after_s = retry;
    return h;
}

std::vector<std::string> segments(std::string_view path) {
    std::vector<std::string> out;
    while (!path.empty()) {
        if (path[0] == '/') {
            path.remove_prefix(1);
            continue;
        }
        auto slash = path.find('/');
        out.emplace_back(path.substr(0, slash));
        if (slash == std::string_view::npos)
            break;
        path.remove_prefix(slash);
    }
    return out;
}

std::string url_decode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+')
            out += ' ';
        else if (s[i] == '%' && i + 2 < s.size()) {
            int v = 0;
            std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16);
            out += char(v);
            i += 2;
        } else
            out += s[i];
    }
    return out;
}

std::string query_param(std::string_view query, std::string_view key) {
    while (!query.empty()) {
        auto amp = query.find('&');
        std::string_view kv = query.substr(0, amp);
        auto eq = kv.find('=');
        if (kv.substr(0, eq) == key)
            return eq == std::string_view::npos ? "" : url_decode(kv.substr(eq + 1));
        if (amp == std::string_view::npos)
            break;
        query.remove_prefix(amp + 1);
    }
    return {};
}


// The "type" of each kind of event, in EventKind's order.
constexpr const char* EVENT_TYPES[] = {"game_offered", "game_rejected", "game_started", "move", "undo",
                                       "game_ended",   "say",           "shout",        "tell", "chat",
                                       "notice",       "announce",      "spectators"};
static_assert(std::size(EVENT_TYPES) == std::size_t(service::EventKind::Spectators) + 1);

const char* status_name(GameStatus s) {
    switch (s) {
    case GameStatus::Offered: return "offered";
    case GameStatus::Active: return "active";
    case GameStatus::Finished: return "finished";
    case GameStatus::Aborted: return "aborted";
    }
    return "";
}

// A game of a list without its moves (a tournament's games), with where its CSA record is.
json listed_game_json(const GameRow& g) {
    return {{"id", g.id},
            {"black", g.black},
            {"white", g.white},
            {"game_name", g.csa_game_name},
            {"time_control", g.tc.describe()},
            {"status", status_name(g.status)},
            {"winner", g.winner},
            {"reason", g.reason},
            {"created", g.created},
            {"updated", g.updated},
            {"record", "/api/games/" + std::to_string(g.id) + "/record?format=csa"}};
}


}  // namespace

json JsonApi::user_json(const UserRow& u) {
    return {{"name", u.name},
            {"rating", std::lround(u.rating)},
            {"deviation", std::lround(u.deviation)},
            {"wins", u.wins},
            {"losses", u.losses},
            {"draws", u.draws},
            {"online", svc_.online(u.name)},
            {"bot", u.bot},
            {"guest", svc_.is_guest(u.name)},
            {"vacation_until", svc_.vacation_until(u.name).value_or(0)}};
}

json JsonApi::challenge_json(const ChallengeRow& c) {
    return {{"id", c.id},
            {"challenger", c.challenger},
            {"pattern", c.pattern},
            {"challenger_color", c.challenger_color == 0 ? "black" : "white"},
            {"first_move", c.first_move},
            {"comment", c.comment},
            {"time_control", c.tc.describe()}};
}

json JsonApi::clock_json(const LiveGame& g) {
    json c{{"black_ms", g.row.remaining[0]},
           {"white_ms", g.row.remaining[1]},
           {"turn_started", g.row.turn_started},
           {"allowed_ms", g.deadline()},
           {"now", svc_.now()}};
    if (g.row.tc.kind == service::TimeKind::Correspondence)
        c["days_per_move"] = g.row.tc.days_per_move;
    pause_clock(c, g);
    return c;
}

std::string JsonApi::start_sfen(const LiveGame& g) { return record_start_sfen(g); }

std::string JsonApi::event_text(const service::Event& e) {
    // Every listener of a move gets the same message: it is made once.
    if (e.kind != service::EventKind::Move || !e.facts)
        return json_text(event_json(e));
    if (e.facts != cached_facts_ || e.game_id != cached_game_) {
        cached_text_ = json_text(event_json(e));
        cached_facts_ = e.facts;
        cached_game_ = e.game_id;
    }
    return cached_text_;
}

namespace {

// A move's comment, and the evaluation in it when it has Floodgate's form: "comment": "* 120
// -3334FU", "eval": {"score": 120, "pv": ["-3334FU"]} (the score from Black's side).
void add_comment(json& j, const std::string& comment) {
    if (comment.empty())
        return;
    j["comment"] = comment;
    if (auto e = read_eval(comment))
        j["eval"] = {{"score", e->score}, {"pv", e->pv}};
}

}  // namespace

json JsonApi::game_json(const LiveGame& g, bool with_moves) {
    json j{{"id", g.row.id},
           {"black", g.row.black},
           {"white", g.row.white},
           {"status", status_name(g.row.status)},
           {"time_control", g.row.tc.describe()},
           {"origin", g.row.origin},
           {"plies", g.row.moves.size()},
           {"to_move", g.to_move() == core::BLACK ? "black" : "white"},
           {"sfen", g.game.position().sfen()},
           {"winner", g.row.winner},
           {"reason", g.row.reason},
           {"clock", clock_json(g)}};
    pause_fields(j, g);
    if (with_moves) {
        json moves = json::array();
        for (const auto& m : g.log) {
            json mj{{"ply", m.ply + 1},    {"by", m.mover == core::BLACK ? "black" : "white"},
                    {"usi", m.text},       {"western", m.western},
                    {"csa", m.csa},        {"spent_ms", m.spent_ms},
                    {"notices", m.notices}};
            if (m.board())
                mj["ja"] = m.ja;
            add_comment(mj, m.comment);
            moves.push_back(mj);
        }
        j["moves"] = moves;
        j["start_sfen"] = start_sfen(g);
        json pj = position_json(g.game.position());
        j["check"] = pj["check"];
        j["legal"] = g.active() ? pj["legal"] : json::array();
    }
    return j;
}

json JsonApi::event_json(const service::Event& e) {
    using service::EventKind;
    json j{{"game", e.game_id}, {"type", EVENT_TYPES[std::size_t(e.kind)]}};
    switch (e.kind) {
    case EventKind::Move: {
        // From the facts the service worked out once: nothing is parsed or replayed here.
        j["ply"] = e.ply + 1;
        j["by"] = e.from;
        if (!e.facts)
            break;
        const service::MoveRecord& m = e.facts->record;
        j["usi"] = m.text;
        j["csa"] = m.csa;
        j["western"] = m.western;
        j["spent_ms"] = m.spent_ms;
        j["notices"] = m.notices;
        add_comment(j, m.comment);
        if (const LiveGame* g = svc_.game(e.game_id)) {
            j["clock"] = clock_json(*g);
            if (m.board())
                j["ja"] = m.ja;
            if (e.facts->latest && std::size_t(e.ply + 1) == g->row.moves.size()) {
                j["sfen"] = e.facts->sfen;
                j["check"] = e.facts->check;
                j["legal"] = g->active() ? legal_json(g->game.position()) : json::array();
            }
        }
        break;
    }
    case EventKind::Undo:
        j["by"] = e.from;
        j["plies"] = e.ply;
        break;
    case EventKind::GameEnded:
        j["winner"] = service::winner_name(e.winner);
        j["reason"] = service::reason_name(e.reason);
        j["detail"] = e.detail;
        break;
    case EventKind::GameOffered: break;
    case EventKind::GameRejected: j["by"] = e.from; break;
    case EventKind::GameStarted:
    case EventKind::Notice: j["text"] = e.text; break;
    case EventKind::Say:  // messages: who sent them, and what
    case EventKind::Shout:
    case EventKind::Tell:
    case EventKind::Chat:
    case EventKind::Announce:
        j["from"] = e.from;
        j["text"] = e.text;
        break;
    case EventKind::Spectators:  // who watches now: {count, names}, as GET /api/games/N/spectators
        if (const LiveGame* g = svc_.game(e.game_id)) {
            auto names = svc_.spectators_of(*g);
            j["count"] = names.size();
            j["names"] = names;
        }
        break;
    }
    return j;
}

std::string JsonApi::record(const LiveGame& g, std::string_view format, std::string& filename, bool& ok) {
    auto kind = download_kind(format);
    ok = kind.has_value();
    if (!ok)
        return {};
    notation::GameRecord rec = game_record(g);
    filename = "hisha-" + std::to_string(g.row.id) + "." + kind->extension;
    return notation::write_record(rec, kind->format, kind->encoding);
}


json JsonApi::move_json(const core::Position& pos, core::Move m, core::Move previous) {
    return {{"usi", core::to_usi(m)},
            {"western", notation::write_western(pos, m)},
            {"ja", ki2_text(pos, m, previous)},
            {"kif", kif_text(pos, m, previous)}};
}

json JsonApi::legal_json(const core::Position& pos) {
    json legal = json::array();
    for (const auto& sm : core::MoveList<core::LEGAL, true>(pos))
        legal.push_back(core::to_usi(sm.move));
    return legal;
}

json JsonApi::position_json(const core::Position& pos) {
    json legal = legal_json(pos);
    std::string over;
    if (legal.empty())
        over = pos.in_check() ? "checkmate" : "no_moves";
    return {{"sfen", pos.sfen()},
            {"turn", pos.side_to_move() == core::BLACK ? "black" : "white"},
            {"check", pos.in_check()},
            {"legal", legal},
            {"over", over}};
}

std::unique_ptr<core::Position> JsonApi::read_position(const json& in, std::string& error, json* moves_out) {
    std::string sfen = text::trim(str(in, "sfen"));
    std::vector<std::string> moves;
    if (auto at = sfen.find(" moves"); at != std::string::npos) {
        moves = text::words(std::string_view(sfen).substr(at + 6));
        sfen.resize(at);
    }
    for (const char* prefix : {"position ", "sfen "})
        if (sfen.starts_with(prefix))
            sfen = text::trim(sfen.substr(std::string_view(prefix).size()));
    if (sfen.empty() || sfen == "startpos")
        sfen = std::string(core::START_SFEN);
    if (auto it = in.find("moves"); it != in.end()) {
        if (!it->is_array()) {
            error = "moves must be an array of USI moves";
            return nullptr;
        }
        for (const auto& m : *it) {
            if (!m.is_string()) {
                error = "moves must be an array of USI moves";
                return nullptr;
            }
            moves.push_back(m.get<std::string>());
        }
    }
    auto pos = std::make_unique<core::Position>();
    if (auto r = pos->set(sfen, core::SfenRules::Relaxed); !r) {
        error = "bad SFEN: " + r.error().to_string();
        return nullptr;
    }
    core::Move previous = core::Move::none();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        auto m = notation::parse_usi_move(*pos, moves[i]);
        if (!m) {
            error = "move " + std::to_string(i + 1) + " (" + moves[i] + "): " + m.error().message;
            return nullptr;
        }
        if (moves_out)
            moves_out->push_back(move_json(*pos, *m, previous));
        if (auto r = pos->try_play(*m); !r) {
            error = "move " + std::to_string(i + 1) + " (" + moves[i] + "): " + core::describe(r.error());
            return nullptr;
        }
        previous = *m;
    }
    return pos;
}

namespace {

// The moves of a record line from `pos` (restored on return), variations nested under the
// move they replace.
json line_json(core::Position& pos, const std::vector<notation::MoveRecord>& line, core::Move previous) {
    json out = json::array();
    int played = 0;
    for (const auto& mr : line) {
        if (!pos.is_legal(mr.move))
            break;
        json j = JsonApi::move_json(pos, mr.move, previous);
        if (!mr.comments.empty())
            j["comments"] = mr.comments;
        if (mr.time_ms)
            j["time_ms"] = *mr.time_ms;
        if (!mr.variations.empty()) {
            json vars = json::array();
            for (const auto& v : mr.variations)
                vars.push_back(line_json(pos, v.moves, previous));
            j["variations"] = vars;
        }
        out.push_back(j);
        pos.play(mr.move);
        ++played;
        previous = mr.move;
    }
    while (played-- > 0)
        pos.unplay();
    return out;
}

}  // namespace

bool JsonApi::account(std::string_view method, std::string_view target, std::string_view body, const std::string& peer,
                      std::string_view token, std::function<void(HttpReply)> done) {
    std::string_view path = target.substr(0, target.find('?'));
    bool registering = path == "/api/register", resetting = path == "/api/admin/reset-password";
    if (method != "POST" || (!registering && !resetting && path != "/api/login"))
        return false;
    json in = body.empty() ? json::object() : json::parse(body, nullptr, false);
    if (in.is_discarded() || !in.is_object()) {
        done(error(400, "the body is not a JSON object"));
        return true;
    }
    if (resetting) {
        auto me = svc_.token_user(token);
        if (!me) {
            done(error(401, "log in first"));
            return true;
        }
        svc_.reset_password({*me, peer}, str(in, "name"), str(in, "password"), [done](service::Reply<void> r) {
            if (!r)
                return done(error(r.error() == service::NOT_ADMIN ? 403 : 400, r.error()));
            done(reply(200, {{"ok", true}}));
        });
        return true;
    }
    bool cookie = in.value("cookie", false);
    std::string guest;  // registering from a guest's session: the account keeps its games
    if (auto me = registering ? svc_.token_user(token) : std::nullopt; me && svc_.is_guest(*me))
        guest = *me;
    auto answer = [this, registering, cookie, done, guest](const service::AuthReply& r) {
        if (r.ok() && !guest.empty())
            (void)svc_.adopt_guest(guest, r.user.name);  // (a guest gone meanwhile has nothing to give)
        done(account_reply(registering, cookie, r));
    };
    if (registering)
        svc_.start_register(peer, str(in, "name"), str(in, "password"), answer);
    else
        svc_.start_login(peer, str(in, "name"), str(in, "password"), answer);
    return true;
}

std::string JsonApi::session_cookie(const std::string& token) const {
    // HttpOnly: no script of the page reads it; SameSite=Strict: no other site's page makes the
    // browser send it; it lasts as long as the token.
    std::string c = std::string(SESSION_COOKIE) + "=" + token + "; Path=/; HttpOnly; SameSite=Strict; Max-Age=";
    return c + (token.empty() ? "0" : std::to_string(svc_.config().token_lifetime_ms / 1000));
}

HttpReply JsonApi::account_reply(bool registering, bool cookie, const service::AuthReply& r) {
    using Status = service::AuthReply::Status;
    if (r.status == Status::Limited || r.status == Status::Busy) {
        HttpReply h =
            reply(r.status == Status::Busy ? 503 : 429, json{{"error", r.error}, {"retry_after_s", r.retry_after_s}});
        h.retry_after_s = r.retry_after_s;
        return h;
    }
    if (r.status == Status::Banned)
        return error(403, r.error);
    if (!r.ok())
        return error(registering ? 400 : 401, r.error);
    auto tok = svc_.create_token(r.user.name);
    if (!tok)
        return error(500, tok.error());
    json u = user_json(r.user);
    u["admin"] = svc_.is_admin(r.user.name);
    if (!cookie)
        return reply(200, {{"token", *tok}, {"user", u}});
    HttpReply h = reply(200, {{"user", u}});
    h.set_cookie = session_cookie(*tok);
    return h;
}

// --- routing

namespace {
// The segments of a route's pattern ("games/*/record"); "*" matches any one segment and a last
// "**" any number of them (none included).
bool matches(std::string_view pattern, const std::vector<std::string>& seg) {
    std::size_t i = 0;
    while (!pattern.empty()) {
        std::string_view part = pattern.substr(0, pattern.find('/'));
        pattern.remove_prefix(std::min(pattern.size(), part.size() + 1));
        if (part == "**")
            return true;
        if (i >= seg.size() || (part != "*" && seg[i] != part))
            return false;
        ++i;
    }
    return i == seg.size();
}
}  // namespace

const std::vector<JsonApi::Route>& JsonApi::routes() {
    // Without a login first (register and login: account()), then with one. An empty method
    // is any method.
    static const std::vector<Route> table = {
        {"GET", "version", false, &JsonApi::get_version},
        {"GET", "who", false, &JsonApi::get_who},
        {"GET", "games", false, &JsonApi::get_games},
        {"GET", "games/*", false, &JsonApi::get_game},
        {"GET", "games/*/record", false, &JsonApi::get_game_record},
        {"GET", "games/*/spectators", false, &JsonApi::get_game_spectators},
        {"GET", "ratings", false, &JsonApi::get_ratings},
        {"GET", "tournaments", false, &JsonApi::get_tournaments},
        {"GET", "tournaments/*/games", false, &JsonApi::get_tournament_games},
        {"GET", "users", false, &JsonApi::get_users},
        {"GET", "users/*", false, &JsonApi::get_user},
        {"GET", "users/*/games", false, &JsonApi::get_user_games},
        {"GET", "users/*/games/records", false, &JsonApi::get_user_records},
        {"POST", "position", false, &JsonApi::post_position},
        {"POST", "record/parse", false, &JsonApi::post_record_parse},
        {"POST", "record/write", false, &JsonApi::post_record_write},
        {"POST", "guest", false, &JsonApi::post_guest},
        {"", "mail/**", false, &JsonApi::any_mail},  // (its settings need a login: json_api_mail.cpp)
        {"POST", "logout", true, &JsonApi::post_logout},
        {"POST", "logout/everywhere", true, &JsonApi::post_logout_everywhere},
        {"GET", "me", true, &JsonApi::get_me},
        {"", "admin/**", true, &JsonApi::any_admin},
        {"GET", "challenges", true, &JsonApi::get_challenges},
        {"GET", "lobby", true, &JsonApi::get_lobby},
        {"POST", "challenges", true, &JsonApi::post_challenge},
        {"POST", "challenges/*/accept", true, &JsonApi::post_accept},
        {"DELETE", "challenges/*", true, &JsonApi::delete_challenge},
        {"POST", "games", true, &JsonApi::post_game},
        {"", "games/*/conditional", true, &JsonApi::any_game_conditional},
        {"", "puzzles/**", true, &JsonApi::any_puzzles},
        {"", "vacation", true, &JsonApi::any_vacation},
        {"POST", "games/*/adjourn", true, &JsonApi::post_game_pause},
        {"POST", "games/*/resume", true, &JsonApi::post_game_pause},
        {"POST", "games/*/decline", true, &JsonApi::post_game_pause},
        {"POST", "games/*/*", true, &JsonApi::post_game_action},
        {"POST", "tell", true, &JsonApi::post_tell},
        {"POST", "shout", true, &JsonApi::post_shout},
    };
    return table;
}

HttpReply JsonApi::handle(std::string_view method, std::string_view target, std::string_view body,
                          std::string_view token, std::string_view peer) {
    std::size_t q = target.find('?');
    std::string_view path = target.substr(0, q);
    Request r{
        method, segments(path), q == std::string_view::npos ? "" : target.substr(q + 1), json::object(), token, peer,
        {}};
    if (r.seg.empty() || r.seg[0] != "api")
        return error(404, "not found");
    r.seg.erase(r.seg.begin());
    bool one_click = r.seg.size() == 3 && r.seg[0] == "mail" && r.seg[1] == "unsubscribe";  // (a form's body)
    if (!body.empty() && !one_click) {
        r.in = json::parse(body, nullptr, false);
        if (r.in.is_discarded() || !r.in.is_object())
            return error(400, "the body is not a JSON object");
    }
    const Route* route = nullptr;
    for (const Route& candidate : routes())
        if ((candidate.method.empty() || candidate.method == method) && matches(candidate.pattern, r.seg)) {
            route = &candidate;
            break;
        }
    // Anything but the open routes needs a login, even to learn that it does not exist.
    if (!route || route->login) {
        auto user = svc_.token_user(token);
        if (!user) {
            HttpReply h = error(401, "log in first (Authorization: Bearer <token>, or the session cookie)");
            if (!token.empty())
                h.set_cookie = session_cookie("");  // an expired or revoked session: forget it
            return h;
        }
        r.me = *user;
    }
    // Requests of an address and of an account (when it is known) come from their buckets.
    if (auto admitted = svc_.admit_request(std::string(peer), r.me); !admitted)
        return refusal(svc_, 429, admitted.error());
    if (!route)
        return error(404, "no such API: " + std::string(method) + " " + std::string(path));
    return (this->*route->handler)(r);
}

// --- without a login

HttpReply JsonApi::get_version(Request&) { return reply(200, {{"version", version()}}); }

HttpReply JsonApi::get_who(Request&) {
    json list = json::array();
    for (auto& o : svc_.who("*"))
        list.push_back({{"name", o.name}, {"since", o.since}, {"via", o.protocol}});
    return reply(200, list);
}

HttpReply JsonApi::get_games(Request&) {
    json list = json::array();
    for (auto* g : svc_.active_games())
        list.push_back(game_json(*g, false));
    return reply(200, list);
}

HttpReply JsonApi::get_game(Request& r) {
    auto id = to_id(r.seg[1]);
    const LiveGame* g = id ? svc_.game(*id) : nullptr;
    if (!g)
        return error(404, "no such game");
    return reply(200, game_json(*g));
}

HttpReply JsonApi::get_game_record(Request& r) {
    auto id = to_id(r.seg[1]);
    const LiveGame* g = id ? svc_.game(*id) : nullptr;
    if (!g)
        return error(404, "no such game");
    bool ok = false;
    HttpReply h;
    std::string format = query_param(r.query, "format");
    h.body = record(*g, format, h.filename, ok);
    if (!ok)
        return error(400, UNKNOWN_FORMAT);
    h.content_type = download_kind(format)->content_type();
    return h;
}

HttpReply JsonApi::get_ratings(Request&) {
    json list = json::array();
    for (const UserRow* u : svc_.rating_list())
        list.push_back({{"name", u->name},
                        {"rating", std::lround(u->rating)},
                        {"deviation", std::lround(u->deviation)},
                        {"games", u->wins + u->losses + u->draws},
                        {"wins", u->wins},
                        {"losses", u->losses},
                        {"draws", u->draws},
                        {"last_game", u->last_game},
                        {"bot", u->bot}});
    return reply(200, list);
}

HttpReply JsonApi::get_tournaments(Request&) {
    json list = json::array();
    for (const service::TournamentInfo& t : svc_.tournaments()) {
        json waiting = json::array();
        for (auto& [name, game_name] : t.waiting)
            waiting.push_back({{"name", name}, {"game_name", game_name}});
        list.push_back({{"pattern", t.spec.pattern},
                        {"interval_s", t.spec.interval_ms / 1000},
                        {"next_round", t.next_round},
                        {"rounds", t.rounds},
                        {"games", t.games},
                        {"waiting", waiting}});
    }
    return reply(200, {{"now", svc_.now()}, {"tournaments", list}});
}

HttpReply JsonApi::get_tournament_games(Request& r) {
    std::string limit_text = query_param(r.query, "limit");
    auto limit = limit_text.empty() ? std::optional<std::int64_t>(100) : to_id(limit_text);
    if (!limit || *limit > 1000)
        return error(400, "limit must be a number 1..1000, not '" + limit_text + "'");
    auto games = svc_.tournament_games(url_decode(r.seg[1]), int(*limit));
    if (!games)
        return error(404, games.error());
    json list = json::array();
    for (const GameRow& g : *games)
        list.push_back(listed_game_json(g));
    return reply(200, list);
}

HttpReply JsonApi::get_users(Request& r) {
    std::string pattern = query_param(r.query, "pattern");
    json list = json::array();
    for (auto* u : svc_.users(pattern.empty() ? "*" : pattern))
        list.push_back(user_json(*u));
    return reply(200, list);
}

HttpReply JsonApi::post_position(Request& r) {
    std::string err;
    json moves = json::array();
    auto pos = read_position(r.in, err, &moves);
    if (!pos)
        return error(400, err);
    json j = position_json(*pos);
    j["moves"] = moves;
    return reply(200, j);
}

HttpReply JsonApi::post_record_parse(Request& r) {
    std::string text = str(r.in, "text");
    if (text.empty())
        return error(400, "no record text");
    auto rec = notation::read_record(text, str(r.in, "name"));
    if (!rec)
        return error(400, "cannot read the record: " + rec.error().to_string());
    auto pos = notation::start_position(*rec);
    json headers = json::array();
    for (const auto& h : rec->headers)
        headers.push_back({{"key", h.key}, {"value", h.value}});
    json j{{"start_sfen", pos->sfen()},
           {"headers", headers},
           {"start_comments", rec->start_comments},
           {"moves", line_json(*pos, rec->moves, core::Move::none())},
           {"result", rec->result.reason == core::EndReason::None ? "" : core::describe(rec->result.reason)},
           {"winner", service::winner_name(rec->result.winner)}};
    return reply(200, j);
}

HttpReply JsonApi::post_record_write(Request& r) {
    auto kind = download_kind(str(r.in, "format"));
    if (!kind)
        return error(400, UNKNOWN_FORMAT);
    json sfen_only{{"sfen", str(r.in, "sfen")}};
    std::string err;
    auto start = read_position(sfen_only, err);
    if (!start)
        return error(400, err);
    notation::GameRecord rec;
    rec.start_sfen = start->sfen();
    if (auto h = core::handicap_from_sfen(rec.start_sfen))
        rec.set_handicap(*h);
    if (auto hs = r.in.find("headers"); hs != r.in.end() && hs->is_object())
        for (auto& [k, v] : hs->items())
            if (v.is_string())
                rec.set_header(k, v.get<std::string>());
    if (auto ms = r.in.find("moves"); ms != r.in.end() && ms->is_array()) {
        for (const auto& m : *ms) {
            if (!m.is_string())
                return error(400, "moves must be an array of USI moves");
            auto mv = notation::parse_usi_move(*start, m.get<std::string>());
            if (!mv || !start->try_play(*mv))
                return error(400, "illegal or unreadable move " + m.get<std::string>());
            notation::MoveRecord mr;
            mr.move = *mv;
            rec.moves.push_back(mr);
        }
    }
    HttpReply h;
    h.body = notation::write_record(rec, kind->format, kind->encoding);
    h.content_type = kind->content_type();
    h.filename = "hisha." + kind->extension;
    return h;
}

// --- with a login

HttpReply JsonApi::post_logout(Request& r) {
    svc_.revoke_token(r.token);
    HttpReply h = reply(200, {{"ok", true}});
    h.set_cookie = session_cookie("");
    return h;
}

HttpReply JsonApi::post_logout_everywhere(Request& r) {
    if (auto done = svc_.revoke_tokens_of(r.me); !done)
        return error(500, done.error());
    HttpReply h = reply(200, {{"ok", true}});
    h.set_cookie = session_cookie("");
    return h;
}

HttpReply JsonApi::get_me(Request& r) {
    json games = json::array();
    for (auto* g : svc_.games_of(r.me))
        games.push_back(game_json(*g, false));
    json u = user_json(*svc_.user(r.me));
    u["admin"] = svc_.is_admin(r.me);
    return reply(200, {{"user", u}, {"games", games}});
}

HttpReply JsonApi::any_admin(Request& r) { return admin(r.method, r.seg, r.in, r.me, r.peer); }

HttpReply JsonApi::get_challenges(Request& r) {
    json list = json::array();
    for (auto* c : svc_.challenges_for(r.me))
        list.push_back(challenge_json(*c));
    return reply(200, list);
}

HttpReply JsonApi::get_lobby(Request& r) {
    json list = json::array();
    for (auto* c : svc_.challenges_for(r.me))
        list.push_back(challenge_json(*c));
    json games = json::array();
    for (auto* g : svc_.active_games())
        games.push_back(game_json(*g, false));
    json online = json::array();
    for (auto& o : svc_.who("*"))
        online.push_back(o.name);
    return reply(200, {{"challenges", list}, {"games", games}, {"online", online}});
}

HttpReply JsonApi::post_challenge(Request& r) {
    std::optional<service::TimeControl> tc;
    if (auto t = str(r.in, "time_control"); !t.empty()) {
        tc = service::parse_time_control(t);
        if (!tc)
            return error(400, "bad time_control (corr-7, 600-10, 600-10F, 300-0)");
    }
    std::string pattern = str(r.in, "pattern");
    auto id = svc_.new_challenge(r.me, pattern.empty() ? "*" : pattern, str(r.in, "color") == "white" ? 1 : 0,
                                 str(r.in, "first_move"), str(r.in, "comment"), tc);
    if (!id)
        return refusal(svc_, 400, id.error());
    json out{{"id", *id}};
    if (std::string note = svc_.vacation_note(pattern, !tc || !tc->realtime()); !note.empty())
        out["note"] = note;  // issue 20: the one challenged is on vacation
    return reply(200, out);
}

HttpReply JsonApi::post_accept(Request& r) {
    auto id = to_id(r.seg[1]);
    auto g = id ? svc_.accept_challenge(r.me, *id) : service::Reply<std::int64_t>(service::fail("bad id"));
    if (!g)
        return refusal(svc_, 400, g.error());
    return reply(200, game_json(*svc_.game(*g)));
}

HttpReply JsonApi::delete_challenge(Request& r) {
    auto id = to_id(r.seg[1]);
    auto done = id ? svc_.remove_challenge(r.me, *id) : service::Reply<void>(service::fail("bad id"));
    if (!done)
        return error(400, done.error());
    return reply(200, {{"ok", true}});
}

HttpReply JsonApi::post_game(Request& r) {
    auto tc = service::parse_time_control(str(r.in, "time_control").empty() ? "corr" : str(r.in, "time_control"));
    if (!tc)
        return error(400, "bad time_control");
    bool black = str(r.in, "color") != "white";
    std::string opp = str(r.in, "opponent");
    std::string b = black ? r.me : opp, w = black ? opp : r.me;
    if (!str(r.in, "black").empty() || !str(r.in, "white").empty()) {
        // Two engines (xshogi's Two Machines): both players must be bots; anyone may start it.
        b = str(r.in, "black");
        w = str(r.in, "white");
        const UserRow* ub = svc_.user(b);
        const UserRow* uw = svc_.user(w);
        if (!ub || !uw || ub->bot.empty() || uw->bot.empty())
            return error(400, "black and white must both be engine bots");
    }
    if (auto ok = svc_.admit_new_game(r.me); !ok)
        return refusal(svc_, 400, ok.error());
    auto g = svc_.create_game(b, w, *tc, "web", str(r.in, "handicap"));
    if (!g)
        return error(400, g.error());
    return reply(200, game_json(*svc_.game(*g)));
}

// POST /api/games/N/{move|resign|undo|declare|seen|watch|say}
HttpReply JsonApi::post_game_action(Request& r) {
    auto id = to_id(r.seg[1]);
    if (!id || !svc_.game(*id))
        return error(404, "no such game");
    const std::string& action = r.seg[2];
    const std::string& me = r.me;
    const json& in = r.in;
    auto refused = [](const std::string& why) {
        return error(why.find("not yours") != std::string::npos ? 403 : 400, why);
    };
    service::Reply<void> done;
    if (action == "move") {
        // "ply": the plies the page saw before its move (a move sent again after a lost
        // connection is not played twice: 409 when the game has moved on).
        if (auto ply = in.find("ply"); ply != in.end() && ply->is_number_integer()
                                       && ply->get<std::int64_t>() != std::int64_t(svc_.game(*id)->row.moves.size()))
            return error(409, "the game has " + std::to_string(svc_.game(*id)->row.moves.size()) + " plies, not "
                                  + std::to_string(ply->get<std::int64_t>()) + ": the move was for another position");
        auto p = svc_.play(me, *id, str(in, "move"));
        if (!p)
            return refused(p.error());
        return reply(200, {{"usi", p->usi},
                           {"western", p->western},
                           {"csa", p->csa},
                           {"notices", p->notices},
                           {"game", game_json(*svc_.game(*id), false)}});
    } else if (action == "resign") {
        done = svc_.resign(me, *id);
    } else if (action == "undo") {
        done = svc_.undo(me, *id, in.value("opponent", false));
    } else if (action == "declare") {
        done = svc_.declare(me, *id);
    } else if (action == "seen") {
        svc_.mark_seen(me, *id);
    } else if (action == "watch") {
        svc_.watch(me, *id, in.value("on", true));
    } else if (action == "say") {
        auto s = svc_.say(me, *id, str(in, "text"), in.value("leave", true));
        if (!s)
            return error(400, s.error());
    } else if (action == "kibitz") {
        done = svc_.kibitz(me, *id, str(in, "text"));
    } else {
        return error(404, "unknown action " + action);
    }
    if (!done)
        return refused(done.error());
    return reply(200, {{"ok", true}, {"game", game_json(*svc_.game(*id), false)}});
}

HttpReply JsonApi::post_tell(Request& r) {
    auto told = svc_.tell(r.me, str(r.in, "to"), str(r.in, "text"), r.in.value("leave", true));
    if (!told)
        return error(400, told.error());
    return reply(200, {{"delivered", *told == service::TellResult::Delivered}});
}

HttpReply JsonApi::post_shout(Request& r) {
    auto shouted = svc_.shout(r.me, str(r.in, "text"));
    if (!shouted)
        return error(400, shouted.error());
    return reply(200, {{"reached", *shouted}});
}

json JsonApi::on_ws_message(const std::string& user, std::string_view text) {
    json in = json::parse(text, nullptr, false);
    if (in.is_discarded() || !in.is_object())
        return {{"type", "error"}, {"message", "not a JSON object"}};
    json out{{"type", "ok"}};
    if (in.contains("id"))
        out["id"] = in["id"];
    std::string type = str(in, "type");
    std::int64_t gid = in.value("game", std::int64_t(0));
    auto fail = [&](const std::string& m) {
        out["type"] = "error";
        out["message"] = m;
        return out;
    };
    if (auto admitted = svc_.admit_request("", user); !admitted) {  // the account's bucket
        out["retry_after_s"] = svc_.limit_retry_after_s();
        return fail(admitted.error());
    }
    if (type == "ping") {
        out["type"] = "pong";
        return out;
    }
    if (type == "move") {
        auto p = svc_.play(user, gid, str(in, "move"));
        if (!p)
            return fail(p.error());
        out["usi"] = p->usi;
        return out;
    }
    if (type == "resign") {
        auto r = svc_.resign(user, gid);
        return r ? out : fail(r.error());
    }
    if (type == "watch") {
        if (!svc_.game(gid))
            return fail("no such game");
        svc_.watch(user, gid, in.value("on", true));
        out["game"] = game_json(*svc_.game(gid));
        return out;
    }
    if (type == "say") {
        auto r = svc_.say(user, gid, str(in, "text"), true);
        return r ? out : fail(r.error());
    }
    if (type == "seen") {
        svc_.mark_seen(user, gid);
        return out;
    }
    return fail("unknown message type '" + type + "'");
}

}  // namespace hisha::server::proto
