// Match statistics: Elo difference from a score with a 95% interval, the likelihood of
// superiority, and the sequential probability ratio test (GSPRT) that decides early whether
// a change gained elo0 or elo1. Formulas follow cutechess-cli and fishtest (logistic Elo,
// trinomial game outcomes, the normal approximation of the log-likelihood ratio).
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

/// "+34.9", "+inf", "-12.0".
std::string format_elo(double elo);

}  // namespace hisha::match
