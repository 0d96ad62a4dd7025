#pragma once
/// @file blx_alpha.hpp
/// Blend crossover BLX-α (Eshelman & Schaffer 1993, "Real-coded genetic
/// algorithms and interval-schemata", FOGA 2).

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/operators/gene_kinds.hpp"
#include "fusedga/operators/repair.hpp"

namespace fusedga {

/**
 * BLX-α on one gene of one pair, in place. Each child is uniform on
 * [min − α·I, max + α·I], I = |a − b|, with independent draws (gene.v[1],
 * gene.v[2]), clamped to [lo, hi] (the interval reaches past the bounds).
 * α = 0.5 is the usual choice. Real must be float or double. Pure; thread-safe.
 */
struct blx_alpha {
  static constexpr gene_kinds genes = gene_kinds::real;  ///< the genes it can vary (its row in catalog.hpp)
  double alpha;  ///< >= 0

  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(Real& a, Real& b, Real lo_bound, Real hi_bound, const draws4& gene) const {
    const Real lo = a < b ? a : b;
    const Real interval = a < b ? b - a : a - b;
    const Real start = lo - Real(alpha) * interval;
    const Real width = interval * (Real(1) + Real(2) * Real(alpha));
    a = clamp_to_bounds(start + unit<Real>(gene.v[1]) * width, lo_bound, hi_bound);
    b = clamp_to_bounds(start + unit<Real>(gene.v[2]) * width, lo_bound, hi_bound);
  }
};

}  // namespace fusedga
