// The explanation's JSON for the web (see tsume_explain_json.h): each move is described in the
// position it is played in, so the main line's moves up to it are played first and taken back.
#include "server/net/tsume_explain_json.h"

#include <cmath>

#include "server/proto/json_api.h"

namespace hisha::server::net {

namespace {

using nlohmann::json;

// Plays the main line's first `ply` moves, then `line`, and describes the moves of `line`.
// Stops at a move that is not legal (never on a sound explanation), leaving `start` as it was.
json line_json(core::Position& start, const std::vector<core::Move>& pv, int ply, const std::vector<core::Move>& line) {
    json out = json::array();
    int played = 0;
    core::Move previous = core::Move::none();
    for (int i = 0; i < ply && i < int(pv.size()) && start.is_legal(pv[i]); ++i, ++played) {
        start.play(pv[i]);
        previous = pv[i];
    }
    if (played == ply)
        for (core::Move m : line) {
            if (!start.is_legal(m))
                break;
            out.push_back(proto::JsonApi::move_json(start, m, previous));
            start.play(m);
            previous = m;
            ++played;
        }
    while (played-- > 0)
        start.unplay();
    return out;
}

json one(core::Position& start, const std::vector<core::Move>& pv, int ply, core::Move m) {
    json line = line_json(start, pv, ply, {m});
    return line.empty() ? json(core::to_usi(m)) : line[0];
}

}  // namespace

json explanation_api_json(core::Position& start, const tsume::Explanation& e) {
    const std::vector<core::Move>& pv = e.main.pv;
    json defences = json::array(), yozume = json::array(), undecided = json::array();
    for (const tsume::DefenderChoice& c : e.choices) {
        json others = json::array();
        for (const tsume::Refutation& r : c.others) {
            std::vector<core::Move> line{r.defence};
            line.insert(line.end(), r.line.begin(), r.line.end());
            json moves = line_json(start, pv, c.ply, line);
            if (!moves.empty())
                moves.erase(moves.begin());  // the defence itself is `move`
            others.push_back({{"move", one(start, pv, c.ply, r.defence)},
                              {"verdict", tsume::verdict_name(r.verdict)},
                              {"length", r.length},
                              {"line", moves}});
        }
        defences.push_back({{"ply", c.ply + 1},
                            {"played", one(start, pv, c.ply, c.played)},
                            {"remaining", c.remaining},
                            {"others", others}});
    }
    for (const tsume::OtherMate& o : e.other_mates) {
        json x{{"ply", o.ply + 1},
               {"played", one(start, pv, o.ply, o.played)},
               {"remaining", o.remaining},
               {"move", one(start, pv, o.ply, o.move)}};
        if (o.verdict == tsume::Verdict::Mate) {
            x["length"] = o.length;
            x["line"] = line_json(start, pv, o.ply, o.line);
            yozume.push_back(x);
        } else {
            undecided.push_back(x);
        }
    }
    return {{"defences", defences},
            {"yozume", yozume},
            {"undecided", undecided},
            {"questions", e.questions},
            {"timeouts", e.timeouts}};
}

json tsume_api_json(core::Position& start, const tsume::Explanation& e, bool explain) {
    const tsume::Result& r = e.main;
    static const char* STATUS[] = {"mate", "nomate", "timeout", "error"};
    json moves = json::array();
    core::Move previous = core::Move::none();
    int played = 0;
    for (core::Move m : r.pv) {
        if (!start.is_legal(m))
            break;
        moves.push_back(proto::JsonApi::move_json(start, m, previous));
        start.play(m);
        previous = m;
        ++played;
    }
    while (played-- > 0)
        start.unplay();
    json j{{"status", STATUS[int(r.status)]},
           {"length", r.length},
           {"exact", r.exact},
           {"moves", moves},
           {"nodes", r.nodes},
           {"time_ms", std::lround(r.time_s * 1000)},
           {"unique", r.unique},
           {"error", r.error}};
    if (explain)
        j["explain"] = explanation_api_json(start, e);
    return j;
}

}  // namespace hisha::server::net
