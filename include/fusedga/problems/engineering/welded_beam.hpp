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
    const Real p = Real(6000), len = Real(14), e = Real(30e6), shear = Real(12e6);
    const Real sqrt2 = Real(1.4142135623730951);
    const Real ht = Real(0.5) * (h + t);
    const Real tau1 = p / (sqrt2 * h * l);
    const Real m = p * (len + Real(0.5) * l);
    const Real r = std::sqrt(Real(0.25) * l * l + ht * ht);
    const Real j = Real(2) * (sqrt2 * h * l * (l * l / Real(12) + ht * ht));
    const Real tau2 = m * r / j;
    const Real tau = std::sqrt(tau1 * tau1 + tau1 * tau2 * l / r + tau2 * tau2);
    const Real sigma = Real(6) * p * len / (b * t * t);
    const Real delta = Real(4) * p * len * len * len / (e * t * t * t * b);
    // √(t²·b⁶/36) = t·b³/6 for t, b > 0 (the box keeps them >= 0.1).
    const Real pc = Real(4.013) * e * (t * b * b * b / Real(6)) / (len * len) *
                    (Real(1) - t / (Real(2) * len) * std::sqrt(e / (Real(4) * shear)));
    g[0] = tau - Real(13600);
    g[1] = sigma - Real(30000);
    g[2] = h - b;
    g[3] = Real(0.10471) * h * h + Real(0.04811) * t * b * (Real(14) + l) - Real(5);
    g[4] = Real(0.125) - h;
    g[5] = delta - Real(0.25);
    g[6] = p - pc;
  }
};

}  // namespace fusedga::problems
