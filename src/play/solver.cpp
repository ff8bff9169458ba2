// Mate search through the tsume solver.
#include "solver.h"

#include <cmath>

#include "session.h"
#include "tsume/solver.h"

namespace hisha::play {

using namespace hisha::core;

MateReport solve_mate(Session& session, double seconds, bool tsume_convention) {
    MateReport r;
    auto pos = session.position().clone();
    tsume::Limits limits;
    limits.time_limit_s = seconds;
    limits.memory_mb = 64;
    limits.convention = tsume_convention ? tsume::Convention::Tsume : tsume::Convention::Ordinary;
    if (tsume_convention)
        tsume::complete_defender_hand(*pos);
    tsume::Result res = tsume::solve(*pos, limits);
    switch (res.status) {
    case tsume::Status::Error: r.text = "Not a mating problem: " + res.error; return r;
    case tsume::Status::NoMate: r.text = "No mate: the defender always escapes."; return r;
    case tsume::Status::Timeout:
        if (res.pv.empty()) {
            r.text = "No mate found in " + std::to_string(int(std::lround(seconds))) + " s.";
            return r;
        }
        break;
    case tsume::Status::Mate: break;
    }
    r.mate = true;
    r.plies = res.length;
    r.exact = res.exact;
    r.line = res.pv;
    std::string moves;
    auto p = pos->clone();
    for (Move m : r.line) {
        if (!p->is_legal(m))
            break;
        moves += (moves.empty() ? "" : " ") + session.move_text(*p, m);
        p->play(m);
    }
    r.text = "Mate in " + std::to_string(r.plies) + ": " + moves
           + (r.exact ? "" : " (the shortest mate is not proven within the time)");
    if (tsume_convention && !res.unique && res.other_first_move.is_ok())
        r.text += "; another first move also mates: " + session.move_text(*pos, res.other_first_move);
    return r;
}

}  // namespace hisha::play
