// Glicko-2 for a rating period of one game: steps 2-8 of Glickman's "Example of the Glicko-2
// system", with the Illinois variant of regula falsi for the new volatility (step 5).
#include "server/service/glicko.h"

#include <cmath>
#include <numbers>

namespace hisha::server::service {

Rating glicko2_update(const Rating& player, const Rating& opponent, double score, double tau) {
    constexpr double SCALE = 173.7178;
    const double mu = (player.rating - 1500.0) / SCALE, phi = player.deviation / SCALE;
    const double mu_j = (opponent.rating - 1500.0) / SCALE, phi_j = opponent.deviation / SCALE;
    const double sigma = player.volatility;

    // Steps 3-4: estimated variance and improvement.
    const double g = 1.0 / std::sqrt(1.0 + 3.0 * phi_j * phi_j / (std::numbers::pi * std::numbers::pi));
    const double e = 1.0 / (1.0 + std::exp(-g * (mu - mu_j)));
    const double v = 1.0 / (g * g * e * (1.0 - e));
    const double delta = v * g * (score - e);

    // Step 5: new volatility.
    const double a = std::log(sigma * sigma);
    auto f = [&](double x) {
        double ex = std::exp(x);
        double d = phi * phi + v + ex;
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
    };
    double A = a, B;
    if (delta * delta > phi * phi + v) {
        B = std::log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f(a - k * tau) < 0 && k < 100)
            ++k;
        B = a - k * tau;
    }
    double fA = f(A), fB = f(B);
    for (int i = 0; i < 100 && std::fabs(B - A) > 1e-6; ++i) {
        double C = A + (A - B) * fA / (fB - fA);
        double fC = f(C);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2;
        }
        B = C;
        fB = fC;
    }
    const double sigma_new = std::exp(A / 2);

    // Steps 6-8: new deviation and rating.
    const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
    const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double mu_new = mu + phi_new * phi_new * g * (score - e);
    return {mu_new * SCALE + 1500.0, std::fmax(30.0, phi_new * SCALE), sigma_new};
}

}  // namespace hisha::server::service
