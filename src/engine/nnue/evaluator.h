// Evaluation=NNUE: the Evaluator of a loaded network. evaluate() computes both accumulators
// afresh (analysis, tools); the search evaluates incrementally through network().
#pragma once

#include <memory>

#include "engine/evaluate.h"
#include "network.h"

namespace hisha::engine::nnue {

class NnueEvaluator final : public Evaluator {
public:
    explicit NnueEvaluator(std::shared_ptr<const Network> net) : net_(std::move(net)) {}
    Value evaluate(const core::Position& pos) const override { return net_->evaluate(pos); }
    std::string name() const override { return "nnue"; }
    std::shared_ptr<const Network> network() const override { return net_; }

private:
    std::shared_ptr<const Network> net_;
};

}  // namespace hisha::engine::nnue
