// Elo, interval, LOS and SPRT.
#include "elo.h"

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

std::string format_elo(double elo) {
    if (std::isinf(elo))
        return elo > 0 ? "+inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f", std::fabs(elo) < 0.05 ? 0.0 : elo);
    return buf;
}

}  // namespace hisha::match
