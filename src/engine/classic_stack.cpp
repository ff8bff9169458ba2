#include "classic_stack.h"

#include <algorithm>

namespace hisha::engine {

using namespace core;

ClassicStack::ClassicStack(std::shared_ptr<const ClassicEvaluator> eval, int plies)
    : eval_(std::move(eval)), entries_(std::size_t(plies)) {}

void ClassicStack::clear() { std::fill(entries_.begin(), entries_.end(), Entry{}); }

Value ClassicStack::evaluate(const Position& pos, int ply) {
    Entry& e = entries_[std::size_t(ply)];
    const Square ksq[COLOR_NB] = {pos.king_square(BLACK), pos.king_square(WHITE)};
    if (!e.holds(pos)) {
        // The nearest known ancestor on this line, if the kings are where they were then.
        int back = nearest_computed(entries_, pos, ply, MAX_STEPS);
        if (back) {
            const Entry& a = entries_[std::size_t(ply - back)];
            if (a.ksq[BLACK] != ksq[BLACK] || a.ksq[WHITE] != ksq[WHITE])
                back = 0;
        }
        if (back) {
            int v = entries_[std::size_t(ply - back)].placement;
            Hand hands[COLOR_NB] = {pos.hand(BLACK), pos.hand(WHITE)};
            const StateInfo* t = pos.state();
            for (int k = 0; k < back; ++k, t = t->previous)
                v += eval_->placement_delta(*t, ksq, hands);
            e.placement = v;
            ++updates;
        } else {
            e.placement = eval_->placement(pos);
            ++refreshes;
        }
        e.computed_for(pos);
        e.ksq[BLACK] = ksq[BLACK];
        e.ksq[WHITE] = ksq[WHITE];
    }
    return eval_->finish(pos, e.placement + eval_->dynamic_score(pos));
}

}  // namespace hisha::engine
