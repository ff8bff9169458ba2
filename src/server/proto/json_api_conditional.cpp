// The JSON API's conditional moves (issue 20): GET, PUT and DELETE /api/games/N/conditional,
// the logged-in player's own tree in that game (service/conditional.h). A tree is
// [{"move": "7g7f", "reply": "3c3d", "then": [ ...the same... ]}, ...] in USI.
#include "server/proto/json_api.h"
#include "server/proto/json_api_util.h"

namespace hisha::server::proto {

using json = nlohmann::json;
using namespace json_util;

namespace {

json tree_json(const std::vector<service::ConditionalBranch>& bs) {
    json out = json::array();
    for (const auto& b : bs)
        out.push_back({{"move", b.move}, {"reply", b.reply}, {"then", tree_json(b.then)}});
    return out;
}

// The tree of a request's JSON: its shape only (the service checks the moves and the bounds);
// `budget` stops a deep or wide document early.
bool read_tree(const json& j, std::vector<service::ConditionalBranch>& out, int depth, int& budget,
               std::string& error) {
    if (!j.is_array()) {
        error = "a tree is an array of {move, reply, then}";
        return false;
    }
    if (depth > service::MAX_CONDITIONAL_DEPTH) {
        error = "the tree is deeper than " + std::to_string(service::MAX_CONDITIONAL_DEPTH) + " levels";
        return false;
    }
    for (const json& b : j) {
        if (--budget < 0) {
            error = "the tree has more than " + std::to_string(service::MAX_CONDITIONAL_BRANCHES) + " branches";
            return false;
        }
        if (!b.is_object() || str(b, "move").empty() || str(b, "reply").empty()) {
            error = "each branch needs a \"move\" (the opponent's, USI) and a \"reply\" (yours)";
            return false;
        }
        service::ConditionalBranch br{str(b, "move"), str(b, "reply"), {}};
        if (b.contains("then") && !read_tree(b["then"], br.then, depth + 1, budget, error))
            return false;
        out.push_back(std::move(br));
    }
    return true;
}

HttpReply refused(const std::string& why) {
    return error(why.find("not yours") != std::string::npos      ? 403
                 : why.find("no such game") != std::string::npos ? 404
                 : why.rfind("storage error", 0) == 0            ? 500
                                                                 : 400,
                 why);
}

}  // namespace

HttpReply JsonApi::any_game_conditional(Request& r) {
    auto id = to_id(r.seg[1]);
    if (!id || !svc_.game(*id))
        return error(404, "no such game");
    if (r.method != "GET" && r.method != "PUT" && r.method != "DELETE")
        return error(405, "conditional moves are read (GET), stored (PUT) or removed (DELETE)");
    if (r.method == "DELETE") {
        if (auto d = svc_.clear_conditional(r.me, *id); !d)
            return refused(d.error());
        return reply(200, {{"game", *id}, {"ply", svc_.game(*id)->row.moves.size()}, {"tree", json::array()}});
    }
    std::vector<service::ConditionalBranch> branches;
    if (r.method == "PUT") {
        int budget = service::MAX_CONDITIONAL_BRANCHES;
        std::string why;
        if (!r.in.contains("tree") || !read_tree(r.in["tree"], branches, 1, budget, why))
            return error(400, why.empty() ? "the body needs a \"tree\"" : why);
    }
    auto t = r.method == "PUT" ? svc_.set_conditional(r.me, *id, std::move(branches)) : svc_.conditional(r.me, *id);
    if (!t)
        return refused(t.error());
    return reply(200, {{"game", *id}, {"ply", t->ply}, {"tree", tree_json(t->branches)}});
}

}  // namespace hisha::server::proto
