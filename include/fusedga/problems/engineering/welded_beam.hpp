#pragma once
/// @file welded_beam.hpp
/// Engineering benchmark: fabrication cost of a welded cantilever beam.

#include <cmath>
#include <string>
#include <vector>

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>

namespace fusedga::problems {

/**
 * Welded-beam design (Ragsdell & Phillips 1976, ASME J. Eng. Ind. 98), in the
 * seven-constraint form of Coello Coello 2000 (Computers in Industry 41) and
 * 2002 (CMAME 191), also used by Cagnina, Esquivel & Coello 2008 (Informatica
 * 32). Genes: 4 reals, layout (h, l, t, b) = weld thickness, weld length, bar
 * height, bar thickness, in inches.
 *
 * Minimize f(x) = 1.10471·h²·l + 0.04811·t·b·(14 + l)
 * subject to (g_j(x) <= 0 satisfied)
 *   g1 = τ(x) − 13 600         (weld shear stress, psi)
 *   g2 = σ(x) − 30 000         (bar bending stress, psi)
 *   g3 = h − b
 *   g4 = 0.10471·h² + 0.04811·t·b·(14 + l) − 5
 *   g5 = 0.125 − h
 *   g6 = δ(x) − 0.25           (end deflection, in)
 *   g7 = P − Pc(x)             (buckling load, lb)
 * with P = 6000 lb, L = 14 in, E = 30·10⁶ psi, G = 12·10⁶ psi and
 *   τ' = P / (√2·h·l),  M = P·(L + l/2),  R = √(l²/4 + ((h + t)/2)²),
 *   J = 2·(√2·h·l·(l²/12 + ((h + t)/2)²)),  τ'' = M·R / J,
 *   τ = √(τ'² + 2·τ'·τ''·l/(2R) + τ''²),  σ = 6·P·L / (b·t²),
 *   δ = 4·P·L³ / (E·t³·b),  Pc = 4.013·E·√(t²·b⁶/36) / L² · (1 − t/(2L)·√(E/(4G))),
 * and the box 0.1 <= h, b <= 2, 0.1 <= l, t <= 10.
 *
 * Best known: f* ≈ 1.724852 at (h, l, t, b) ≈ (0.2057296398, 3.4704886656,
 * 9.0366239104, 0.2057296398), with g1, g2, g3, g7 active (tests recover it
 * by solving that active set). Deb's variant with l²/4 in J has a different
 * optimum (≈ 2.38) and is not this problem.
 */
template <class Real = double>
struct WeldedBeam {
  using gene_type = Real;
  static constexpr Sense sense = Sense::minimize;

  int dimension() const { return 4; }
  int inequality_count() const { return 7; }
  Bounds<Real> bounds() const { return Bounds<Real>({Real(0.1), Real(0.1), Real(0.1), Real(0.1)}, {2, 10, 10, 2}); }
  std::vector<std::string> variable_names() const { return {"h", "l", "t", "b"}; }

  template <class X>
  FUSEDGA_HD double objective(const X& v) const {
    const Real h = v[0], l = v[1], t = v[2], b = v[3];
    return Real(1.10471) * h * h * l + Real(0.04811) * t * b * (Real(14) + l);
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& v, G& g) const {
    const Real h = v[0], l = v[1], t = v[2], b = v[3];
    constraints_from(h, l, t, b, response_at(h, l, t, b), g);
  }
  /// The problem concept's `jacobian` (core/problem_traits.hpp), for the gradient repair: at the 4 genes v, g[7]
  /// gets the inequalities' values (bit for bit those of inequalities()) and J[7 × 4] (row-major, J[k·4 + j] =
  /// ∂g_k/∂x_j; psi or lb or in per in) their exact derivatives: τ's by the chain rule through τ', M, R, J and τ''
  /// (∂τ = ∂(τ²)/(2τ)), σ and δ as monomials, Pc = c·t·b³·(1 − c'·t). Derived by hand; checked against
  /// differences and against the expression config's symbolic Jacobian (tests/problems/test_jacobians.cpp,
  /// tests/expr/test_builtin_parity.cpp). Pure: thread-safe, throws nothing.
  FUSEDGA_HD void jacobian(const Real* v, Real* g, Real* J) const {
    const Real h = v[0], l = v[1], t = v[2], b = v[3];
    const response q = response_at(h, l, t, b);
    constraints_from(h, l, t, b, q, g);
    const Real sqrt2 = Real(1.4142135623730951);
    const Real ht = q.ht, k = q.k;  // J = 2√2·h·l·k
    const Real rho = l / q.r;       // τ² = τ'² + τ'·τ''·ρ + τ''²
    for (int j = 0; j < 4; ++j) {
      const Real dh = j == 0, dl = j == 1, dt = j == 2;  // ∂x/∂x_j for h, l, t (b enters τ nowhere)
      const Real dtau1 = -q.tau1 * (dh / h + dl / l);
      const Real dm = Real(0.5) * Real(load) * dl;
      const Real dr = (Real(0.25) * l * dl + Real(0.5) * ht * (dh + dt)) / q.r;
      const Real dj = Real(2) * sqrt2 * (dh * l * (k + h * ht) + dl * h * (k + l * l / Real(6)) + dt * h * l * ht);
      const Real dtau2 = (dm * q.r + q.m * dr) / q.j - q.tau2 * dj / q.j;
      const Real drho = (dl * q.r - l * dr) / (q.r * q.r);
      const Real dsq = Real(2) * q.tau1 * dtau1 + rho * (dtau1 * q.tau2 + q.tau1 * dtau2) + q.tau1 * q.tau2 * drho +
                       Real(2) * q.tau2 * dtau2;
      J[j] = dsq / (Real(2) * q.tau);
    }
    const Real bend = Real(0.04811) * (Real(14) + l);
    const Real pc_t = q.pc / t - q.pc_no_reduction * q.reduction / t;  // ∂Pc/∂t: the reduction is linear in t
    const Real rows[6][4] = {{0, 0, Real(-2) * q.sigma / t, -q.sigma / b},
                             {1, 0, 0, -1},
                             {Real(0.20942) * h, Real(0.04811) * t * b, bend * b, bend * t},
                             {-1, 0, 0, 0},
                             {0, 0, Real(-3) * q.delta / t, -q.delta / b},
                             {0, 0, -pc_t, Real(-3) * q.pc / b}};
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 4; ++j) J[(i + 1) * 4 + j] = rows[i][j];
  }

 private:
  static constexpr double load = 6000, length = 14, young = 30e6, shear = 12e6;  // P (lb), L (in), E, G (psi)

  /// The weld's shear stress τ (psi; and its parts τ', M, R, J, τ'', with (h + t)/2 and J's factor
  /// k = l²/12 + ((h + t)/2)², J = 2√2·h·l·k), the bar's bending stress σ (psi), its end deflection δ (in) and its
  /// buckling load Pc (lb), at (h, l, t, b); Pc before the reduction t/(2L)·√(E/(4G)), and that reduction, too.
  struct response {
    Real ht, k, tau1, m, r, j, tau2, tau, sigma, delta, pc_no_reduction, reduction, pc;
  };
  /// The seven inequalities from the genes and their response.
  template <class G>
  FUSEDGA_HD static void constraints_from(Real h, Real l, Real t, Real b, const response& q, G& g) {
    g[0] = q.tau - Real(13600);
    g[1] = q.sigma - Real(30000);
    g[2] = h - b;
    g[3] = Real(0.10471) * h * h + Real(0.04811) * t * b * (Real(14) + l) - Real(5);
    g[4] = Real(0.125) - h;
    g[5] = q.delta - Real(0.25);
    g[6] = Real(load) - q.pc;
  }
  FUSEDGA_HD static response response_at(Real h, Real l, Real t, Real b) {
    const Real p = Real(load), len = Real(length), e = Real(young);
    const Real sqrt2 = Real(1.4142135623730951);
    response q;
    const Real ht = q.ht = Real(0.5) * (h + t);
    q.k = l * l / Real(12) + ht * ht;
    q.tau1 = p / (sqrt2 * h * l);
    q.m = p * (len + Real(0.5) * l);
    q.r = std::sqrt(Real(0.25) * l * l + ht * ht);
    q.j = Real(2) * (sqrt2 * h * l * q.k);
    q.tau2 = q.m * q.r / q.j;
    q.tau = std::sqrt(q.tau1 * q.tau1 + q.tau1 * q.tau2 * l / q.r + q.tau2 * q.tau2);
    q.sigma = Real(6) * p * len / (b * t * t);
    q.delta = Real(4) * p * len * len * len / (e * t * t * t * b);
    // √(t²·b⁶/36) = t·b³/6 for t, b > 0 (the box keeps them >= 0.1).
    q.pc_no_reduction = Real(4.013) * e * (t * b * b * b / Real(6)) / (len * len);
    q.reduction = t / (Real(2) * len) * std::sqrt(e / (Real(4) * Real(shear)));
    q.pc = q.pc_no_reduction * (Real(1) - q.reduction);
    return q;
  }
};

}  // namespace fusedga::problems
