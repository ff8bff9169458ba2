// Elo, interval, LOS and SPRT.
#include "elo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace hisha::match {

namespace {

constexpr double Z95 = 1.959963984540054;  // two-sided 95% quantile of the normal distribution
constexpr double INF = std::numeric_limits<double>::infinity();

// Per-game variance of the score around its mean.
double score_variance(const Score& s) {
    int n = s.games();
    if (n == 0)
        return 0;
    double m = s.ratio();
    return (s.wins * (1 - m) * (1 - m) + s.draws * (0.5 - m) * (0.5 - m) + s.losses * m * m) / n;
}

double score_from_elo(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

}  // namespace

double elo_from_ratio(double s) {
    if (s <= 0)
        return -INF;
    if (s >= 1)
        return INF;
    return -400 * std::log10(1 / s - 1);
}

EloEstimate estimate_elo(const Score& s) {
    EloEstimate e;
    int n = s.games();
    double m = s.ratio();
    e.elo = elo_from_ratio(m);
    double margin = n ? Z95 * std::sqrt(score_variance(s) / n) : 0;
    e.lower = elo_from_ratio(m - margin);
    e.upper = elo_from_ratio(m + margin);
    return e;
}

double likelihood_of_superiority(const Score& s) {
    int decisive = s.wins + s.losses;
    if (decisive == 0)
        return 0.5;
    return 0.5 * (1 + std::erf((s.wins - s.losses) / std::sqrt(2.0 * decisive)));
}

SprtStatus sprt(const Score& s, const SprtParams& p) {
    SprtStatus st;
    st.lower = std::log(p.beta / (1 - p.alpha));
    st.upper = std::log((1 - p.beta) / p.alpha);
    double var = score_variance(s);
    if (s.games() == 0 || var <= 0)
        return st;  // no information yet (no game, or every game the same result)
    double s0 = score_from_elo(p.elo0), s1 = score_from_elo(p.elo1);
    st.llr = s.games() * (s1 - s0) * (2 * s.ratio() - s0 - s1) / (2 * var);
    if (st.llr >= st.upper)
        st.decision = SprtStatus::Decision::AcceptH1;
    else if (st.llr <= st.lower)
        st.decision = SprtStatus::Decision::AcceptH0;
    return st;
}

double Pentanomial::ratio() const {
    int n_pairs = pairs();
    if (n_pairs == 0)
        return 0.5;
    double points = 0;
    for (int k = 0; k < 5; ++k)
        points += n[k] * k / 4.0;
    return points / n_pairs;
}

std::string Pentanomial::to_string() const {
    std::string s = "[";
    for (int k = 0; k < 5; ++k)
        s += (k ? ", " : "") + std::to_string(n[k]);
    return s + "]";
}

EloEstimate estimate_elo(const Pentanomial& p) {
    EloEstimate e;
    int n = p.pairs();
    double m = p.ratio();
    e.elo = elo_from_ratio(m);
    if (n == 0) {
        e.lower = e.upper = e.elo;
        return e;
    }
    double var = 0;
    for (int k = 0; k < 5; ++k)
        var += p.n[k] * (k / 4.0 - m) * (k / 4.0 - m);
    var /= n;
    double margin = Z95 * std::sqrt(var / n);
    e.lower = elo_from_ratio(m - margin);
    e.upper = elo_from_ratio(m + margin);
    return e;
}

void mle_with_mean(const double* w, const double* values, int count, double mean, double* q) {
    // f(lambda) = sum w_i d_i / (1 + lambda d_i), d_i = values_i - mean, falls strictly from
    // +inf to -inf over the lambda for which every 1 + lambda d_i with w_i > 0 is positive.
    double dmax = 0, dmin = 0;
    for (int i = 0; i < count; ++i)
        if (w[i] > 0) {
            dmax = std::max(dmax, values[i] - mean);
            dmin = std::min(dmin, values[i] - mean);
        }
    double lo = dmax > 0 ? -1 / dmax : -1e9, hi = dmin < 0 ? -1 / dmin : 1e9;
    auto f = [&](double lambda) {
        double sum = 0;
        for (int i = 0; i < count; ++i)
            sum += w[i] * (values[i] - mean) / (1 + lambda * (values[i] - mean));
        return sum;
    };
    for (int iter = 0; iter < 200; ++iter) {
        double mid = (lo + hi) / 2;
        if (mid <= lo || mid >= hi)
            break;
        (f(mid) > 0 ? lo : hi) = mid;
    }
    double lambda = (lo + hi) / 2, total = 0;
    for (int i = 0; i < count; ++i)
        total += q[i] = w[i] / (1 + lambda * (values[i] - mean));
    for (int i = 0; i < count; ++i)
        q[i] /= total;
}

SprtStatus sprt(const Pentanomial& p, const SprtParams& params) {
    SprtStatus st;
    st.lower = std::log(params.beta / (1 - params.alpha));
    st.upper = std::log((1 - params.beta) / params.alpha);
    if (p.pairs() == 0)
        return st;
    constexpr double EMPTY = 1e-3;
    const double values[5] = {0, 0.25, 0.5, 0.75, 1};
    double counts[5], w[5], total = 0;
    for (int k = 0; k < 5; ++k)
        total += counts[k] = p.n[k] > 0 ? p.n[k] : EMPTY;
    for (int k = 0; k < 5; ++k)
        w[k] = counts[k] / total;
    double q0[5], q1[5];
    mle_with_mean(w, values, 5, score_from_elo(params.elo0), q0);
    mle_with_mean(w, values, 5, score_from_elo(params.elo1), q1);
    for (int k = 0; k < 5; ++k)
        st.llr += counts[k] * std::log(q1[k] / q0[k]);
    if (st.llr >= st.upper)
        st.decision = SprtStatus::Decision::AcceptH1;
    else if (st.llr <= st.lower)
        st.decision = SprtStatus::Decision::AcceptH0;
    return st;
}

std::string format_elo(double elo) {
    if (std::isinf(elo))
        return elo > 0 ? "+inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f", std::fabs(elo) < 0.05 ? 0.0 : elo);
    return buf;
}

}  // namespace hisha::match
