// The explanation of a solved problem (see explain.h): the other defences of the main line and
// the other mating moves of the attacker, each a question of its own bounded solves.
#include "explain.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/movegen.h"
#include "core/rules.h"
#include "moves.h"

namespace hisha::tsume {

using namespace core;

namespace {

using Clock = std::chrono::steady_clock;

// One question's budget, shared by its solves.
class Question {
public:
    Question(Solver& solver, const Limits& base, const ExplainBudget& budget, Explanation& e, Clock::time_point end)
        : solver_(solver), base_(base), budget_(budget), e_(e), t0_(Clock::now()), end_(end) {
        ++e_.questions;
    }
    // Solves `pos` (the attacker to move) with what is left of the budget; Timeout when nothing is.
    Result solve(const Position& pos) {
        Limits l = base_;
        l.max_nodes = 0;
        l.time_limit_s = 0;
        if (budget_.nodes) {
            if (used_ >= budget_.nodes)
                return {};
            l.max_nodes = budget_.nodes - used_;
        }
        if (double left = seconds_left(); left < 1e300) {
            if (left <= 0)
                return {};
            l.time_limit_s = left;
        }
        Result r = solver_.solve(pos, l);
        used_ += r.nodes;
        e_.nodes += r.nodes;
        return r;
    }
    // Counts one node of a search of our own; false once the budget is spent.
    bool spend() {
        ++used_;
        ++e_.nodes;
        if (budget_.nodes && used_ > budget_.nodes)
            return false;
        return (used_ & 1023) != 1 || seconds_left() > 0;  // the clock at the first node, then every 1024
    }

private:
    // What is left of the question's seconds and of the whole explanation's (1e308: no bound).
    double seconds_left() const {
        auto now = Clock::now();
        double left = 1e308;
        if (budget_.seconds > 0)
            left = budget_.seconds - std::chrono::duration<double>(now - t0_).count();
        if (end_ != Clock::time_point::max())
            left = std::min(left, std::chrono::duration<double>(end_ - now).count());
        return left;
    }

    Solver& solver_;
    const Limits& base_;
    const ExplainBudget& budget_;
    Explanation& e_;
    Clock::time_point t0_;
    Clock::time_point end_;
    std::uint64_t used_ = 0;
};

bool stopped(const Limits& l) { return l.stop && l.stop->load(std::memory_order_relaxed); }

// The defender's legal replies (in check), every promotion choice included.
std::vector<Move> replies(const Position& pos) {
    std::vector<Move> out;
    for (const ScoredMove& sm : MoveList<LEGAL, true>(pos))
        out.push_back(sm.move);
    return out;
}

bool futile(Position& pos, Move m, Convention conv) {
    return conv == Convention::Tsume && m.is_drop() && !pos.checkers().more_than_one()
        && is_futile_drop(pos, m.to(), m.dropped_piece());
}

enum class Within : std::uint8_t { No, Yes, Unknown };

// A fixed-depth search through the core's moves: does the attacker to move mate `pos` within
// n plies? Unknown when the question's budget ran out first.
Within mates_within(Position& pos, int n, Question& q, Convention conv) {
    if (n < 1)
        return Within::No;
    bool unknown = false;
    for (const ScoredMove& sm : MoveList<LEGAL, true>(pos)) {
        Move c = sm.move;
        if (!pos.gives_check(c))
            continue;
        if (!q.spend())
            return Within::Unknown;
        pos.play(c);
        Within all = Within::Yes;  // every reply is mated within n - 2
        for (Move e : replies(pos)) {
            if (futile(pos, e, conv))
                continue;
            pos.play(e);
            Within w = mates_within(pos, n - 2, q, conv);
            pos.unplay();
            if (w != Within::Yes) {
                all = w;
                if (w == Within::No)
                    break;
            }
        }
        pos.unplay();
        if (all == Within::Yes)
            return Within::Yes;
        unknown |= all == Within::Unknown;
    }
    return unknown ? Within::Unknown : Within::No;
}

// What the solver proves after the defence m of `pos` (the defender to move).
Refutation refute(Position& pos, Move m, Question& q, Convention conv) {
    Refutation r;
    r.defence = m;
    if (futile(pos, m, conv)) {
        r.verdict = Verdict::Futile;
        return r;
    }
    pos.play(m);
    Result s = q.solve(pos);
    pos.unplay();
    if (s.status == Status::Mate && s.exact) {
        r.verdict = Verdict::Mate;
        r.length = s.length;
        r.line = s.pv;
    } else if (s.status == Status::NoMate) {
        r.verdict = Verdict::NoMate;
    }
    return r;
}

// Remainders up to this many plies are asked by mates_within() first.
constexpr int SHORT_PLIES = 5;

// Whether the check c of `pos` (the attacker to move) mates within `within` plies; when it
// does, `o` gets the exact length and a line through the longest reply.
void ask_check(Position& pos, Move c, int within, Question& q, Convention conv, OtherMate& o) {
    o.move = c;
    pos.play(c);
    std::vector<Move> rs;
    for (Move e : replies(pos))
        if (!futile(pos, e, conv))
            rs.push_back(e);
    int longest = 0;
    bool undecided = false;
    for (Move e : rs) {
        pos.play(e);
        // Short remainders are decided by a search of our own (the solver proves "no mate at
        // any length", which may take long); a mate it finds is then measured by the solver.
        if (within - 2 <= SHORT_PLIES && mates_within(pos, within - 2, q, conv) == Within::No) {
            pos.unplay();
            pos.unplay();
            o.verdict = Verdict::NoMate;
            return;
        }
        Result s = q.solve(pos);
        pos.unplay();
        bool proven = s.status == Status::Mate && s.exact;
        if (s.status == Status::NoMate || (proven && s.length > within - 2)) {
            pos.unplay();
            o.verdict = Verdict::NoMate;  // not a mate within the length
            return;
        }
        if (!proven) {
            undecided = true;  // another reply may still refute it: go on
            continue;
        }
        if (s.length + 2 > longest || o.line.empty()) {
            longest = s.length + 2;
            o.line = {c, e};
            o.line.insert(o.line.end(), s.pv.begin(), s.pv.end());
        }
    }
    pos.unplay();
    if (undecided) {
        o.verdict = Verdict::Timeout;
        o.line.clear();
        return;
    }
    o.verdict = Verdict::Mate;
    o.length = rs.empty() ? 1 : longest;
    if (rs.empty())
        o.line = {c};
}

// What every question of one explanation shares.
struct Context {
    const Limits& limits;
    const ExplainBudget& budget;
    Solver& solver;
    Explanation& e;
    Clock::time_point end;  // of the whole explanation (max: none)
};

void explain_defence(Position& pos, int ply, Move played, int remaining, Context& cx) {
    const Limits& limits = cx.limits;
    Explanation& e = cx.e;
    std::vector<Move> rs = replies(pos);
    if (rs.size() < 2)
        return;
    DefenderChoice choice{ply, played, remaining, {}};
    for (Move m : rs) {
        if (m == played || stopped(limits))
            continue;
        Question q(cx.solver, limits, cx.budget, e, cx.end);
        choice.others.push_back(refute(pos, m, q, e.convention));
        if (choice.others.back().verdict == Verdict::Timeout)
            ++e.timeouts;
    }
    e.choices.push_back(std::move(choice));
}

void explain_attack(Position& pos, int ply, Move played, int remaining, Context& cx) {
    const Limits& limits = cx.limits;
    Explanation& e = cx.e;
    for (const ScoredMove& sm : MoveList<LEGAL, true>(pos)) {
        Move c = sm.move;
        if (c == played || !pos.gives_check(c) || stopped(limits))
            continue;
        Question q(cx.solver, limits, cx.budget, e, cx.end);
        OtherMate o;
        o.ply = ply;
        o.played = played;
        o.remaining = remaining;
        ask_check(pos, c, remaining, q, e.convention, o);
        if (o.verdict == Verdict::Timeout)
            ++e.timeouts;
        if (o.verdict == Verdict::Mate || o.verdict == Verdict::Timeout)
            e.other_mates.push_back(std::move(o));
    }
}

std::string line_text(const std::vector<Move>& line) {
    std::string s;
    for (Move m : line)
        s += (s.empty() ? "" : " ") + to_usi(m);
    return s;
}

nlohmann::json moves_json(const std::vector<Move>& line) {
    nlohmann::json a = nlohmann::json::array();
    for (Move m : line)
        a.push_back(to_usi(m));
    return a;
}

}  // namespace

const char* verdict_name(Verdict v) {
    switch (v) {
    case Verdict::Mate: return "mate";
    case Verdict::NoMate: return "nomate";
    case Verdict::Timeout: return "timeout";
    case Verdict::Futile: return "futile";
    }
    return "?";
}

Explanation explain(Position& pos, const Limits& limits, const ExplainBudget& budget, Solver& solver) {
    auto t0 = Clock::now();
    Explanation e;
    e.convention = limits.convention;
    e.main = solver.solve(pos, limits);
    e.nodes = e.main.nodes;
    if (e.main.status == Status::Mate) {
        auto end = Clock::time_point::max();
        if (budget.total_seconds > 0)
            end = Clock::now() + std::chrono::microseconds(std::int64_t(std::min(budget.total_seconds, 1e9) * 1e6));
        Context cx{limits, budget, solver, e, end};
        const std::vector<Move> pv = e.main.pv;
        int length = int(pv.size());
        std::size_t played = 0;
        for (; played < pv.size() && !stopped(limits); ++played) {
            int ply = int(played);
            if (ply % 2 == 0)
                explain_attack(pos, ply, pv[played], length - ply, cx);
            else
                explain_defence(pos, ply, pv[played], length - ply - 1, cx);
            pos.play(pv[played]);
        }
        for (; played > 0; --played)
            pos.unplay();
    }
    e.time_s = std::chrono::duration<double>(Clock::now() - t0).count();
    return e;
}

std::string explanation_text(const Explanation& e) {
    std::string s = format_result(e.main, e.convention) + "\n";
    if (e.main.status != Status::Mate)
        return s;
    for (const DefenderChoice& c : e.choices) {
        s += "ply " + std::to_string(c.ply + 1) + " " + to_usi(c.played) + " (" + std::to_string(c.remaining)
           + " plies left):\n";
        for (const Refutation& r : c.others) {
            s += "  " + to_usi(r.defence) + ": ";
            if (r.verdict == Verdict::Mate)
                s += "mate " + std::to_string(r.length) + (r.length == c.remaining ? " (as long)" : "") + " "
                   + line_text(r.line);
            else if (r.verdict == Verdict::Futile)
                s += "futile interposition";
            else if (r.verdict == Verdict::NoMate)
                s += "no mate proven (the main line would not be forced)";
            else
                s += "timeout (no answer within the budget)";
            s += "\n";
        }
    }
    int yozume = 0;
    for (const OtherMate& o : e.other_mates) {
        if (o.verdict == Verdict::Mate) {
            ++yozume;
            s += "yozume at ply " + std::to_string(o.ply + 1) + " (" + to_usi(o.played) + ", "
               + std::to_string(o.remaining) + " plies left): " + to_usi(o.move) + " mates in "
               + std::to_string(o.length) + (o.length < o.remaining ? " (shorter)" : "") + ": " + line_text(o.line)
               + "\n";
        } else {
            s += "undecided at ply " + std::to_string(o.ply + 1) + ": " + to_usi(o.move)
               + " (timeout: whether it mates within " + std::to_string(o.remaining) + " is not known)\n";
        }
    }
    if (yozume == 0)
        s += "no yozume: no other attacker's move on the main line mates within the plies left"
           + std::string(e.timeouts ? " among those decided" : "") + "\n";
    s += "questions " + std::to_string(e.questions) + ", timeouts " + std::to_string(e.timeouts) + "\n";
    return s;
}

std::string explanation_json(const Explanation& e) {
    using nlohmann::json;
    static const char* STATUS[] = {"mate", "nomate", "timeout", "error"};
    json j{{"status", STATUS[int(e.main.status)]}, {"length", e.main.length}, {"exact", e.main.exact},
           {"moves", moves_json(e.main.pv)},       {"unique", e.main.unique}, {"error", e.main.error}};
    json defences = json::array(), yozume = json::array(), undecided = json::array();
    for (const DefenderChoice& c : e.choices) {
        json others = json::array();
        for (const Refutation& r : c.others)
            others.push_back({{"move", to_usi(r.defence)},
                              {"verdict", verdict_name(r.verdict)},
                              {"length", r.length},
                              {"line", moves_json(r.line)}});
        defences.push_back(
            {{"ply", c.ply + 1}, {"played", to_usi(c.played)}, {"remaining", c.remaining}, {"others", others}});
    }
    for (const OtherMate& o : e.other_mates) {
        json x{{"ply", o.ply + 1}, {"played", to_usi(o.played)}, {"remaining", o.remaining}, {"move", to_usi(o.move)}};
        if (o.verdict == Verdict::Mate) {
            x["length"] = o.length;
            x["line"] = moves_json(o.line);
            yozume.push_back(x);
        } else {
            undecided.push_back(x);
        }
    }
    j["defences"] = defences;
    j["yozume"] = yozume;
    j["undecided"] = undecided;
    j["questions"] = e.questions;
    j["timeouts"] = e.timeouts;
    j["nodes"] = e.nodes;
    j["time_ms"] = std::llround(e.time_s * 1000);
    return j.dump();
}

}  // namespace hisha::tsume
