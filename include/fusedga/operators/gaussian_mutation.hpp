#pragma once
/// @file gaussian_mutation.hpp
/// Gaussian mutation (Bäck & Schwefel 1993, "An overview of evolutionary
/// algorithms for parameter optimization", Evolutionary Computation 1(1)),
/// with a fixed step relative to each gene's range.

#include <cmath>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/core/simd_math.hpp"

namespace fusedga {

/**
 * Gaussian mutation of gene j of both children, in place: with probability
 * `rate` each adds N(0, (sigma·(hi − lo))²). The two normals come from one
 * Box–Muller transform of (m.v[1], m.v[3]) (Box & Muller 1958), coins from
 * m.v[0], m.v[2]. The repair step clamps to the bounds. Real must be float or
 * double. Pure; thread-safe.
 */
struct gaussian_mutation {
  double rate;   ///< per-gene probability in [0, 1]
  double sigma;  ///< standard deviation as a fraction of the gene's range, > 0

  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(Real& c1, Real& c2, Real lo, Real hi, const draws4& m) const {
    const Real radius = std::sqrt(Real(-2) * std::log(unit<Real>(m.v[1])));
    const Real theta = Real(6.283185307179586) * unit<Real>(m.v[3]);
    const Real step = Real(sigma) * (hi - lo);
    const Real n1 = c1 + step * radius * std::cos(theta);
    const Real n2 = c2 + step * radius * std::sin(theta);
    c1 = coin<Real>(m.v[0], Real(rate)) ? n1 : c1;
    c2 = coin<Real>(m.v[2], Real(rate)) ? n2 : c2;
  }
};

}  // namespace fusedga
