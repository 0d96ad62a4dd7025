#pragma once
/// @file sbx.hpp
/// Simulated binary crossover with bounds (Deb & Agrawal 1995, "Simulated
/// binary crossover for continuous search space", Complex Systems 9; the
/// bounded form of Deb's NSGA-II code, as in pymoo).

#include <cmath>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/operators/gene_kinds.hpp"
#include "fusedga/core/float_math.hpp"

namespace fusedga {

/**
 * SBX on one gene of one pair, in place: (a, b) parents in, children out.
 *
 * With probability 1/2 (gene.v[0]) the gene is crossed: the spread factor
 * β_q is drawn from the polynomial distribution of index `eta` truncated to
 * [lo, hi], so children always lie in the bounds; with probability 1/2
 * (gene.v[2]) the two children are swapped. Genes whose parents differ by
 * less than 1e-14 are copied. Children are clamped to [lo, hi] against
 * rounding. Branch-free, so a tile loop of it vectorizes (4 exp + 4 log per
 * crossed gene, float_math.hpp's: the same bits on the CPU and the GPU). CPU
 * tiles call `crosses` and the stages of `cross` separately so that only
 * crossed genes pay for the math.
 * Larger `eta` (typ. 2..30) keeps children closer to their parents.
 * Real must be float or double. Pure; thread-safe.
 */
struct sbx {
  static constexpr gene_kinds genes = gene_kinds::real;  ///< the genes it can vary (its row in catalog.hpp)
  double eta;  ///< distribution index, >= 0

  /// Whether gene draws `gene` cross a gene whose parents differ by `spread` (= |a − b|).
  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE static bool crosses(const draws4& gene, Real spread) {
    return (gene.v[0] >> 31) != 0 && spread > Real(1e-14);
  }

  /// The crossing itself: children of (a, b) from u = unit(u_bits), swapped when `swap`.
  /// The spread factors are random variates and are computed in float (about
  /// 1e-7 relative, far below the sampling noise); the children are formed in
  /// Real. Three stages (ratios → powers → children), which CPU tiles run as
  /// separate loops so that the float stage runs at full SIMD width.
  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE void cross(Real& a, Real& b, Real lo, Real hi, std::uint32_t u_bits, bool swap) const {
    float beta1, beta2, p1, p2;
    ratios(a, b, lo, hi, beta1, beta2);
    powers(beta1, beta2, u_bits, p1, p2);
    children(a, b, lo, hi, p1, p2, swap);
  }

  /// Stage 1: how far the bounds allow each child to spread, β1 = 1 + 2(y1 − lo)/(y2 − y1) and
  /// β2 = 1 + 2(hi − y2)/(y2 − y1) with y1 = min(a, b), y2 = max(a, b); both >= 1.
  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE static void ratios(Real a, Real b, Real lo, Real hi, float& beta1, float& beta2) {
    const Real y1 = a < b ? a : b;
    const Real y2 = a < b ? b : a;
    const Real dy = y2 - y1;
    beta1 = float(Real(1) + Real(2) * (y1 - lo) / dy);
    beta2 = float(Real(1) + Real(2) * (hi - y2) / dy);
  }

  /// Stage 2 (float only): the spread factors β_q of both children, drawn from the polynomial distribution
  /// of index eta truncated by β1 and β2, for u = unit(u_bits).
  FUSEDGA_HD FUSEDGA_INLINE void powers(float beta1, float beta2, std::uint32_t u_bits, float& p1, float& p2) const {
    using M = float;
    const M e = M(eta);
    const M u = unit<M>(u_bits);
    const M inv = M(1) / (e + M(1));
    const M alpha1 = M(2) - fmath::pow_nonneg(beta1, -(e + M(1)));
    const M base1 = u <= M(1) / alpha1 ? u * alpha1 : M(1) / (M(2) - u * alpha1);
    p1 = fmath::pow_nonneg(base1, inv);
    const M alpha2 = M(2) - fmath::pow_nonneg(beta2, -(e + M(1)));
    const M base2 = u <= M(1) / alpha2 ? u * alpha2 : M(1) / (M(2) - u * alpha2);
    p2 = fmath::pow_nonneg(base2, inv);
  }

  /// Stage 3: the children (y1 + y2 ∓ β_q·(y2 − y1)) / 2, clamped to [lo, hi], swapped when `swap`.
  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE static void children(Real& a, Real& b, Real lo, Real hi, float p1, float p2, bool swap) {
    const Real y1 = a < b ? a : b;
    const Real y2 = a < b ? b : a;
    const Real dy = y2 - y1;
    Real c1 = Real(0.5) * ((y1 + y2) - Real(p1) * dy);
    Real c2 = Real(0.5) * ((y1 + y2) + Real(p2) * dy);
    c1 = c1 < lo ? lo : (c1 > hi ? hi : c1);
    c2 = c2 < lo ? lo : (c2 > hi ? hi : c2);
    a = swap ? c2 : c1;
    b = swap ? c1 : c2;
  }

  /// SBX of one gene: crossed with probability 1/2 (gene.v[0]), u from gene.v[1], swap from gene.v[2].
  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(Real& a, Real& b, Real lo, Real hi, const draws4& gene) const {
    Real na = a, nb = b;
    cross(na, nb, lo, hi, gene.v[1], (gene.v[2] >> 31) != 0);
    const bool go = crosses(gene, a < b ? b - a : a - b);
    a = go ? na : a;
    b = go ? nb : b;
  }
};

}  // namespace fusedga
