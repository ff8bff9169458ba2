// Texel tuning: fit the linear evaluation's parameters to game results. Each sample is a
// quiet position from a game with its result (1 = Black won, 0.5 draw, 0 White won); the
// loss is the mean squared error between the result and sigmoid(eval / scale). Self-play
// produces the samples.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "evaluate.h"

namespace hisha::engine {

struct TuneSample {
    std::vector<std::pair<int, int>> features;  // (parameter index, coefficient), Black's view
    float result;                               // 1, 0.5 or 0 for Black
    float score = NAN;                          // the search's score in centipawns, Black's view (if given)
};

struct TuneOptions {
    int epochs = 300;
    double learning_rate = 2.0;
    double scale = 0;   // centipawns per logit unit; 0 = fit it first
    int min_count = 1;  // parameters used by fewer samples keep their values (too little evidence)
    double l2 = 0;      // pull towards the starting values: l2 * sum (value - start)^2 added to the loss
    std::function<void(int epoch, double loss)> progress;
};

/// Reads "sfen<TAB>result[<TAB>score]" lines into samples (features of `eval`'s parameters).
/// Lines that do not parse are counted in *bad.
std::vector<TuneSample> load_samples(const std::string& text, const ClassicEvaluator& eval, int* bad = nullptr);
/// Mean squared error of the parameters on the samples at a scale.
double tune_loss(const std::vector<TuneSample>& samples, const EvalParams& p, double scale);
/// The scale that minimises the loss for the current parameters.
double fit_scale(const std::vector<TuneSample>& samples, const EvalParams& p);
/// Targets that mix the game's result with the search's opinion: lambda * result +
/// (1 - lambda) * sigmoid(score / scale), for samples that carry a score. A deeper search's
/// score says far more about a position than the result of a game played on from it.
void blend_targets(std::vector<TuneSample>& samples, double lambda, double scale);
/// Adam on the loss; the king's material and parameters with fewer than min_count samples stay
/// as they are. Returns the
/// final loss.
double tune(const std::vector<TuneSample>& samples, EvalParams& p, TuneOptions opts);

struct SelfPlayOptions {
    int games = 100;
    std::uint64_t nodes = 5000;  // per move
    int random_plies = 6;        // random legal moves at the start, for variety
    int max_plies = 320;
    int threads = 1;
    std::uint64_t seed = 1;
    std::function<void(int done, int total)> progress;
    /// Receives each finished game's sample lines (serialised; may write them out at once).
    std::function<void(const std::string& lines)> sink;
};

/// Plays games of the engine against itself and returns sample lines ("sfen\tresult\tscore\n",
/// the score being the search's, in centipawns from Black's view) of quiet positions (not in check, the move played was not a capture or promotion). With a
/// sink the lines go there game by game instead and the result is empty.
std::string self_play(const SelfPlayOptions& opts);

}  // namespace hisha::engine
