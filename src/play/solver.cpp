// Mate search on top of the engine.
#include "solver.h"

#include <future>
#include <mutex>

#include "core/movegen.h"
#include "core/rules.h"
#include "session.h"

namespace hisha::play {

using namespace hisha::core;

namespace {

// Whether every move of the attacker (even plies) in `line` gives check.
bool attacker_always_checks(const Position& start, const std::vector<Move>& line) {
    auto p = start.clone();
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (!p->is_legal(line[i]))
            return false;
        if (i % 2 == 0 && !p->gives_check(line[i]))
            return false;
        p->play(line[i]);
    }
    return true;
}

// Completes a line that ends one move before the mate (the search reports the mate at its
// leaf without the last move in the PV).
void complete_line(const Position& start, std::vector<Move>& line, int plies) {
    auto p = start.clone();
    for (Move m : line) {
        if (!p->is_legal(m))
            return;
        p->play(m);
    }
    if (int(line.size()) + 1 != plies)
        return;
    for (const auto& sm : MoveList<LEGAL>(*p)) {
        if (!p->gives_check(sm.move))
            continue;
        p->play(sm.move);
        bool mate = is_checkmate(*p);
        p->unplay();
        if (mate) {
            line.push_back(sm.move);
            return;
        }
    }
}

}  // namespace

MateReport solve_mate(Session& session, double seconds) {
    MateReport r;
    const Position& pos = session.position();
    std::vector<Move> checks;
    for (const auto& sm : MoveList<LEGAL>(pos))
        if (pos.gives_check(sm.move))
            checks.push_back(sm.move);
    if (checks.empty()) {
        r.text = "No move gives check: no mate.";
        return r;
    }
    engine::Limits l;
    l.movetime = int(seconds * 1000);
    std::mutex m;
    engine::SearchInfo last;
    std::promise<engine::SearchResult> done;
    engine::Engine& eng = session.engine();
    eng.set_option("MultiPV", "1");
    eng.go(
        pos, l,
        [&](const engine::SearchInfo& info) {
            std::lock_guard<std::mutex> lock(m);
            last = info;
        },
        [&](const engine::SearchResult& res) { done.set_value(res); }, checks);
    engine::SearchResult res = done.get_future().get();
    eng.wait();
    std::lock_guard<std::mutex> lock(m);
    if (!engine::is_mate_score(res.score) || res.score <= 0) {
        r.text = "No mate found in " + std::to_string(int(seconds)) + " s (a search, not a proof).";
        return r;
    }
    r.mate = true;
    r.plies = engine::VALUE_MATE - res.score;
    r.line = last.pv;
    if (r.line.empty() || r.line[0] != res.best)
        r.line = {res.best};
    complete_line(pos, r.line, r.plies);
    r.all_checks = attacker_always_checks(pos, r.line);
    std::string moves;
    auto p = pos.clone();
    for (Move mv : r.line) {
        if (!p->is_legal(mv))
            break;
        moves += (moves.empty() ? "" : " ") + session.move_text(*p, mv);
        p->play(mv);
    }
    r.text = "Mate in " + std::to_string(r.plies) + ": " + moves
           + (r.all_checks ? "" : " (the line has moves that are not checks)");
    return r;
}

}  // namespace hisha::play
