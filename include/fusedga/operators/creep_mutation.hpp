#pragma once
/// @file creep_mutation.hpp
/// Creep mutation for integer genes (Davis 1991, Handbook of Genetic
/// Algorithms; Eiben & Smith 2015, §4.3).

#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/operators/gene_kinds.hpp"
#include "fusedga/operators/mutation.hpp"

namespace fusedga {

/**
 * Creep mutation (see mutation.hpp for the draw layout): the gene moves by a
 * uniform integer step in [−step, +step] \ {0} and is clamped to [lo, hi].
 * Integer genes only. Pure; thread-safe.
 */
struct creep_mutation {
  static constexpr gene_kinds genes = gene_kinds::integer;  ///< the genes it can vary (its row in catalog.hpp)
  double rate;  ///< per-gene probability in [0, 1]
  int step;     ///< maximal step, >= 1

  template <class Gene>
  FUSEDGA_HD FUSEDGA_INLINE Gene perturb(Gene y, Gene lo, Gene hi, const draws4& m, int child) const {
    const std::uint32_t u = child == 0 ? m.v[1] : m.v[3];
    const int k = static_cast<int>(below(u, 2u * static_cast<std::uint32_t>(step)));  // [0, 2s)
    const int delta = k < step ? k - step : k - step + 1;                             // [-s, -1] ∪ [1, s]
    const std::int64_t moved = static_cast<std::int64_t>(y) + delta;
    return static_cast<Gene>(moved < lo ? lo : (moved > hi ? hi : moved));
  }

  template <class Gene>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(Gene& c1, Gene& c2, Gene lo, Gene hi, const draws4& m) const {
    mutate_pair(*this, c1, c2, lo, hi, m);
  }
};

}  // namespace fusedga
