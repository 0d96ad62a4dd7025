#pragma once
/// @file trig_constrained.hpp
/// Seed example 3: a small trigonometric problem with two constraints.

#include <cmath>
#include <string>
#include <vector>

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>
#include <fusedga/core/simd_math.hpp>

namespace fusedga::problems {

/**
 * Minimize f(x, y, z) = sin x + x² − 2 cos y + y² + z²
 * subject to x + z >= 1 and cos y + z >= 0.5,
 * with the model's bounds x >= 0, 0 <= y <= π, z <= 5 closed to the box
 * x ∈ [0, 10], y ∈ [0, π], z ∈ [−10, 5].
 *
 * The optimum has both constraints active; tests check the GA against a
 * direct search of that one-dimensional family. Genes: 3 reals (x, y, z).
 */
template <class Real = double>
struct TrigConstrained {
  using gene_type = Real;
  static constexpr Sense sense = Sense::minimize;

  int dimension() const { return 3; }
  int inequality_count() const { return 2; }
  Bounds<Real> bounds() const { return Bounds<Real>({0, 0, -10}, {10, Real(3.141592653589793), 5}); }
  std::vector<std::string> variable_names() const { return {"x", "y", "z"}; }

  template <class X>
  FUSEDGA_HD double objective(const X& v) const {
    const Real x = v[0], y = v[1], z = v[2];
    return std::sin(x) + x * x - Real(2) * std::cos(y) + y * y + z * z;
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& v, G& g) const {
    const Real x = v[0], y = v[1], z = v[2];
    g[0] = Real(1) - (x + z);
    g[1] = Real(0.5) - (std::cos(y) + z);
  }
  /// The constraints (as `inequalities`) and their exact Jacobian, for the gradient repair (problem_traits.hpp).
  FUSEDGA_HD void jacobian(const Real* v, Real* c, Real* J) const {
    inequalities(v, c);
    J[0] = Real(-1);
    J[1] = Real(0);
    J[2] = Real(-1);
    J[3] = Real(0);
    J[4] = std::sin(v[1]);
    J[5] = Real(-1);
  }
};

}  // namespace fusedga::problems
