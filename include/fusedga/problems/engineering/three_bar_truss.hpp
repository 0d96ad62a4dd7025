#pragma once
/// @file three_bar_truss.hpp
/// Engineering benchmark: volume of a symmetric three-bar plane truss.

#include <string>
#include <vector>

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>

namespace fusedga::problems {

/**
 * Three-bar truss design (Ray & Saini 2001, Eng. Optim. 33; Ray & Liew
 * 2003, IEEE Trans. Evol. Comput. 7(4)). Genes: 2 reals, layout (A1, A2) =
 * cross-sectional areas of the outer bars (= A3 by symmetry) and of the
 * middle bar, in cm².
 *
 * Minimize the volume f(x) = (2√2·A1 + A2)·l
 * subject to (g_j(x) <= 0 satisfied)
 *   g1 = (√2·A1 + A2) / (√2·A1² + 2·A1·A2)·P − σ
 *   g2 = A2 / (√2·A1² + 2·A1·A2)·P − σ
 *   g3 = 1 / (A1 + √2·A2)·P − σ
 * with l = 100 cm, P = 2 kN/cm², σ = 2 kN/cm² and the box 0 <= A1, A2 <= 1.
 *
 * Optimum (g1 active; closed form): A1 = 1/2 + √3/6 ≈ 0.7886751346,
 * A2 = 1/√6 ≈ 0.4082482905, f* = 100·(√2 + √6/2) ≈ 263.8958434, the
 * best-known value 263.8958434 of Ray & Liew. At A1 = 0 the stresses g1, g2
 * are +∞ (NaN when A1 = A2 = 0, where g3 = +∞ still makes the total
 * violation +∞), so no such point is ever ranked feasible.
 */
template <class Real = double>
struct ThreeBarTruss {
  using gene_type = Real;
  static constexpr Sense sense = Sense::minimize;

  int dimension() const { return 2; }
  int inequality_count() const { return 3; }
  Bounds<Real> bounds() const { return Bounds<Real>({0, 0}, {1, 1}); }
  std::vector<std::string> variable_names() const { return {"A1", "A2"}; }

  template <class X>
  FUSEDGA_HD double objective(const X& v) const {
    const Real a1 = v[0], a2 = v[1];
    return (Real(2) * Real(1.4142135623730951) * a1 + a2) * Real(100);
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& v, G& g) const {
    const Real a1 = v[0], a2 = v[1];
    constraints_from(a2, terms_at(a1, a2), g);
  }
  /// The problem concept's `jacobian` (core/problem_traits.hpp), for the gradient repair: at the 2 genes v, g[3]
  /// gets the inequalities' values (bit for bit those of inequalities()) and J[3 × 2] (row-major, J[k·2 + j] =
  /// ∂g_k/∂x_j, kN/cm² per cm²) their exact derivatives, by the quotient rule on the denominators above. At
  /// A1 = 0 (in the box) g1, g2 and their rows are not finite. Derived by hand; checked against
  /// differences and against the expression config's symbolic Jacobian (tests/problems/test_jacobians.cpp,
  /// tests/expr/test_builtin_parity.cpp). Pure: thread-safe, throws nothing.
  FUSEDGA_HD void jacobian(const Real* v, Real* g, Real* J) const {
    const Real a1 = v[0], a2 = v[1];
    const terms q = terms_at(a1, a2);
    constraints_from(a2, q, g);
    const Real sqrt2 = Real(1.4142135623730951);
    const Real p = Real(load);
    const Real den = q.den, num = q.num, e = q.e;
    const Real den1 = Real(2) * sqrt2 * a1 + Real(2) * a2, den2 = Real(2) * a1;  // ∂den/∂A1, ∂den/∂A2
    const Real den_sq = den * den;
    J[0] = p * (sqrt2 * den - num * den1) / den_sq;
    J[1] = p * (den - num * den2) / den_sq;
    J[2] = -p * a2 * den1 / den_sq;
    J[3] = p * (den - a2 * den2) / den_sq;
    J[4] = -p / (e * e);
    J[5] = -p * sqrt2 / (e * e);
  }

 private:
  static constexpr double load = 2, stress = 2;  // P, σ (kN/cm²)

  /// The stresses' parts at (A1, A2): den = √2·A1² + 2·A1·A2, num = √2·A1 + A2 (g1's numerator), e = A1 + √2·A2
  /// (g3's denominator), in cm² (den: cm⁴).
  struct terms {
    Real den, num, e;
  };
  FUSEDGA_HD static terms terms_at(Real a1, Real a2) {
    const Real sqrt2 = Real(1.4142135623730951);
    return {sqrt2 * a1 * a1 + Real(2) * a1 * a2, sqrt2 * a1 + a2, a1 + sqrt2 * a2};
  }
  /// The three inequalities from A2 and the terms.
  template <class G>
  FUSEDGA_HD static void constraints_from(Real a2, const terms& q, G& g) {
    const Real p = Real(load), sigma = Real(stress);
    g[0] = q.num / q.den * p - sigma;
    g[1] = a2 / q.den * p - sigma;
    g[2] = Real(1) / q.e * p - sigma;
  }
};

}  // namespace fusedga::problems
