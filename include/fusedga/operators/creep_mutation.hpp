#pragma once
/// @file creep_mutation.hpp
/// Creep mutation for integer genes (Davis 1991, Handbook of Genetic
/// Algorithms; Eiben & Smith 2015, §4.3).

#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"

namespace fusedga {

/**
 * Creep mutation of gene j of both children, in place: with probability
 * `rate` the gene moves by a uniform integer step in [−step, +step] \ {0}
 * and is clamped to [lo, hi]. Integer genes only. Pure; thread-safe.
 */
struct creep_mutation {
  double rate;  ///< per-gene probability in [0, 1]
  int step;     ///< maximal step, >= 1

  template <class Gene>
  FUSEDGA_HD FUSEDGA_INLINE Gene creep(Gene y, Gene lo, Gene hi, std::uint32_t u) const {
    const int k = static_cast<int>(below(u, 2u * static_cast<std::uint32_t>(step)));  // [0, 2s)
    const int delta = k < step ? k - step : k - step + 1;                             // [-s, -1] ∪ [1, s]
    const std::int64_t m = static_cast<std::int64_t>(y) + delta;
    return static_cast<Gene>(m < lo ? lo : (m > hi ? hi : m));
  }

  template <class Gene>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(Gene& c1, Gene& c2, Gene lo, Gene hi, const draws4& m) const {
    const Gene n1 = creep(c1, lo, hi, m.v[1]);
    const Gene n2 = creep(c2, lo, hi, m.v[3]);
    c1 = coin<double>(m.v[0], rate) ? n1 : c1;
    c2 = coin<double>(m.v[2], rate) ? n2 : c2;
  }
};

}  // namespace fusedga
