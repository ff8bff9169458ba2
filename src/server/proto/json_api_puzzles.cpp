// The JSON API's tsume puzzles (issue 20; service/puzzles.h), for a logged-in player or a guest:
//   GET  /api/puzzles/next -> {puzzle:{id,sfen,length,rating,source,ply}, player:{rating,deviation,plays,rated}}
//   GET  /api/puzzles/ID   -> {puzzle, player}
//   POST /api/puzzles/ID/attempt {moves:[usi...]} -> {result: correct|continue|wrong, ...}
//   GET  /api/puzzles/ID/hint?moves=M1,M2&level=1|2 -> the piece to move after those moves, then the move
#include <charconv>
#include <functional>
#include <memory>
#include <optional>

#include "server/proto/json_api.h"
#include "server/proto/json_api_util.h"
#include "server/service/puzzles.h"
#include "server/store/row_codec.h"

namespace hisha::server::proto {

using json = nlohmann::json;
using namespace json_util;

namespace {

json rating_json(const store::PuzzleRating& r) {
    return {{"rating", std::lround(r.rating)}, {"deviation", std::lround(r.deviation)}, {"plays", r.plays}};
}

json puzzle_json(service::Puzzles& set, const puzzle::Puzzle& p) {
    return {{"id", p.id},         {"sfen", p.sfen}, {"length", p.length},
            {"source", p.source}, {"ply", p.ply},   {"rating", std::lround(set.rating(p.id).rating)}};
}

// The query's `key` (percent-decoded; '+' stays '+', as in a USI promotion), or none.
std::optional<std::string> query_text(std::string_view query, std::string_view key) {
    while (!query.empty()) {
        std::string_view kv = query.substr(0, query.find('&'));
        if (kv.size() > key.size() && kv.substr(0, key.size()) == key && kv[key.size()] == '=') {
            std::string out;
            for (std::size_t i = key.size() + 1; i < kv.size(); ++i) {
                int c = 0;
                if (kv[i] == '%' && i + 2 < kv.size()
                    && std::from_chars(kv.data() + i + 1, kv.data() + i + 3, c, 16).ptr == kv.data() + i + 3) {
                    out += char(c);
                    i += 2;
                } else
                    out += kv[i];
            }
            return out;
        }
        query.remove_prefix(std::min(query.size(), kv.size() + 1));
    }
    return std::nullopt;
}

// A whole number 0..999 from the query's `key`, or -1.
int query_number(std::string_view query, std::string_view key) {
    auto v = query_text(query, key);
    int n = -1;
    if (!v || v->empty() || std::from_chars(v->data(), v->data() + v->size(), n).ptr != v->data() + v->size())
        return -1;
    return n >= 0 && n < 1000 ? n : -1;
}

// The moves of the query's `moves` (comma-separated USI), at most `max`; none when malformed.
std::optional<std::vector<std::string>> query_moves(std::string_view query, int max) {
    std::vector<std::string> out;
    auto v = query_text(query, "moves");
    if (!v || v->empty())
        return out;
    if (v->size() > std::size_t(max) * 9)
        return std::nullopt;
    for (std::size_t start = 0; start <= v->size();) {
        std::size_t end = std::min(v->find(',', start), v->size());
        out.push_back(v->substr(start, end - start));
        start = end + 1;
    }
    if (int(out.size()) > max)
        return std::nullopt;
    return out;
}

// The result of an attempt that ended or went on, with the rating before and after.
json outcome_json(const puzzle::Puzzle& p, const service::Puzzles::Outcome& o) {
    const puzzle::Judgement& j = o.judgement;
    json out = {{"result", j.kind == puzzle::Judgement::Correct    ? "correct"
                           : j.kind == puzzle::Judgement::Continue ? "continue"
                                                                   : "wrong"},
                {"rated", o.rated},
                {"rating",
                 {{"before", std::lround(o.before.rating)},
                  {"after", std::lround(o.after.rating)},
                  {"change", std::lround(o.after.rating) - std::lround(o.before.rating)}}}};
    if (j.kind == puzzle::Judgement::Continue)
        out["reply"] = j.reply;
    if (j.kind == puzzle::Judgement::Wrong) {
        out["reason"] = j.reason;
        out["index"] = j.index;
        const int left = p.length - j.index - 1;
        if (!j.refutation.empty()) {
            out["refutation"] = j.refutation;
            out["explanation"] = "after " + j.refutation + " there is no mate in " + std::to_string(left - 1)
                               + (left - 1 == 1 ? " ply" : " plies");
        } else
            out["explanation"] = j.reason == "illegal"     ? "the move is illegal"
                               : j.reason == "not a check" ? "every move of a tsume must give check"
                                                           : "the solver found no mate within the puzzle's length";
    }
    if (j.kind == puzzle::Judgement::Correct || j.kind == puzzle::Judgement::Wrong)
        out["solution"] = p.solution;
    return out;
}

// A job for the solver's queue: `work` on a solver thread (then() is set by the caller).
std::shared_ptr<HttpReply::Deferred> solver_job(const std::string& account, std::function<void(tsume::Solver&)> work) {
    auto d = std::make_shared<HttpReply::Deferred>();
    d->account = account;
    d->kind = "puzzle";
    d->max_ms = 5000;  // 200,000 nodes at most (Puzzles::budget()): well under a second or two
    d->work = std::move(work);
    return d;
}

}  // namespace

HttpReply JsonApi::settle(HttpReply r, tsume::Solver& solver) {
    if (!r.deferred)
        return r;
    auto d = std::move(r.deferred);
    d->work(solver);
    return d->then();
}

HttpReply JsonApi::hint_reply(service::Puzzles& set, const std::string& key, bool guest, const puzzle::Puzzle& p,
                              const std::string& move, const std::string& why, int level, std::size_t ply) {
    if (move.empty())
        return error(why.rfind("the solver", 0) == 0 ? 404 : 400, why);
    json out = {{"ply", ply}, {"level", level}};
    if (move.size() > 1 && move[1] == '*')
        out["drop"] = move.substr(0, 1);
    else
        out["from"] = move.substr(0, 2);
    if (level == 2) {
        out["move"] = move;
        auto o = set.gave_up(key, guest, p, svc_.now());
        if (!o.stored)
            return error(500, "storage error: the rated attempt was not kept");
        out["rated"] = o.rated;
        out["rating"] = {{"before", std::lround(o.before.rating)},
                         {"after", std::lround(o.after.rating)},
                         {"change", std::lround(o.after.rating) - std::lround(o.before.rating)}};
    }
    return reply(200, out);
}

HttpReply JsonApi::any_puzzles(Request& r) {
    service::Puzzles* set = svc_.puzzles();
    if (!set)
        return error(404, "this server has no puzzles (hisha-server --puzzles FILE)");
    const std::string key = store::rows::key_of(r.me);
    const bool guest = svc_.is_guest(r.me);
    auto player_json = [&] {
        json j = rating_json(guest ? store::PuzzleRating{} : set->player(key));
        j["rated"] = !guest;
        return j;
    };
    const std::size_t n = r.seg.size();
    if (r.method == "GET" && n == 2 && r.seg[1] == "next") {
        const puzzle::Puzzle* p = set->next(key, guest);
        if (!p)
            return error(404, "you have done every puzzle");
        return reply(200, {{"puzzle", puzzle_json(*set, *p)}, {"player", player_json()}});
    }
    const puzzle::Puzzle* p = n >= 2 ? set->find(r.seg[1]) : nullptr;
    if (!p)
        return error(404, n >= 2 ? "no such puzzle " + r.seg[1] : "no such API");
    if (r.method == "GET" && n == 2)
        return reply(200, {{"puzzle", puzzle_json(*set, *p)}, {"player", player_json()}});
    if (r.method == "POST" && n == 3 && r.seg[2] == "attempt") {
        auto it = r.in.find("moves");
        if (it == r.in.end() || !it->is_array() || it->size() > std::size_t(p->length))
            return error(400, "the body needs \"moves\": the USI moves from the puzzle's start (at most "
                                  + std::to_string(p->length) + ")");
        std::vector<std::string> moves;
        for (const json& m : *it) {
            if (!m.is_string() || m.get<std::string>().size() > 8)
                return error(400, "each move is a USI move such as \"7g7f\" or \"P*5e\"");
            moves.push_back(m.get<std::string>());
        }
        // The solver's work runs as a job of the solver's queue, on its thread; the rating here.
        auto judged = std::make_shared<puzzle::Judgement>();
        HttpReply h;
        h.deferred = solver_job(key, [p, moves = std::move(moves), budget = set->budget(), judged](tsume::Solver& s) {
            *judged = puzzle::judge(*p, moves, s, budget);
        });
        h.deferred->then = [this, set, key, guest, p, judged] {
            auto o = set->record(key, guest, *p, std::move(*judged), svc_.now());
            if (o.judgement.kind == puzzle::Judgement::BadInput)
                return error(400, o.judgement.reason);
            if (!o.stored)
                return error(500, "storage error: the rated attempt was not kept");
            return reply(200, outcome_json(*p, o));
        };
        return h;
    }
    if (r.method == "GET" && n == 3 && r.seg[2] == "hint") {
        const int level = query_number(r.query, "level");
        auto moves = query_moves(r.query, p->length);
        if (!moves || (level != 1 && level != 2))
            return error(400, "hint needs level (1: the piece, 2: the move) and moves (the moves played, "
                              "comma-separated USI; none at the start)");
        struct Found {
            std::string move, why;
        };
        const std::size_t ply = moves->size();
        auto found = std::make_shared<Found>();
        HttpReply h;
        h.deferred = solver_job(key, [p, moves = std::move(*moves), budget = set->budget(), found](tsume::Solver& s) {
            found->move = puzzle::hint_move(*p, moves, s, budget, found->why);
        });
        h.deferred->then = [this, set, key, guest, p, found, level, ply] {
            return hint_reply(*set, key, guest, *p, found->move, found->why, level, ply);
        };
        return h;
    }
    return error(r.method == "GET" || r.method == "POST" ? 404 : 405,
                 "puzzles: GET next, GET ID, POST ID/attempt, GET ID/hint");
}

}  // namespace hisha::server::proto
