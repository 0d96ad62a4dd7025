#pragma once
/// @file point_crossover.hpp
/// One-point (Holland 1975) and two-point (De Jong 1975) crossover.

#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/operators/gene_kinds.hpp"

namespace fusedga {

/**
 * k-point crossover for k = 1 or 2, in place.
 *
 * `cuts` draws the exchanged gene range [lo, hi) once per pair: cut points
 * uniform in [1, d−1] from pair.v[1] (and pair.v[2] for two points); one-point
 * exchanges genes j >= cut. With d = 1 nothing is exchanged. The element call
 * swaps gene j when lo <= j < hi. Any gene type. Pure; thread-safe.
 */
struct point_crossover {
  static constexpr gene_kinds genes = gene_kinds::any;  ///< the genes it can vary (its row in catalog.hpp)
  int points;  ///< 1 or 2

  FUSEDGA_HD FUSEDGA_INLINE void cuts(const draws4& pair, int d, int& lo, int& hi) const {
    const std::uint32_t span = d > 1 ? static_cast<std::uint32_t>(d - 1) : 1u;
    const int c1 = 1 + static_cast<int>(below(pair.v[1], span));
    const int c2 = points == 2 ? 1 + static_cast<int>(below(pair.v[2], span)) : d;
    lo = d > 1 ? (c1 < c2 ? c1 : c2) : d;
    hi = c1 < c2 ? c2 : c1;
  }

  template <class Gene>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(Gene& a, Gene& b, int j, int lo, int hi) const {
    const bool swap = j >= lo && j < hi;
    const Gene na = swap ? b : a;
    const Gene nb = swap ? a : b;
    a = na;
    b = nb;
  }
};

}  // namespace fusedga
