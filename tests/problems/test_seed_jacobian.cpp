// The seed problems' exact constraint Jacobians (their `jacobian` members, read by the gradient repair):
// the values are the inequalities' bit for bit, and the derivatives match central differences.
#include <catch2/catch.hpp>
#include <fusedga/core/constraint_jacobian.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>
#include <random>
#include <vector>

namespace {

template <class P>
void check_jacobian(const P& p) {
  static_assert(fusedga::detail::has_jacobian<P>::value);
  const auto b = p.bounds();
  const int d = p.dimension(), m = p.inequality_count();
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> x(d), c(m), J(m * d), g(m), gp(m), gm(m);
    for (int j = 0; j < d; ++j)
      x[j] = b.lower[j] + (b.upper[j] - b.lower[j]) * std::uniform_real_distribution<double>(0, 1)(rng);
    p.jacobian(x.data(), c.data(), J.data());
    fusedga::constraint_values(p, x.data(), m, 0, g.data());
    for (int k = 0; k < m; ++k) REQUIRE(c[k] == g[k]);
    for (int j = 0; j < d; ++j) {
      const double h = 1e-6;
      std::vector<double> xp = x, xm = x;
      xp[j] += h;
      xm[j] -= h;
      fusedga::constraint_values(p, xp.data(), m, 0, gp.data());
      fusedga::constraint_values(p, xm.data(), m, 0, gm.data());
      for (int k = 0; k < m; ++k) REQUIRE(J[k * d + j] == Approx((gp[k] - gm[k]) / (2 * h)).margin(1e-6));
    }
  }
}

}  // namespace

TEST_CASE("seed problems: the exact constraint Jacobian matches the constraints and their differences", "[problems]") {
  check_jacobian(fusedga::problems::ConstrainedQuadratic<double>{});
  check_jacobian(fusedga::problems::TrigConstrained<double>{});
  // by hand at (2, 4, -1): g = (3 - 5, 4 + 1 - 10), J = [[-1, -1, -1], [4, 0, -2]]
  const double x[] = {2, 4, -1};
  double c[2], J[6];
  fusedga::problems::ConstrainedQuadratic<double>{}.jacobian(x, c, J);
  CHECK(c[0] == -2.0);
  CHECK(c[1] == -5.0);
  CHECK(std::vector<double>(J, J + 6) == std::vector<double>{-1, -1, -1, 4, 0, -2});
}
