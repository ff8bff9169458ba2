// Incremental accumulators along the search's line (see accumulator.h).
#include "accumulator.h"

#include <algorithm>

namespace hisha::engine::nnue {

using namespace core;

AccumulatorStack::AccumulatorStack(std::shared_ptr<const Network> net, int plies)
    : net_(std::move(net)), entries_(std::size_t(plies)), acc_(std::size_t(plies) * 2 * std::size_t(net_->l1)),
      psqt_(std::size_t(plies) * 2), simd_(default_simd()) {}

void AccumulatorStack::clear() {
    for (Entry& e : entries_)
        e.computed = false;
}

const std::int16_t* AccumulatorStack::accumulator(int ply, Color persp) const {
    return &acc_[(std::size_t(ply) * 2 + persp) * std::size_t(net_->l1)];
}

Value AccumulatorStack::evaluate(const Position& pos, int ply, Simd simd) {
    Entry& e = entries_[std::size_t(ply)];
    if (!e.holds(pos))
        compute(pos, ply, simd);
    Color us = pos.side_to_move();
    int v = net_->propagate(acc(ply, us), acc(ply, ~us), simd) + psqt(ply, us) - psqt(ply, ~us);
    return std::clamp(v, -VALUE_KNOWN_WIN + 1, VALUE_KNOWN_WIN - 1);
}

void AccumulatorStack::compute(const Position& pos, int ply, Simd simd) {
    Entry& e = entries_[std::size_t(ply)];
    Frame frames[COLOR_NB] = {frame_of(pos, BLACK), frame_of(pos, WHITE)};
    // The nearest known ancestor on this line, at most MAX_STEPS plies back.
    int back = nearest_computed(entries_, pos, ply, FeatureDelta::MAX_STEPS);
    bool want[COLOR_NB] = {false, false};
    if (back) {
        const Entry& a = entries_[std::size_t(ply - back)];
        for (Color c : {BLACK, WHITE})
            want[c] = a.frame[c] == frames[c];
    }
    if (want[BLACK] || want[WHITE]) {
        FeatureDelta d[COLOR_NB];
        Hand hands[COLOR_NB] = {pos.hand(BLACK), pos.hand(WHITE)};
        const StateInfo* t = pos.state();
        for (int k = 0; k < back; ++k, t = t->previous)
            move_delta(*t, frames, want, hands, d);
        for (Color c : {BLACK, WHITE})
            if (want[c]) {
                net_->update(acc(ply - back, c), acc(ply, c), d[c].added, d[c].n_added, d[c].removed, d[c].n_removed,
                             simd);
                psqt(ply, c) =
                    net_->psqt_update(psqt(ply - back, c), d[c].added, d[c].n_added, d[c].removed, d[c].n_removed);
                ++updates;
            }
    }
    for (Color c : {BLACK, WHITE})
        if (!want[c]) {
            std::uint16_t features[MAX_ACTIVE];
            int n = active_features(pos, c, features);
            net_->update(net_->ft_bias.data(), acc(ply, c), features, n, nullptr, 0, simd);
            psqt(ply, c) = net_->psqt_sum(features, n);
            ++refreshes;
        }
    e.computed_for(pos);
    e.frame[BLACK] = frames[BLACK];
    e.frame[WHITE] = frames[WHITE];
}

}  // namespace hisha::engine::nnue
