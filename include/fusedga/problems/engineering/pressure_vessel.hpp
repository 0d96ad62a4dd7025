#pragma once
/// @file pressure_vessel.hpp
/// Engineering benchmark: cost of a cylindrical pressure vessel with
/// hemispherical heads (continuous formulation).

#include <string>
#include <vector>

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>

namespace fusedga::problems {

/**
 * Pressure-vessel design (Sandgren 1990, ASME J. Mech. Des. 112; Kannan &
 * Kramer 1994, ASME J. Mech. Des. 116; as surveyed by Coello Coello 2000,
 * Computers in Industry 41, and 2002, CMAME 191). Genes: 4 reals, layout
 * (Ts, Th, R, L) = shell thickness, head thickness, inner radius, length of
 * the cylindrical section, in inches.
 *
 * Minimize the material, forming and welding cost
 *   f(x) = 0.6224·Ts·R·L + 1.7781·Th·R² + 3.1661·Ts²·L + 19.84·Ts²·R
 * subject to (g_j(x) <= 0 satisfied)
 *   g1 = −Ts + 0.0193·R                         (shell thickness vs. ASME code)
 *   g2 = −Th + 0.00954·R                        (head thickness vs. ASME code)
 *   g3 = −π·R²·L − (4/3)·π·R³ + 1 296 000       (volume >= 1 296 000 in³)
 *   g4 = L − 240
 * with the box 0.0625 <= Ts, Th <= 6.1875 and 10 <= R, L <= 200.
 *
 * The original problem restricts Ts and Th to integer multiples 1..99 of
 * 0.0625 in; here **all four genes are continuous**, Ts and Th relaxed to
 * that range [1·0.0625, 99·0.0625] (other continuous variants use
 * 0 <= Ts, Th <= 99; the optimum is the same, the GA's search is harder). Its
 * optimum has g1, g2, g3 active and L at its upper bound 200:
 * f* ≈ 5885.332774 at (Ts, Th, R, L) ≈ (0.7781686414, 0.3846491626,
 * 40.3196187241, 200), the best-known value 5885.3328 of the continuous
 * formulation (checked by tests against this active set, which reduces the
 * problem to a one-dimensional root in R). The mixed-discrete optimum
 * (≈ 6059.71) is not comparable.
 */
template <class Real = double>
struct PressureVessel {
  using gene_type = Real;
  static constexpr Sense sense = Sense::minimize;

  int dimension() const { return 4; }
  int inequality_count() const { return 4; }
  Bounds<Real> bounds() const {
    return Bounds<Real>({Real(0.0625), Real(0.0625), 10, 10}, {Real(6.1875), Real(6.1875), 200, 200});
  }
  std::vector<std::string> variable_names() const { return {"Ts", "Th", "R", "L"}; }

  template <class X>
  FUSEDGA_HD double objective(const X& v) const {
    const Real ts = v[0], th = v[1], r = v[2], l = v[3];
    return Real(0.6224) * ts * r * l + Real(1.7781) * th * r * r + Real(3.1661) * ts * ts * l +
           Real(19.84) * ts * ts * r;
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& v, G& g) const {
    const Real ts = v[0], th = v[1], r = v[2], l = v[3];
    const Real pi = Real(3.141592653589793);
    g[0] = -ts + Real(0.0193) * r;
    g[1] = -th + Real(0.00954) * r;
    g[2] = -pi * r * r * l - Real(4) / Real(3) * pi * r * r * r + Real(1296000);
    g[3] = l - Real(240);
  }
  /// The problem concept's `jacobian` (core/problem_traits.hpp), for the gradient repair: at the 4 genes v, g[4]
  /// gets the inequalities' values (bit for bit those of inequalities()) and J[4 × 4] (row-major, J[k·4 + j] =
  /// ∂g_k/∂x_j, in g's unit per inch) their exact derivatives: g1, g2 and g4 are linear, g3's row is
  /// (0, 0, −2π·R·L − 4π·R², −π·R²). Derived by hand; checked against
  /// differences and against the expression config's symbolic Jacobian (tests/problems/test_jacobians.cpp,
  /// tests/expr/test_builtin_parity.cpp). Pure: thread-safe, throws nothing.
  FUSEDGA_HD void jacobian(const Real* v, Real* g, Real* J) const {
    inequalities(v, g);
    const Real r = v[2], l = v[3];
    const Real pi = Real(3.141592653589793);
    for (int k = 0; k < 16; ++k) J[k] = Real(0);
    J[0] = Real(-1);
    J[2] = Real(0.0193);
    J[5] = Real(-1);
    J[6] = Real(0.00954);
    J[10] = -Real(2) * pi * r * l - Real(4) * pi * r * r;
    J[11] = -pi * r * r;
    J[15] = Real(1);
  }
};

}  // namespace fusedga::problems
