// Judging a puzzle attempt (puzzle.h): each of the player's attacking moves must still force
// mate within the plies left; the defender's replies must be the ones the server gave.
#include <fmt/format.h>

#include "core/rules.h"
#include "notation/usi.h"
#include "puzzle.h"

namespace hisha::puzzle {

namespace {

Judgement verdict(Judgement::Kind kind, int index, std::string reason = {}) {
    Judgement j;
    j.kind = kind;
    j.index = index;
    j.reason = std::move(reason);
    return j;
}

struct Walk {
    const Puzzle& p;
    tsume::Solver& solver;
    const Budget& budget;
    core::Position pos;
    bool on_line = true;   // every move so far is the solution's
    std::string expected;  // the defender's reply to the last attacking move
};

// The attacker's move `text` at index i; nothing when the attempt goes on.
std::optional<Judgement> attack(Walk& w, const std::string& text, int i, bool last) {
    auto m = notation::parse_usi_move(w.pos, text);
    if (!m) {
        if (m.error().code == core::ParseErrorCode::IllegalMove)
            return verdict(Judgement::Wrong, i, "illegal");
        return verdict(Judgement::BadInput, i, fmt::format("move {}: {}", i + 1, m.error().to_string()));
    }
    if (!w.pos.gives_check(*m))
        return verdict(Judgement::Wrong, i, "not a check");
    const int remaining = w.p.length - i - 1;
    w.on_line = w.on_line && notation::write_usi_move(*m) == w.p.solution[i];
    w.pos.play(*m);
    if (core::is_checkmate(w.pos))
        return last ? verdict(Judgement::Correct, i)
                    : verdict(Judgement::BadInput, i, fmt::format("move {} mates: no move follows", i + 1));
    if (w.on_line) {
        w.expected = w.p.solution[i + 1];
    } else {
        core::Move refutation, defence;
        Mates v = mates_within(w.pos, remaining, w.solver, w.budget, &refutation, &defence);
        if (v != Mates::Yes) {
            Judgement j = verdict(Judgement::Wrong, i, v == Mates::No ? "no mate" : "no mate found");
            if (v == Mates::No)
                j.refutation = notation::write_usi_move(refutation);
            return j;
        }
        w.expected = notation::write_usi_move(defence);
    }
    if (last) {
        Judgement j = verdict(Judgement::Continue, i);
        j.reply = w.expected;
        return j;
    }
    return std::nullopt;
}

}  // namespace

Judgement judge(const Puzzle& p, const std::vector<std::string>& moves, tsume::Solver& solver, const Budget& budget) {
    if (moves.empty() || int(moves.size()) > p.length || moves.size() % 2 == 0)
        return verdict(Judgement::BadInput, 0,
                       fmt::format("moves: 1..{} moves ending with the attacker's (an odd number)", p.length));
    Budget fresh = budget;
    fresh.spent = 0;
    Walk w{p, solver, fresh, {}};
    if (auto r = w.pos.set(p.sfen); !r)
        return verdict(Judgement::BadInput, 0, "the puzzle's sfen: " + r.error().to_string());
    for (int i = 0; i < int(moves.size()); ++i) {
        const bool last = i + 1 == int(moves.size());
        if (i % 2 == 0) {
            if (auto j = attack(w, moves[i], i, last))
                return *j;
            continue;
        }
        auto m = notation::parse_usi_move(w.pos, moves[i]);
        if (!m || notation::write_usi_move(*m) != w.expected)
            return verdict(Judgement::BadInput, i,
                           fmt::format("move {} is {}, not the defender's reply {}", i + 1, moves[i], w.expected));
        w.pos.play(*m);
    }
    return verdict(Judgement::BadInput, int(moves.size()) - 1,
                   "no verdict");  // not reached: the last move is the attacker's
}

std::string hint_move(const Puzzle& p, const std::vector<std::string>& moves, tsume::Solver& solver,
                      const Budget& budget, std::string& error) {
    if (moves.size() % 2 != 0 || int(moves.size()) >= p.length) {
        error = fmt::format("a hint is for the attacker's move: an even number of moves below {}", p.length);
        return {};
    }
    core::Position pos;
    if (auto r = pos.set(p.sfen); !r) {
        error = "the puzzle's sfen: " + r.error().to_string();
        return {};
    }
    bool on_line = true;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        auto m = notation::parse_usi_move(pos, moves[i]);
        if (!m) {
            error = fmt::format("move {}: {}", i + 1, m.error().to_string());
            return {};
        }
        on_line = on_line && notation::write_usi_move(*m) == p.solution[i];
        pos.play(*m);
    }
    if (on_line)
        return p.solution[moves.size()];
    tsume::Limits limits;
    limits.max_nodes = budget.nodes;
    limits.memory_mb = budget.memory_mb;
    tsume::Result r = solver.solve(pos, limits);
    if ((r.status == tsume::Status::Mate || r.status == tsume::Status::Timeout) && !r.pv.empty()
        && r.length <= p.length - int(moves.size()))
        return notation::write_usi_move(r.pv[0]);
    error = "the solver finds no mate from here within the plies left";
    return {};
}

}  // namespace hisha::puzzle
