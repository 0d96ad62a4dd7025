#pragma once
/// @file polynomial_mutation.hpp
/// Polynomial mutation with bounds (Deb & Goyal 1996, "A combined genetic
/// adaptive search (GeneAS) for engineering design", Computer Science and
/// Informatics 26; the bounded form of Deb's NSGA-II code, as in pymoo).

#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/core/simd_math.hpp"
#include "fusedga/operators/mutation.hpp"

namespace fusedga {

/**
 * Polynomial mutation (see mutation.hpp for the draw layout).
 *
 * The perturbation δ_q follows the polynomial distribution of index `eta`
 * scaled to [lo, hi], so the result stays in the bounds (clamped against
 * rounding); larger eta gives smaller steps. Branch-free: 2 exp + 2 log per
 * mutated gene. Real must be float or double. Pure; thread-safe.
 */
struct polynomial_mutation {
  double rate;  ///< per-gene probability in [0, 1]
  double eta;   ///< distribution index, >= 0

  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE Real perturb(Real y, Real lo, Real hi, const draws4& m, int child) const {
    const Real e = Real(eta);
    const Real range = hi - lo;
    const Real delta1 = (y - lo) / range;
    const Real delta2 = (hi - y) / range;
    const Real u = unit<Real>(child == 0 ? m.v[1] : m.v[3]);
    const bool low = u <= Real(0.5);
    const Real xy = low ? Real(1) - delta1 : Real(1) - delta2;
    const Real xy_pow = pow_nonneg(xy, e + Real(1));
    const Real val = low ? Real(2) * u + (Real(1) - Real(2) * u) * xy_pow
                         : Real(2) * (Real(1) - u) + Real(2) * (u - Real(0.5)) * xy_pow;
    const Real vp = pow_nonneg(val, Real(1) / (e + Real(1)));
    const Real deltaq = low ? vp - Real(1) : Real(1) - vp;
    const Real mutated = y + deltaq * range;
    const Real clamped = mutated < lo ? lo : (mutated > hi ? hi : mutated);
    return range > Real(0) ? clamped : y;
  }

  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(Real& c1, Real& c2, Real lo, Real hi, const draws4& m) const {
    mutate_pair(*this, c1, c2, lo, hi, m);
  }
};

}  // namespace fusedga
