// The dense solves behind the gradient repair's Newton step (small_linear_solve.hpp), on hand-computed cases.
#include <catch2/catch.hpp>

#include <vector>

#include <fusedga/core/small_linear_solve.hpp>

using fusedga::pseudo_inverse_step;
using fusedga::solve_linear_in_place;

TEST_CASE("small linear solve: partial pivoting solves a system with a zero leading entry", "[linear]") {
  // [0 2 1; 1 1 0; 2 0 3] y = [5, 3, 13] has y = (2, 1, 3)
  std::vector<double> A = {0, 2, 1, 1, 1, 0, 2, 0, 3};
  std::vector<double> b = {5, 3, 13};
  REQUIRE(solve_linear_in_place(A.data(), b.data(), 3));
  CHECK(b[0] == Approx(2));
  CHECK(b[1] == Approx(1));
  CHECK(b[2] == Approx(3));
  std::vector<double> S = {1, 2, 2, 4};  // singular
  std::vector<double> r = {1, 1};
  std::vector<double> s2 = {0, 0};
  // exactly singular without ridge: the elimination reports it
  REQUIRE_FALSE(solve_linear_in_place(S.data(), r.data(), 2));
  (void)s2;
}

TEST_CASE("small linear solve: one linear equality, the minimum-norm step lands on it", "[linear]") {
  // h(x) = x + 2y - 3 at (0, 0): h = -3, ∇h = (1, 2); step s = ∇hᵀ (∇h∇hᵀ)⁻¹ h = (1, 2)·(-3/5)
  const double A[2] = {1, 2};
  const double r[1] = {-3};
  double s[2], work[2];
  REQUIRE(pseudo_inverse_step(A, r, 1, 2, s, work));
  const double x = 0 - s[0], y = 0 - s[1];
  CHECK(x == Approx(0.6).epsilon(1e-12));
  CHECK(y == Approx(1.2).epsilon(1e-12));
  CHECK(x + 2 * y - 3 == Approx(0).margin(1e-12));
}

TEST_CASE("small linear solve: two constraints in three genes are both met by one step", "[linear]") {
  // c1 = x + y + z - 1, c2 = x - z at (1, 1, 1): c = (2, 0); the step solves A s = c with the least norm
  const double A[6] = {1, 1, 1, 1, 0, -1};
  const double c[2] = {2, 0};
  double s[3], work[6];
  REQUIRE(pseudo_inverse_step(A, c, 2, 3, s, work));
  const double x = 1 - s[0], y = 1 - s[1], z = 1 - s[2];
  CHECK(x + y + z - 1 == Approx(0).margin(1e-12));
  CHECK(x - z == Approx(0).margin(1e-12));
  // minimum norm: s lies in the row space of A, s = (2/3, 2/3, 2/3)
  CHECK(s[0] == Approx(2.0 / 3));
  CHECK(s[1] == Approx(2.0 / 3));
  CHECK(s[2] == Approx(2.0 / 3));
}

TEST_CASE("small linear solve: more constraints than genes give the least-squares step", "[linear]") {
  // rows x = 1, x = 3 (as c = x - 1, x - 3 at x = 0: c = (-1, -3)): least squares x = 2
  const double A[2] = {1, 1};
  const double c[2] = {-1, -3};
  double s[1] = {}, work[2] = {};  // initialized: GCC -O2 cannot see the solve write s (maybe-uninitialized)
  REQUIRE(pseudo_inverse_step(A, c, 2, 1, s, work));
  CHECK(0 - s[0] == Approx(2).epsilon(1e-12));
}

TEST_CASE("small linear solve: a zero gradient row gives a finite step", "[linear]") {
  // rows (0, 0) and (1, 0): rank 1; the ridge keeps the system solvable and the zero row contributes nothing
  const double A[4] = {0, 0, 1, 0};
  const double c[2] = {5, 2};
  double s[2], work[6];
  REQUIRE(pseudo_inverse_step(A, c, 2, 2, s, work));
  CHECK(s[0] == Approx(2).epsilon(1e-9));
  CHECK(s[1] == 0);
}
