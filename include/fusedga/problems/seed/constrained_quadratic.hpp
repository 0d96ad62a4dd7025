#pragma once
/// @file constrained_quadratic.hpp
/// Seed example 2: a constrained quadratic, the default problem of `ga-run`.

#include <string>
#include <vector>

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>

namespace fusedga::problems {

/**
 * Maximize f(x, y, z) = x² + 2y² + 3z² + 4xy − 5yz
 * subject to x + y + z >= 3 and x² + z² <= 10,
 * with the model's simple bounds x >= 1, 3 < y <= 7, z < 0 closed to the box
 * x ∈ [1, 25], y ∈ [3, 7], z ∈ [−25, 0].
 *
 * Optimum (y = 7 at its bound, (x, z) on the circle x² + z² = 10):
 * f* ≈ 263.1739 at (1.6497, 7, −2.6979) (DESIGN.md; checked by tests against
 * a 1-D search on the circle). Genes: 3 reals, layout (x, y, z).
 */
template <class Real = double>
struct ConstrainedQuadratic {
  using gene_type = Real;
  static constexpr Sense sense = Sense::maximize;

  int dimension() const { return 3; }
  int inequality_count() const { return 2; }
  Bounds<Real> bounds() const { return Bounds<Real>({1, 3, -25}, {25, 7, 0}); }
  std::vector<std::string> variable_names() const { return {"x", "y", "z"}; }

  template <class X>
  FUSEDGA_HD double objective(const X& v) const {
    const Real x = v[0], y = v[1], z = v[2];
    return x * x + Real(2) * y * y + Real(3) * z * z + Real(4) * x * y - Real(5) * y * z;
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& v, G& g) const {
    const Real x = v[0], y = v[1], z = v[2];
    g[0] = Real(3) - (x + y + z);
    g[1] = x * x + z * z - Real(10);
  }
  /// The constraints (as `inequalities`) and their exact Jacobian, for the gradient repair (problem_traits.hpp).
  FUSEDGA_HD void jacobian(const Real* v, Real* c, Real* J) const {
    inequalities(v, c);
    const Real x = v[0], z = v[2];
    J[0] = J[1] = J[2] = Real(-1);
    J[3] = Real(2) * x;
    J[4] = Real(0);
    J[5] = Real(2) * z;
  }
};

}  // namespace fusedga::problems
