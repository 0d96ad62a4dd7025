#pragma once
/// @file gaussian_mutation.hpp
/// Gaussian mutation (Bäck & Schwefel 1993, "An overview of evolutionary
/// algorithms for parameter optimization", Evolutionary Computation 1(1)),
/// with a fixed step relative to each gene's range.

#include <cmath>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/operators/gene_kinds.hpp"
#include "fusedga/core/simd_math.hpp"
#include "fusedga/operators/mutation.hpp"

namespace fusedga {

/**
 * Gaussian mutation (see mutation.hpp for the draw layout): adds
 * N(0, (sigma·(hi − lo))²). The two children's normals are the cosine and
 * sine halves of one Box–Muller transform of (m.v[1], m.v[3]) (Box & Muller
 * 1958), hence independent. The repair step clamps to the bounds. Real must
 * be float or double. Pure; thread-safe.
 */
struct gaussian_mutation {
  static constexpr gene_kinds genes = gene_kinds::real;  ///< the genes it can vary (its row in catalog.hpp)
  double rate;   ///< per-gene probability in [0, 1]
  double sigma;  ///< standard deviation as a fraction of the gene's range, > 0

  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE Real perturb(Real y, Real lo, Real hi, const draws4& m, int child) const {
    const Real radius = std::sqrt(Real(-2) * std::log(unit<Real>(m.v[1])));
    const Real theta = Real(6.283185307179586) * unit<Real>(m.v[3]);
    const Real normal = radius * (child == 0 ? std::cos(theta) : std::sin(theta));
    return y + Real(sigma) * (hi - lo) * normal;
  }

  template <class Real>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(Real& c1, Real& c2, Real lo, Real hi, const draws4& m) const {
    mutate_pair(*this, c1, c2, lo, hi, m);
  }
};

}  // namespace fusedga
