// Self-play data and Texel tuning of the classic evaluation.
#include "tune.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "core/game.h"
#include "core/movegen.h"
#include "engine.h"

namespace hisha::engine {

using namespace core;

namespace {
double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Black-view linear score: the features plus tempo for the side to move.
double linear(const TuneSample& s, const int* params) {
    double e = 0;
    for (auto [i, c] : s.features)
        e += double(params[i]) * c;
    return e;
}
}  // namespace

std::vector<TuneSample> load_samples(const std::string& text, const ClassicEvaluator& eval, int* bad) {
    std::vector<TuneSample> out;
    std::istringstream in(text);
    int tempo_index = int(&eval.params().tempo - eval.params().data());
    int bad_lines = 0;
    for (std::string line; std::getline(in, line);) {
        auto tab = line.find('\t');
        Position pos;
        if (tab == std::string::npos || !pos.set(line.substr(0, tab))) {
            bad_lines += !line.empty();
            continue;
        }
        TuneSample s;
        char* end = nullptr;
        std::string rest = line.substr(tab + 1);
        s.result = std::strtof(rest.c_str(), &end);
        if (end == rest.c_str() || !(s.result >= 0 && s.result <= 1)) {
            ++bad_lines;
            continue;
        }
        if (*end == '\t') {
            const char* sc = end + 1;
            float v = std::strtof(sc, &end);
            if (end == sc || *end) {
                ++bad_lines;
                continue;
            }
            s.score = v;
        } else if (*end) {
            ++bad_lines;
            continue;
        }
        eval.features(pos, s.features);
        s.features.emplace_back(tempo_index, pos.side_to_move() == BLACK ? 1 : -1);
        out.push_back(std::move(s));
    }
    if (bad)
        *bad = bad_lines;
    return out;
}

double tune_loss(const std::vector<TuneSample>& samples, const EvalParams& p, double scale) {
    double sum = 0;
    for (const auto& s : samples) {
        double d = s.result - sigmoid(linear(s, p.data()) / scale);
        sum += d * d;
    }
    return samples.empty() ? 0 : sum / double(samples.size());
}

double fit_scale(const std::vector<TuneSample>& samples, const EvalParams& p) {
    double best = 400, best_loss = tune_loss(samples, p, best);
    for (double step = 200; step >= 1; step /= 2)
        for (double cand : {best - step, best + step})
            if (cand > 10) {
                double l = tune_loss(samples, p, cand);
                if (l < best_loss)
                    best = cand, best_loss = l;
            }
    return best;
}

void blend_targets(std::vector<TuneSample>& samples, double lambda, double scale) {
    for (auto& s : samples)
        if (!std::isnan(s.score))
            s.result = float(lambda * s.result + (1 - lambda) * sigmoid(s.score / scale));
}

double tune(const std::vector<TuneSample>& samples, EvalParams& p, TuneOptions opts) {
    const int n = EvalParams::size();
    double scale = opts.scale > 0 ? opts.scale : fit_scale(samples, p);
    // Parameters that may move: everything that some sample uses, except the king's material.
    std::vector<double> value(n), m(n, 0), v(n, 0);
    std::vector<char> used(n, 0);
    std::vector<int> count(n, 0);
    for (int i = 0; i < n; ++i)
        value[i] = p.data()[i];
    const std::vector<double> start = value;
    for (const auto& s : samples)
        for (auto [i, c] : s.features)
            ++count[i];
    for (int i = 0; i < n; ++i)
        used[i] = count[i] >= std::max(1, opts.min_count);
    used[int(&p.board[KING] - p.data())] = 0;
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    std::vector<double> grad(n);
    std::vector<int> rounded(n);
    double loss = 0;
    for (int epoch = 1; epoch <= opts.epochs; ++epoch) {
        std::fill(grad.begin(), grad.end(), 0.0);
        for (int i = 0; i < n; ++i)
            rounded[i] = int(std::lround(value[i]));
        loss = 0;
        for (const auto& s : samples) {
            double e = 0;
            for (auto [i, c] : s.features)
                e += value[i] * c;
            double q = sigmoid(e / scale);
            double d = q - s.result;
            loss += d * d;
            double g = 2 * d * q * (1 - q) / scale;
            for (auto [i, c] : s.features)
                grad[i] += g * c;
        }
        loss /= double(samples.size());
        for (int i = 0; i < n; ++i) {
            if (!used[i])
                continue;
            double gi = grad[i] / double(samples.size()) + 2 * opts.l2 * (value[i] - start[i]);
            m[i] = b1 * m[i] + (1 - b1) * gi;
            v[i] = b2 * v[i] + (1 - b2) * gi * gi;
            double mh = m[i] / (1 - std::pow(b1, epoch)), vh = v[i] / (1 - std::pow(b2, epoch));
            value[i] -= opts.learning_rate * mh / (std::sqrt(vh) + eps);
        }
        if (opts.progress)
            opts.progress(epoch, loss);
    }
    for (int i = 0; i < n; ++i)
        p.data()[i] = int(std::lround(value[i]));
    return tune_loss(samples, p, scale);
}

std::string self_play(const SelfPlayOptions& opts) {
    std::mutex mutex;
    std::string out;
    std::atomic<int> next{0}, done{0};
    auto worker = [&](int tid) {
        Engine e;
        e.set_option("USI_Hash", "16");
        e.set_option("OwnBook", "false");
        while (true) {
            int g = next++;
            if (g >= opts.games)
                return;
            std::mt19937_64 rng(opts.seed * 1000003 + std::uint64_t(g));
            Game game(GameRules{ImpasseRule::Csa27, opts.max_plies, true});
            std::vector<std::pair<std::string, int>> quiet;  // sfen, score for Black
            int lopsided = 0;
            Winner adjudicated = Winner::None;
            e.new_game();
            while (!game.over()) {
                const Position& pos = game.position();
                Move m;
                int ply = int(game.moves().size());
                if (ply < opts.random_plies) {
                    MoveList<LEGAL> moves(pos);
                    m = moves.begin()[rng() % moves.size()].move;
                } else {
                    Limits l;
                    l.nodes = opts.nodes;
                    SearchResult r = e.search(pos, l);
                    if (r.best == Move::win()) {
                        (void)game.declare();
                        break;
                    }
                    if (!r.best) {
                        game.resign(pos.side_to_move());
                        break;
                    }
                    m = r.best;
                    // Adjudicate clear wins to save time: 8 plies beyond +-2500 for the mover.
                    lopsided = std::abs(r.score) > 2500 ? lopsided + 1 : 0;
                    if (lopsided >= 8) {
                        Color winner = r.score > 0 ? pos.side_to_move() : ~pos.side_to_move();
                        adjudicated = winner == BLACK ? Winner::Black : Winner::White;
                    }
                    bool capture = !m.is_drop() && pos.piece_on(m.to()) != NO_PIECE;
                    if (!pos.in_check() && !capture && !m.is_promotion() && !is_mate_score(r.score))
                        quiet.emplace_back(pos.sfen(), pos.side_to_move() == BLACK ? r.score : -r.score);
                }
                if (!game.play(m))
                    break;
                if (adjudicated != Winner::None)
                    break;
            }
            Winner w = adjudicated != Winner::None ? adjudicated : game.result().winner;
            const char* res = w == Winner::Black ? "1" : w == Winner::White ? "0" : "0.5";
            std::string chunk;
            for (const auto& [sfen, score] : quiet)
                chunk += sfen + "\t" + res + "\t" + std::to_string(score) + "\n";
            std::lock_guard<std::mutex> lock(mutex);
            if (opts.sink)
                opts.sink(chunk);
            else
                out += chunk;
            int d = ++done;
            if (opts.progress)
                opts.progress(d, opts.games);
        }
        (void)tid;
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < std::max(1, opts.threads); ++t)
        threads.emplace_back(worker, t);
    for (auto& t : threads)
        t.join();
    return out;
}

}  // namespace hisha::engine
