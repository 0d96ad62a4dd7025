// Mutation operators: bounds, rates and step sizes.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include <fusedga/operators/creep_mutation.hpp>
#include <fusedga/operators/gaussian_mutation.hpp>
#include <fusedga/operators/polynomial_mutation.hpp>
#include <fusedga/operators/repair.hpp>
#include <fusedga/operators/uniform_reset_mutation.hpp>

using namespace fusedga;

namespace {
draws4 draws(std::uint32_t i) { return counter_rng::from_seed(9)(i, 2, stream::gene_b, 0); }
}  // namespace

TEST_CASE("polynomial mutation stays in bounds, mutates at its rate, and is centred", "[polynomial]") {
  const polynomial_mutation op{0.25, 20.0};
  int changed = 0;
  double drift = 0;
  const int n = 40000;
  for (int i = 0; i < n; ++i) {
    double a = 0.5, b = 0.999;
    op(a, b, 0.0, 1.0, draws(static_cast<std::uint32_t>(i)));
    REQUIRE(a >= 0.0);
    REQUIRE(a <= 1.0);
    REQUIRE(b >= 0.0);
    REQUIRE(b <= 1.0);
    changed += a != 0.5 ? 1 : 0;
    drift += a - 0.5;
  }
  CHECK(static_cast<double>(changed) / n == Approx(0.25).margin(0.01));
  CHECK(drift / changed == Approx(0.0).margin(0.002));  // symmetric away from the bounds
}

TEST_CASE("larger polynomial-mutation eta gives smaller steps", "[polynomial]") {
  const auto mean_step = [](double eta) {
    const polynomial_mutation op{1.0, eta};
    double sum = 0;
    for (std::uint32_t i = 0; i < 10000; ++i) sum += std::abs(op.perturb(0.5, 0.0, 1.0, draws(i), 0) - 0.5);
    return sum / 10000;
  };
  CHECK(mean_step(5) > mean_step(20));
  CHECK(mean_step(20) > mean_step(100));
  // E|delta| of the polynomial density 0.5 (eta+1) (1-|delta|)^eta is 1/(eta+2) of the range
  CHECK(mean_step(20) == Approx(1.0 / 22).margin(0.003));
}

TEST_CASE("Gaussian mutation has the requested standard deviation", "[gaussian]") {
  const gaussian_mutation op{1.0, 0.01};
  double s1 = 0, s2 = 0;
  const int n = 50000;
  for (int i = 0; i < n; ++i) {
    double a = 0.0, b = 0.0;
    op(a, b, -50.0, 50.0, draws(static_cast<std::uint32_t>(i)));  // sigma = 0.01 * 100 = 1
    s1 += a + b;
    s2 += a * a + b * b;
  }
  CHECK(s1 / (2 * n) == Approx(0.0).margin(0.02));
  CHECK(std::sqrt(s2 / (2 * n)) == Approx(1.0).epsilon(0.02));
}

TEST_CASE("integer mutations stay in bounds and hit every value", "[uniform-reset][creep]") {
  const uniform_reset_mutation reset{1.0};
  const creep_mutation creep{1.0, 2};
  int seen[25] = {};
  for (std::uint32_t i = 0; i < 20000; ++i) {
    std::int8_t a = 12, b = 24;
    reset(a, b, std::int8_t(1), std::int8_t(24), draws(i));
    REQUIRE(a >= 1);
    REQUIRE(a <= 24);
    ++seen[a];
    std::int8_t c = 1, e = 24;
    creep(c, e, std::int8_t(1), std::int8_t(24), draws(i));
    REQUIRE(c >= 1);
    REQUIRE(c <= 3);   // from 1 by at most +2 (steps below 1 are clamped)
    REQUIRE(e >= 22);  // from 24 by at most -2
    REQUIRE(e <= 24);
  }
  for (int v = 1; v <= 24; ++v) CHECK(seen[v] > 0);
}

TEST_CASE("repair clamps to the box", "[repair]") {
  CHECK(clamp_to_bounds(-1.0, 0.0, 1.0) == 0.0);
  CHECK(clamp_to_bounds(2.0, 0.0, 1.0) == 1.0);
  CHECK(clamp_to_bounds(0.25, 0.0, 1.0) == 0.25);
}
