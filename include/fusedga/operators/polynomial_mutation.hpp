#pragma once
/// @file polynomial_mutation.hpp
/// Polynomial mutation with bounds (Deb & Goyal 1996, "A combined genetic
/// adaptive search (GeneAS) for engineering design", Computer Science and
/// Informatics 26; the bounded form of Deb's NSGA-II code, as in pymoo).

#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/operators/gene_kinds.hpp"
#include "fusedga/core/float_math.hpp"
#include "fusedga/operators/mutation.hpp"

namespace fusedga {

/**
 * Polynomial mutation (see mutation.hpp for the draw layout).
 *
 * The perturbation δ_q follows the polynomial distribution of index `eta`
 * scaled to [lo, hi], so the result stays in the bounds (clamped against
 * rounding); larger eta gives smaller steps. Branch-free: 2 log1p + 2 expm1
 * (float, float_math.hpp's: the same bits on the CPU and the GPU) per mutated
 * gene. Real must be float or double. Pure; thread-safe.
 */
struct polynomial_mutation {
  static constexpr gene_kinds genes = gene_kinds::real;  ///< the genes it can vary (its row in catalog.hpp)
  double rate;  ///< per-gene probability in [0, 1]
  double eta;   ///< distribution index, >= 0

  /**
   * The bounded polynomial perturbation, rewritten without cancellation:
   * with s = 2u − 1 (u <= 1/2) or 1 − 2u (u > 1/2), δ the normalized distance
   * to the bound on that side and t = 1 − (1 − δ)^(η+1), Deb's
   * val^(1/(η+1)) − 1 equals q = expm1(log1p(s·t)/(η+1)) and δ_q = ±q. Each
   * factor is formed by log1p/expm1, so even tiny steps keep full relative
   * precision and the variate can be drawn in float (about 1e-7 relative,
   * 8 SIMD lanes) while the gene stays in Real.
   */
  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE Real perturb(Real y, Real lo, Real hi, const draws4& m, int child) const {
    using M = float;
    const Real range = hi - lo;
    const M e1 = M(eta) + M(1);
    const M u = unit<M>(child == 0 ? m.v[1] : m.v[3]);
    const bool low = u <= M(0.5);
    const Real inside = y < lo ? lo : (y > hi ? hi : y);  // the formula needs delta in [0, 1]
    const M delta = M(low ? (inside - lo) / range : (hi - inside) / range);
    const M s = low ? M(2) * u - M(1) : M(1) - M(2) * u;  // in [-1, 0]
    const M t = -fmath::expm1(e1 * fmath::log1p(-delta));  // 1 - (1 - delta)^(eta+1), in [0, 1]
    const M q = fmath::expm1(fmath::log1p(s * t) / e1);     // in [-1, 0]
    const Real mutated = inside + Real(low ? q : -q) * range;
    const Real clamped = mutated < lo ? lo : (mutated > hi ? hi : mutated);
    return range > Real(0) ? clamped : y;
  }

  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(Real& c1, Real& c2, Real lo, Real hi, const draws4& m) const {
    mutate_pair(*this, c1, c2, lo, hi, m);
  }
};

}  // namespace fusedga
