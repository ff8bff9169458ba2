// The player page's routes of the JSON API (no login needed): a player's public profile (rating,
// rating history, results by colour and by time control), their finished games filtered and
// paged, and all of them as one record file (KIF in Shift_JIS, KIFU in UTF-8, CSA with '/'
// between the games).
#include <algorithm>
#include <charconv>
#include <ctime>
#include <map>
#include <optional>

#include "core/text.h"
#include "notation/formats.h"
#include "server/proto/game_record.h"
#include "server/proto/json_api.h"
#include "server/proto/json_api_util.h"

namespace hisha::server::proto {

using nlohmann::json;
using namespace json_util;

namespace {

// The most games a profile counts and a list or a download reads (the newest).
constexpr int MAX_GAMES = 5000;
constexpr int MAX_DOWNLOAD = 1000;

std::string decode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        int v = 0;
        if (s[i] == '%' && i + 2 < s.size()
            && std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16).ptr == s.data() + i + 3) {
            out += char(v);
            i += 2;
        } else {
            out += s[i] == '+' ? ' ' : s[i];
        }
    }
    return out;
}

std::optional<std::string> param(std::string_view query, std::string_view key) {
    while (!query.empty()) {
        std::string_view kv = query.substr(0, query.find('&'));
        auto eq = kv.find('=');
        if (kv.substr(0, eq) == key)
            return eq == std::string_view::npos ? "" : decode(kv.substr(eq + 1));
        query.remove_prefix(std::min(query.size(), kv.size() + 1));
    }
    return std::nullopt;
}

// "win", "loss" or "draw" for `user` (a name key) in a finished game.
std::string result_of(const GameRow& g, const std::string& user) {
    if (g.winner != "black" && g.winner != "white")
        return "draw";
    bool black = text::lower(g.black) == user;
    return (g.winner == "black") == black ? "win" : "loss";
}

// A date "YYYY-MM-DD" (UTC; `end`: its last millisecond) or epoch milliseconds.
std::optional<Millis> read_time(const std::string& s, bool end) {
    int y = 0, m = 0, d = 0;
    if (s.size() == 10 && std::sscanf(s.c_str(), "%4d-%2d-%2d", &y, &m, &d) == 3 && s[4] == '-' && s[7] == '-'
        && y >= 1970 && m >= 1 && m <= 12 && d >= 1 && d <= 31) {
        std::tm tm{};
        tm.tm_year = y - 1900;
        tm.tm_mon = m - 1;
        tm.tm_mday = d;
        return Millis(timegm(&tm)) * 1000 + (end ? 86399999 : 0);
    }
    Millis v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty() || v < 0)
        return std::nullopt;
    return v;
}

std::optional<int> read_count(const std::optional<std::string>& s, int fallback, int low, int high) {
    if (!s)
        return fallback;
    int v = 0;
    auto [p, ec] = std::from_chars(s->data(), s->data() + s->size(), v);
    if (ec != std::errc() || p != s->data() + s->size() || s->empty() || v < low || v > high)
        return std::nullopt;
    return v;
}

// The filters of a player's games list (and download), read from the query.
struct GameFilter {
    std::string user;  // the player's name key
    std::string opponent, result, time_control;
    Millis from = 0, to = 0;  // 0: open
    int limit = 50, offset = 0;
    bool keeps(const store::ListedGame& l) const {
        const GameRow& g = l.row;
        std::string other = text::lower(text::lower(g.black) == user ? g.white : g.black);
        if (!opponent.empty() && other.find(opponent) == std::string::npos)
            return false;
        if (!result.empty() && result_of(g, user) != result)
            return false;
        if (!time_control.empty() && g.tc.describe() != time_control)
            return false;
        return (from == 0 || g.updated >= from) && (to == 0 || g.updated <= to);
    }
};

// The filter of a query, or why it is bad.
std::optional<GameFilter> read_filter(std::string_view query, const std::string& user, std::string& why) {
    GameFilter f;
    f.user = user;
    f.opponent = text::lower(param(query, "opponent").value_or(""));
    f.result = param(query, "result").value_or("");
    f.time_control = param(query, "time_control").value_or("");
    if (!f.result.empty() && f.result != "win" && f.result != "loss" && f.result != "draw")
        why = "result must be win, loss or draw, not '" + f.result + "'";
    else if (f.opponent.size() > 64 || f.time_control.size() > 64)
        why = "opponent and time_control are at most 64 characters";
    for (const char* key : {"from", "to"}) {
        auto s = param(query, key);
        if (!s || !why.empty())
            continue;
        auto t = read_time(*s, std::string_view(key) == "to");
        if (!t)
            why = std::string(key) + " must be a date YYYY-MM-DD or epoch milliseconds, not '" + *s + "'";
        else
            (std::string_view(key) == "to" ? f.to : f.from) = *t;
    }
    auto limit = read_count(param(query, "limit"), 50, 1, 500);
    auto offset = read_count(param(query, "offset"), 0, 0, MAX_GAMES);
    if (why.empty() && !limit)
        why = "limit must be a number 1..500";
    if (why.empty() && !offset)
        why = "offset must be a number 0.." + std::to_string(MAX_GAMES);
    if (!why.empty())
        return std::nullopt;
    f.limit = *limit;
    f.offset = *offset;
    return f;
}

json player_game_json(const store::ListedGame& l, const std::string& user) {
    const GameRow& g = l.row;
    bool black = text::lower(g.black) == user;
    json j{{"id", g.id},
           {"black", g.black},
           {"white", g.white},
           {"color", black ? "black" : "white"},
           {"opponent", black ? g.white : g.black},
           {"result", result_of(g, user)},
           {"winner", g.winner},
           {"reason", g.reason},
           {"time_control", g.tc.describe()},
           {"started", g.created},
           {"ended", g.updated},
           {"plies", l.plies},
           {"origin", g.origin}};
    int c = black ? 0 : 1;
    if (g.rating_after[c] > 0)
        j["rating_after"] = std::lround(g.rating_after[c]);
    return j;
}

struct Tally {
    int wins = 0, losses = 0, draws = 0;
    void add(const std::string& result) { ++(result == "win" ? wins : result == "loss" ? losses : draws); }
    json to_json() const { return {{"wins", wins}, {"losses", losses}, {"draws", draws}}; }
};

// A name fit for a file name.
std::string file_safe(std::string_view name) {
    std::string out;
    for (char c : name)
        out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
    return out;
}

}  // namespace

HttpReply JsonApi::get_user(Request& r) {
    const UserRow* u = svc_.user(decode(r.seg[1]));
    if (!u)
        return error(404, "no such player");
    std::string key = text::lower(u->name);
    auto games = svc_.player_games(u->name, MAX_GAMES);
    Tally colors[2];
    std::map<std::string, Tally> by_tc;
    json history = json::array();
    for (auto it = games.rbegin(); it != games.rend(); ++it) {  // oldest first
        const GameRow& g = it->row;
        int c = text::lower(g.black) == key ? 0 : 1;
        std::string res = result_of(g, key);
        colors[c].add(res);
        by_tc[g.tc.describe()].add(res);
        if (g.rated_applied && g.rating_after[c] > 0)
            history.push_back({{"time", g.updated},
                               {"game", g.id},
                               {"rating", std::lround(g.rating_after[c])},
                               {"deviation", std::lround(g.deviation_after[c])}});
    }
    json tcs = json::array();
    for (auto& [tc, t] : by_tc) {
        json j = t.to_json();
        j["time_control"] = tc;
        tcs.push_back(j);
    }
    json j = user_json(*u);
    j["created"] = u->created;
    j["last_game"] = u->last_game;
    j["history"] = history;
    j["by_color"] = {{"black", colors[0].to_json()}, {"white", colors[1].to_json()}};
    j["by_time_control"] = tcs;
    j["games"] = games.size();
    return reply(200, j);
}

HttpReply JsonApi::get_user_games(Request& r) {
    const UserRow* u = svc_.user(decode(r.seg[1]));
    if (!u)
        return error(404, "no such player");
    std::string why, key = text::lower(u->name);
    auto filter = read_filter(r.query, key, why);
    if (!filter)
        return error(400, why);
    json list = json::array();
    int matched = 0;
    for (const auto& l : svc_.player_games(u->name, MAX_GAMES)) {
        if (!filter->keeps(l))
            continue;
        if (matched >= filter->offset && matched < filter->offset + filter->limit)
            list.push_back(player_game_json(l, key));
        ++matched;
    }
    return reply(200, {{"player", u->name},
                       {"total", matched},
                       {"offset", filter->offset},
                       {"limit", filter->limit},
                       {"games", list}});
}

HttpReply JsonApi::get_user_records(Request& r) {
    const UserRow* u = svc_.user(decode(r.seg[1]));
    if (!u)
        return error(404, "no such player");
    std::string format = text::lower(param(r.query, "format").value_or("kif"));
    using notation::Encoding;
    Encoding enc = format == "kif" ? Encoding::ShiftJis : Encoding::Utf8;
    notation::Format fmt = format == "csa" ? notation::Format::Csa : notation::Format::Kif;
    if (format != "kif" && format != "kifu" && format != "csa")
        return error(400, "format must be kif, kifu or csa, not '" + format + "'");
    std::string why, key = text::lower(u->name);
    auto filter = read_filter(r.query, key, why);
    if (!filter)
        return error(400, why);
    std::vector<std::int64_t> ids;
    for (const auto& l : svc_.player_games(u->name, MAX_GAMES))
        if (filter->keeps(l) && ids.size() < std::size_t(MAX_DOWNLOAD))
            ids.push_back(l.row.id);
    HttpReply h;
    for (std::int64_t id : ids) {
        const service::LiveGame* g = svc_.game(id);  // (read again from the store if it has left memory)
        if (!g)
            continue;
        if (!h.body.empty())
            h.body += fmt == notation::Format::Csa ? "/\n" : "\n";  // CSA: a line of '/' between games
        h.body += notation::write_record(game_record(*g), fmt, enc);
        if (h.body.back() != '\n')
            h.body += '\n';
    }
    h.content_type = enc == Encoding::ShiftJis ? "text/plain; charset=shift_jis" : "text/plain; charset=utf-8";
    h.filename = "hisha-" + file_safe(u->name) + "-games." + format;
    return h;
}

HttpReply JsonApi::get_game_spectators(Request& r) {
    auto id = to_id(r.seg[1]);
    const service::LiveGame* g = id ? svc_.game(*id) : nullptr;
    if (!g)
        return error(404, "no such game");
    // Who watches now: connected, not one of the players (whose own page watches too). The
    // WebSocket tells every change as a "spectators" event of the same form.
    auto names = svc_.spectators_of(*g);
    return reply(200, {{"game", g->row.id}, {"count", names.size()}, {"names", names}});
}

}  // namespace hisha::server::proto
