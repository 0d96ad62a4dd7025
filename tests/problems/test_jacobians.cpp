// The built-in problems' exact constraint Jacobians (their `jacobian` members, read by the gradient repair):
// the values are the inequalities' bit for bit, and the derivatives match Richardson-extrapolated central
// differences at random points of the box.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fusedga/core/constraint_jacobian.hpp>
#include <fusedga/problems/engineering/pressure_vessel.hpp>
#include <fusedga/problems/engineering/speed_reducer.hpp>
#include <fusedga/problems/engineering/tension_compression_spring.hpp>
#include <fusedga/problems/engineering/three_bar_truss.hpp>
#include <fusedga/problems/engineering/welded_beam.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>
#include <random>
#include <vector>

namespace {

// ∂g/∂x_j at x by central differences with steps s and s/2, extrapolated (error O(s⁴)).
template <class P>
std::vector<double> differences(const P& p, const std::vector<double>& x, int j, double s) {
  const int m = p.inequality_count();
  const auto central = [&](double step) {
    std::vector<double> xp = x, xm = x, gp(m), gm(m), out(m);
    xp[j] += step;
    xm[j] -= step;
    fusedga::constraint_values(p, xp.data(), m, 0, gp.data());
    fusedga::constraint_values(p, xm.data(), m, 0, gm.data());
    for (int k = 0; k < m; ++k) out[k] = (gp[k] - gm[k]) / (2 * step);
    return out;
  };
  const auto a = central(s), b = central(s / 2);
  std::vector<double> out(m);
  for (int k = 0; k < m; ++k) out[k] = (4 * b[k] - a[k]) / 3;
  return out;
}

bool anywhere(const std::vector<double>&) { return true; }

// A uniform point of the box b for which keep(x) holds, each gene rounded through T (float: the float kernels' genes).
template <class T, class B, class Keep>
std::vector<double> point_in(const B& b, int d, std::mt19937& rng, Keep keep) {
  std::vector<double> x(d);
  do {
    for (int j = 0; j < d; ++j)
      x[j] = static_cast<T>(b.lower[j] + (b.upper[j] - b.lower[j]) * std::uniform_real_distribution<double>(0, 1)(rng));
  } while (!keep(x));
  return x;
}

// At 200 random points of the box for which keep(x) holds (away from where a constraint is singular).
template <class P, class Keep = bool (*)(const std::vector<double>&)>
void check_jacobian(const P& p, Keep keep = anywhere) {
  static_assert(fusedga::detail::has_jacobian<P>::value);
  const auto b = p.bounds();
  const int d = p.dimension(), m = p.inequality_count();
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const std::vector<double> x = point_in<double>(b, d, rng, keep);
    std::vector<double> c(m), J(m * d), g(m);
    std::fill(c.begin(), c.end(), std::nan(""));  // every entry written
    std::fill(J.begin(), J.end(), std::nan(""));
    p.jacobian(x.data(), c.data(), J.data());
    fusedga::constraint_values(p, x.data(), m, 0, g.data());
    for (int k = 0; k < m; ++k) REQUIRE(c[k] == g[k]);
    for (int j = 0; j < d; ++j) {
      const auto D = differences(p, x, j, 1e-4 * std::max(1.0, std::abs(x[j])));
      for (int k = 0; k < m; ++k) {
        INFO("point " << trial << ", constraint " << k << ", gene " << j);
        if (D[k] == 0)
          REQUIRE(J[k * d + j] == 0);  // g_k does not depend on x_j
        else
          REQUIRE(J[k * d + j] == Approx(D[k]).epsilon(1e-6).margin(1e-9 * (1 + std::abs(g[k]))));
      }
    }
  }
}

// The float instantiation (precision: float, the GPU's float kernels) against the double one at 200 points of the box
// (rounded to float) for which keep(x) holds: each entry within 1e-3 of its row's largest.
template <template <class> class P, class Keep = bool (*)(const std::vector<double>&)>
void check_float(Keep keep = anywhere) {
  const P<double> pd;
  const P<float> pf;
  const auto b = pd.bounds();
  const int d = pd.dimension(), m = pd.inequality_count();
  std::mt19937 rng(9);
  for (int trial = 0; trial < 200; ++trial) {
    const std::vector<double> x = point_in<float>(b, d, rng, keep);
    std::vector<double> c(m), J(m * d);
    std::vector<float> xf(x.begin(), x.end()), cf(m), Jf(m * d);
    pd.jacobian(x.data(), c.data(), J.data());
    pf.jacobian(xf.data(), cf.data(), Jf.data());
    for (int k = 0; k < m; ++k) {
      double row = 0;
      for (int j = 0; j < d; ++j) row = std::max(row, std::abs(J[k * d + j]));
      for (int j = 0; j < d; ++j) {
        INFO("point " << trial << ", constraint " << k << ", gene " << j);
        REQUIRE(std::abs(Jf[k * d + j] - J[k * d + j]) <= 1e-3 * row);
      }
    }
  }
}

bool spring_regular(const std::vector<double>& x) { return std::abs(x[1] - x[0]) > 0.1 * x[1]; }
bool truss_regular(const std::vector<double>& x) { return x[0] > 0.05; }

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

TEST_CASE("engineering problems: the exact constraint Jacobian matches the constraints and their differences",
          "[problems][engineering]") {
  check_jacobian(fusedga::problems::PressureVessel<double>{});
  check_jacobian(fusedga::problems::SpeedReducer<double>{});
  // g2 divides by D·d³ − d⁴, zero where D = d; g1 and g2 of the truss are infinite at A1 = 0
  check_jacobian(fusedga::problems::TensionCompressionSpring<double>{}, spring_regular);
  check_jacobian(fusedga::problems::ThreeBarTruss<double>{}, truss_regular);
  check_jacobian(fusedga::problems::WeldedBeam<double>{});
  // by hand, the pressure vessel at (1, 1, 10, 100): g3's row (0, 0, −2π·10·100 − 4π·100, −π·100)
  const double x[] = {1, 1, 10, 100};
  double c[4], J[16];
  fusedga::problems::PressureVessel<double>{}.jacobian(x, c, J);
  const double pi = 3.141592653589793;
  CHECK(std::vector<double>(J, J + 8) == std::vector<double>{-1, 0, 0.0193, 0, 0, -1, 0.00954, 0});
  CHECK(J[10] == Approx(-2400 * pi));
  CHECK(J[11] == Approx(-100 * pi));
  CHECK(std::vector<double>(J + 12, J + 16) == std::vector<double>{0, 0, 0, 1});
  CHECK(J[8] == 0.0);
  CHECK(J[9] == 0.0);
}

TEST_CASE("engineering problems: the float Jacobian agrees with the double one", "[problems][engineering]") {
  using namespace fusedga::problems;
  check_float<PressureVessel>();
  check_float<SpeedReducer>();
  check_float<TensionCompressionSpring>(spring_regular);
  check_float<ThreeBarTruss>(truss_regular);
  check_float<WeldedBeam>();
}
