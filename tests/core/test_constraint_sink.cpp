// Violation sinks fold constraint values into the total violation.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <fusedga/core/constraint_sink.hpp>

using namespace fusedga;

TEST_CASE("inequalities add max(0, g), equalities max(0, |h| - eps)", "[constraints]") {
  double v = 0;
  auto g = inequality_sink(&v);
  g[0] = -3.0;  // satisfied
  g[1] = 0.5;
  g[2] = 0.25;
  CHECK(v == 0.75);
  double w = 0;
  auto h = equality_sink(&w, 0.1);
  h[0] = 0.05;   // within tolerance
  h[1] = -0.35;  // |h| - eps = 0.25
  h[2] = 1.1;    // 1.0
  CHECK(w == Approx(1.25));
}

TEST_CASE("a NaN constraint value makes the violation NaN, never feasible", "[constraints]") {
  double v = 0;
  auto g = inequality_sink(&v);
  g[0] = -1.0;
  g[1] = std::numeric_limits<double>::quiet_NaN();
  CHECK(std::isnan(v));
  double w = 0;
  auto h = equality_sink(&w, 1e-4);
  h[0] = std::sqrt(-1.0);
  CHECK(std::isnan(w));
}
