// Match statistics: Elo difference from a score with a 95% interval, the likelihood of
// superiority, and the sequential probability ratio test (GSPRT) that decides early whether
// a change gained elo0 or elo1. Elo is logistic. Two models of the outcomes: trinomial (each
// game a win, draw or loss, independent) and pentanomial (each pair of games of one opening
// with colours swapped scores 0, 1/4, 1/2, 3/4 or 1), which is what fishtest uses: the two
// games of a pair are correlated through their opening, and the pair's variance is the
// honest one. The pentanomial GSPRT is the log-likelihood ratio of the two maximum-likelihood
// distributions of pair scores whose means are the scores that elo0 and elo1 imply.
#pragma once

#include <string>

namespace hisha::match {

/// Wins, losses and draws of one side against another.
struct Score {
    int wins = 0, losses = 0, draws = 0;
    int games() const { return wins + losses + draws; }
    /// Points per game, 0..1 (0.5 when no game was played).
    double ratio() const { return games() ? (wins + 0.5 * draws) / games() : 0.5; }
};

/// The Elo difference that a score ratio implies: -400 log10(1/s - 1); +-inf at 1 and 0.
double elo_from_ratio(double s);

struct EloEstimate {
    double elo = 0;
    double lower = 0, upper = 0;  // the 95% interval (may be +-inf)
};
/// Elo with a 95% interval from the per-game variance of the score (W, D, L as 1, 1/2, 0).
EloEstimate estimate_elo(const Score& s);
/// Likelihood of superiority: the probability that the side is the stronger, from wins and
/// losses alone (draws carry no information): 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))).
double likelihood_of_superiority(const Score& s);

struct SprtParams {
    double elo0 = 0, elo1 = 5;
    double alpha = 0.05, beta = 0.05;
};

struct SprtStatus {
    enum class Decision { Continue, AcceptH0, AcceptH1 };
    double llr = 0;
    double lower = 0, upper = 0;  // log(beta/(1-alpha)), log((1-beta)/alpha)
    Decision decision = Decision::Continue;
};
/// The GSPRT: LLR = N (s1 - s0)(2 s - s0 - s1) / (2 var), s0 and s1 the scores that elo0 and
/// elo1 imply, s the observed score and var its per-game variance.
SprtStatus sprt(const Score& s, const SprtParams& p);

/// Pair scores of the first engine over game pairs (one opening, each colour once): n[k] pairs
/// in which it scored k half points out of four, i.e. a pair score of k/4 (0 = two losses,
/// 2 = two draws or a win and a loss, 4 = two wins).
struct Pentanomial {
    int n[5] = {0, 0, 0, 0, 0};
    int pairs() const { return n[0] + n[1] + n[2] + n[3] + n[4]; }
    /// Mean score per game, 0..1 (0.5 with no pair).
    double ratio() const;
    /// "[n0, n1, n2, n3, n4]".
    std::string to_string() const;
};

/// Elo with a 95% interval from the variance of the pair scores (the standard error of the
/// mean is that of N pairs, not 2N independent games).
EloEstimate estimate_elo(const Pentanomial& p);

/// The pentanomial GSPRT: LLR = sum_k n_k log(q1_k / q0_k), where q0 and q1 are the
/// distributions over pair scores {0, 1/4, 1/2, 3/4, 1} closest (in likelihood) to the observed
/// one with means s0 and s1, the scores elo0 and elo1 imply. Empty cells count as 1e-3 pairs
/// so that an unseen outcome does not make a distribution degenerate.
SprtStatus sprt(const Pentanomial& p, const SprtParams& params);

/// The distribution over `values` with mean `mean` that maximises sum_i w_i log q_i (w the
/// observed frequencies, summing to 1): q_i = w_i / (1 + lambda (values_i - mean)), lambda the
/// root of sum_i w_i (values_i - mean) / (1 + lambda (values_i - mean)) = 0 (found by
/// bisection). Exposed for tests.
void mle_with_mean(const double* w, const double* values, int count, double mean, double* q);

/// "+34.9", "+inf", "-12.0".
std::string format_elo(double elo);

}  // namespace hisha::match
