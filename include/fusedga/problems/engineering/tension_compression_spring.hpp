#pragma once
/// @file tension_compression_spring.hpp
/// Engineering benchmark: weight of a tension/compression coil spring.

#include <string>
#include <vector>

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>

namespace fusedga::problems {

/**
 * Tension/compression spring design (Belegundu 1982, PhD thesis, U. Iowa;
 * Arora 1989, "Introduction to Optimum Design"; as surveyed by Coello Coello
 * 2000, Computers in Industry 41, and Cagnina, Esquivel & Coello 2008,
 * Informatica 32). Genes: 3 reals, layout (d, D, N) = wire diameter, mean
 * coil diameter (in), number of active coils (continuous here).
 *
 * Minimize f(x) = (N + 2)·D·d²
 * subject to (g_j(x) <= 0 satisfied)
 *   g1 = 1 − D³·N / (71 785·d⁴)                                 (deflection)
 *   g2 = (4D² − d·D) / (12 566·(D·d³ − d⁴)) + 1 / (5108·d²) − 1  (shear stress)
 *   g3 = 1 − 140.45·d / (D²·N)                                   (surge frequency)
 *   g4 = (D + d) / 1.5 − 1                                       (outside diameter)
 * with the box 0.05 <= d <= 2, 0.25 <= D <= 1.3, 2 <= N <= 15.
 *
 * Best known: f* ≈ 0.012665233 at (d, D, N) ≈ (0.0516890615, 0.3567177495,
 * 11.2889651856), with g1 and g2 active (tests recover it by a search along
 * that active set). Where D = d, g2 divides by zero and is +∞ (infeasible).
 */
template <class Real = double>
struct TensionCompressionSpring {
  using gene_type = Real;
  static constexpr Sense sense = Sense::minimize;

  int dimension() const { return 3; }
  int inequality_count() const { return 4; }
  Bounds<Real> bounds() const { return Bounds<Real>({Real(0.05), Real(0.25), 2}, {2, Real(1.3), 15}); }
  std::vector<std::string> variable_names() const { return {"d", "D", "N"}; }

  template <class X>
  FUSEDGA_HD double objective(const X& v) const {
    const Real d = v[0], dm = v[1], n = v[2];
    return (n + Real(2)) * dm * d * d;
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& v, G& g) const {
    const Real d = v[0], dm = v[1], n = v[2];
    const Real d2 = d * d;
    const Real d3 = d2 * d;
    const Real d4 = d2 * d2;
    g[0] = Real(1) - dm * dm * dm * n / (Real(71785) * d4);
    g[1] = (Real(4) * dm * dm - d * dm) / (Real(12566) * (dm * d3 - d4)) + Real(1) / (Real(5108) * d2) - Real(1);
    g[2] = Real(1) - Real(140.45) * d / (dm * dm * n);
    g[3] = (dm + d) / Real(1.5) - Real(1);
  }
  /// The problem concept's `jacobian` (core/problem_traits.hpp), for the gradient repair: at the 3 genes v, g[4]
  /// gets the inequalities' values (bit for bit those of inequalities()) and J[4 × 3] (row-major, J[k·3 + j] =
  /// ∂g_k/∂x_j, per inch or per coil) their exact derivatives; g2's first term A/B, A = 4D² − d·D,
  /// B = 12 566·(D·d³ − d⁴), by the quotient rule. Where D = d, g2 and its row are not finite (B = 0).
  /// Derived by hand; checked against
  /// differences and against the expression config's symbolic Jacobian (tests/problems/test_jacobians.cpp,
  /// tests/expr/test_builtin_parity.cpp). Pure: thread-safe, throws nothing.
  FUSEDGA_HD void jacobian(const Real* v, Real* g, Real* J) const {
    inequalities(v, g);
    const Real d = v[0], dm = v[1], n = v[2];
    const Real d2 = d * d;
    const Real d3 = d2 * d;
    const Real d4 = d2 * d2;
    const Real q = dm * dm * dm * n / (Real(71785) * d4);  // g1 = 1 − q
    J[0] = Real(4) * q / d;
    J[1] = Real(-3) * q / dm;
    J[2] = -q / n;
    const Real a = Real(4) * dm * dm - d * dm, b = Real(12566) * (dm * d3 - d4);
    const Real b2 = b * b;
    J[3] = (-dm * b - a * Real(12566) * (Real(3) * dm * d2 - Real(4) * d3)) / b2 - Real(2) / (Real(5108) * d3);
    J[4] = ((Real(8) * dm - d) * b - a * Real(12566) * d3) / b2;
    J[5] = Real(0);
    const Real s = Real(140.45) * d / (dm * dm * n);  // g3 = 1 − s
    J[6] = -s / d;
    J[7] = Real(2) * s / dm;
    J[8] = s / n;
    J[9] = Real(1) / Real(1.5);
    J[10] = Real(1) / Real(1.5);
    J[11] = Real(0);
  }
};

}  // namespace fusedga::problems
