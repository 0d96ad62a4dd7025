// SBX (Deb & Agrawal 1995): children stay in bounds and have the documented spread.
#include <catch2/catch.hpp>

#include <cmath>

#include <fusedga/operators/sbx.hpp>

using namespace fusedga;

namespace {
draws4 gene_draws(std::uint32_t i) { return counter_rng::from_seed(5)(i, 1, stream::gene_a, 0); }
}  // namespace

TEST_CASE("SBX children stay within the bounds", "[sbx]") {
  const sbx op{2.0};  // small eta: wide spread, often truncated by the bounds
  for (std::uint32_t i = 0; i < 20000; ++i) {
    double a = 0.1 + (i % 7) * 0.1, b = 0.95 - (i % 5) * 0.01;
    op(a, b, 0.0, 1.0, gene_draws(i));
    REQUIRE(a >= 0.0);
    REQUIRE(a <= 1.0);
    REQUIRE(b >= 0.0);
    REQUIRE(b <= 1.0);
  }
}

TEST_CASE("SBX without active bounds keeps the parents' mean and contracts half the time", "[sbx]") {
  const sbx op{15.0};
  int crossed = 0, contracting = 0;
  for (std::uint32_t i = 0; i < 20000; ++i) {
    double a = 1.0, b = 2.0;
    const draws4 g = gene_draws(i);
    op(a, b, -1e6, 1e6, g);
    if (a == 1.0 && b == 2.0) continue;  // this gene was not crossed (probability 1/2)
    ++crossed;
    REQUIRE(a + b == Approx(3.0).epsilon(1e-9));  // symmetric spread around the mean
    contracting += std::abs(a - b) < 1.0 ? 1 : 0;
  }
  CHECK(crossed == Approx(10000).margin(300));
  // the spread factor beta has P(beta < 1) = 1/2 (Deb & Agrawal 1995, eq. for the polynomial density)
  CHECK(static_cast<double>(contracting) / crossed == Approx(0.5).margin(0.02));
}

TEST_CASE("larger SBX eta keeps children closer to their parents", "[sbx]") {
  const auto mean_spread = [](double eta) {
    const sbx op{eta};
    double sum = 0;
    int n = 0;
    for (std::uint32_t i = 0; i < 20000; ++i) {
      double a = 1.0, b = 2.0;
      op(a, b, -1e6, 1e6, gene_draws(i));
      if (a == 1.0 && b == 2.0) continue;
      sum += std::abs(std::abs(a - b) - 1.0);
      ++n;
    }
    return sum / n;
  };
  const double s2 = mean_spread(2), s15 = mean_spread(15), s50 = mean_spread(50);
  CHECK(s2 > s15);
  CHECK(s15 > s50);
  // E|beta - 1| of the SBX spread-factor density is (1/(eta+2) + 1/eta) / 2
  CHECK(s15 == Approx(0.5 * (1.0 / 17 + 1.0 / 15)).margin(0.005));
}

TEST_CASE("SBX leaves identical parents unchanged", "[sbx]") {
  const sbx op{15.0};
  for (std::uint32_t i = 0; i < 100; ++i) {
    double a = 0.3, b = 0.3;
    op(a, b, 0.0, 1.0, gene_draws(i));
    CHECK(a == 0.3);
    CHECK(b == 0.3);
  }
}
