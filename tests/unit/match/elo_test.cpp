// Elo, interval, LOS and SPRT against values worked out by hand.
#include "match/elo.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace hisha::match;

TEST(Elo, FromRatio) {
    EXPECT_DOUBLE_EQ(elo_from_ratio(0.5), 0.0);
    // 0.75 = 1 / (1 + 10^(-d/400))  =>  d = 400 log10(3) = 190.8485
    EXPECT_NEAR(elo_from_ratio(0.75), 400 * std::log10(3.0), 1e-9);
    EXPECT_NEAR(elo_from_ratio(0.75), 190.8485, 1e-4);
    EXPECT_NEAR(elo_from_ratio(0.25), -190.8485, 1e-4);
    EXPECT_TRUE(std::isinf(elo_from_ratio(1.0)) && elo_from_ratio(1.0) > 0);
    EXPECT_TRUE(std::isinf(elo_from_ratio(0.0)) && elo_from_ratio(0.0) < 0);
}

TEST(Elo, IntervalFromTrinomialVariance) {
    // W 60, L 40, D 100: s = (60 + 50) / 200 = 0.55.
    // var = (60 * 0.45^2 + 100 * 0.05^2 + 40 * 0.55^2) / 200 = (12.15 + 0.25 + 12.1) / 200 = 0.1225
    // se = sqrt(0.1225 / 200) = 0.0247487; 1.96 se = 0.0485066
    // Elo(0.55) = -400 log10(0.45 / 0.55) = 34.860; Elo(0.5014934) = 1.0377; Elo(0.5985066) = 69.356
    Score s{60, 40, 100};
    EXPECT_EQ(s.games(), 200);
    EXPECT_DOUBLE_EQ(s.ratio(), 0.55);
    EloEstimate e = estimate_elo(s);
    EXPECT_NEAR(e.elo, 34.860, 1e-3);
    EXPECT_NEAR(e.lower, 1.0377, 1e-3);
    EXPECT_NEAR(e.upper, 69.356, 1e-3);
}

TEST(Elo, AllWinsHasAnInfiniteEstimate) {
    EloEstimate e = estimate_elo(Score{4, 0, 0});
    EXPECT_TRUE(std::isinf(e.elo));
    EXPECT_TRUE(std::isinf(e.lower));  // no variance: the interval collapses onto the estimate
    EXPECT_EQ(format_elo(e.elo), "+inf");
    EloEstimate none = estimate_elo(Score{});
    EXPECT_EQ(none.elo, 0);
}

TEST(Elo, LikelihoodOfSuperiority) {
    // W 60, L 40: 0.5 (1 + erf(20 / sqrt(200))) = 0.5 (1 + erf(sqrt 2)) = Phi(2) = 0.97725
    EXPECT_NEAR(likelihood_of_superiority(Score{60, 40, 100}), 0.97725, 1e-5);
    // W 10, L 5: 0.5 (1 + erf(5 / sqrt(30))) = 0.90165
    EXPECT_NEAR(likelihood_of_superiority(Score{10, 5, 7}), 0.90165, 1e-5);
    EXPECT_DOUBLE_EQ(likelihood_of_superiority(Score{3, 3, 4}), 0.5);
    EXPECT_DOUBLE_EQ(likelihood_of_superiority(Score{0, 0, 9}), 0.5);
}

TEST(Sprt, BoundsAndLogLikelihoodRatio) {
    SprtParams p{0, 5, 0.05, 0.05};
    // Bounds: log(0.05 / 0.95) = -2.944439, log(0.95 / 0.05) = +2.944439.
    // s0 = 0.5, s1 = 1 / (1 + 10^(-5/400)) = 0.5071953
    // W 60, L 40, D 100: LLR = 200 (s1 - s0)(2 * 0.55 - s0 - s1) / (2 * 0.1225) = 0.545093
    SprtStatus st = sprt(Score{60, 40, 100}, p);
    EXPECT_NEAR(st.lower, -2.944439, 1e-6);
    EXPECT_NEAR(st.upper, 2.944439, 1e-6);
    EXPECT_NEAR(st.llr, 0.545093, 1e-5);
    EXPECT_EQ(st.decision, SprtStatus::Decision::Continue);
}

TEST(Sprt, Decisions) {
    SprtParams p{0, 5, 0.05, 0.05};
    // W 400, L 300, D 300: s = 0.55, var = 0.1725, LLR = 1000 * 0.0071953 * 0.0928047 / 0.345 = 1.935475
    SprtStatus h1 = sprt(Score{400, 300, 300}, p);
    EXPECT_NEAR(h1.llr, 1.935475, 1e-5);
    EXPECT_EQ(h1.decision, SprtStatus::Decision::Continue);
    EXPECT_EQ(sprt(Score{800, 600, 600}, p).decision, SprtStatus::Decision::AcceptH1);
    // W 300, L 400, D 300: s = 0.45, LLR = -2.235587
    SprtStatus h0 = sprt(Score{300, 400, 300}, p);
    EXPECT_NEAR(h0.llr, -2.235587, 1e-5);
    EXPECT_EQ(sprt(Score{600, 800, 600}, p).decision, SprtStatus::Decision::AcceptH0);
    // No variation yet (every game a draw): no information, no decision.
    EXPECT_EQ(sprt(Score{0, 0, 10}, p).llr, 0);
}

// The pentanomial figures below were computed independently (in Python): the
// constrained maximum-likelihood distributions by golden-section minimisation of the convex
// dual -sum w_i log(1 + l d_i), not by the bisection on its derivative that elo.cpp uses.
TEST(Pentanomial, RatioAndInterval) {
    Pentanomial p{{10, 40, 100, 60, 20}};
    EXPECT_EQ(p.pairs(), 230);
    // (40 * 1 + 100 * 2 + 60 * 3 + 20 * 4) / 4 / 230 = 500 / 920
    EXPECT_NEAR(p.ratio(), 500.0 / 920, 1e-12);
    EloEstimate e = estimate_elo(p);
    EXPECT_NEAR(e.elo, 30.288286, 1e-5);
    EXPECT_NEAR(e.lower, 8.606341, 1e-5);
    EXPECT_NEAR(e.upper, 52.208446, 1e-5);
    EloEstimate bad = estimate_elo(Pentanomial{{30, 20, 10, 5, 1}});
    EXPECT_NEAR(bad.elo, -216.360740, 1e-5);
    EXPECT_NEAR(bad.lower, -285.301949, 1e-5);
    EXPECT_NEAR(bad.upper, -159.936729, 1e-5);
    EXPECT_EQ(p.to_string(), "[10, 40, 100, 60, 20]");
    EXPECT_EQ(Pentanomial{}.ratio(), 0.5);
}

TEST(Pentanomial, MaximumLikelihoodWithAGivenMean) {
    const double w[5] = {0.1, 0.2, 0.3, 0.25, 0.15}, values[5] = {0, 0.25, 0.5, 0.75, 1};
    double q[5];
    mle_with_mean(w, values, 5, 0.6, q);
    const double expected[5] = {0.07, 0.16, 0.28, 0.28, 0.21};
    double sum = 0, mean = 0;
    for (int i = 0; i < 5; ++i) {
        EXPECT_NEAR(q[i], expected[i], 1e-7) << i;
        sum += q[i];
        mean += q[i] * values[i];
    }
    EXPECT_NEAR(sum, 1, 1e-12);
    EXPECT_NEAR(mean, 0.6, 1e-9);
}

TEST(Pentanomial, Sprt) {
    SprtParams p{0, 5, 0.05, 0.05};
    SprtStatus st = sprt(Pentanomial{{10, 40, 100, 60, 20}}, p);
    EXPECT_NEAR(st.llr, 1.103915, 1e-5);
    EXPECT_NEAR(st.lower, -2.944439, 1e-6);
    EXPECT_EQ(st.decision, SprtStatus::Decision::Continue);
    EXPECT_NEAR(sprt(Pentanomial{{10, 40, 100, 60, 20}}, SprtParams{0, 10, 0.05, 0.05}).llr, 2.016505, 1e-5);
    EXPECT_NEAR(sprt(Pentanomial{{0, 3, 10, 5, 0}}, p).llr, 0.113086, 1e-5);  // empty cells count 1e-3
    EXPECT_NEAR(sprt(Pentanomial{{5, 80, 190, 95, 10}}, SprtParams{-5, 5, 0.05, 0.05}).llr, 2.336808, 1e-5);
    // Far from both hypotheses the exact ratio and the normal approximation part (-4.17).
    EXPECT_NEAR(sprt(Pentanomial{{30, 20, 10, 5, 1}}, SprtParams{0, 10, 0.05, 0.05}).llr, -1.820930, 1e-5);
    // Many pairs a little below elo0: H0. Near the hypotheses the exact ratio is close to the
    // normal approximation N (s1 - s0)(2 s - s0 - s1) / (2 var) over pairs (-6.402125).
    SprtStatus h0 = sprt(Pentanomial{{2000, 8000, 20000, 8200, 2100}}, p);
    EXPECT_NEAR(h0.llr, -6.400008, 1e-5);
    EXPECT_EQ(h0.decision, SprtStatus::Decision::AcceptH0);
    EXPECT_EQ(sprt(Pentanomial{{100, 400, 1000, 600, 200}}, p).decision, SprtStatus::Decision::AcceptH1);
    EXPECT_EQ(sprt(Pentanomial{}, p).llr, 0);
}

TEST(Elo, Format) {
    EXPECT_EQ(format_elo(34.86), "+34.9");
    EXPECT_EQ(format_elo(-12.04), "-12.0");
    EXPECT_EQ(format_elo(-0.0), "+0.0");
}
