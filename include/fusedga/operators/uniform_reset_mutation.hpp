#pragma once
/// @file uniform_reset_mutation.hpp
/// Uniform-reset ("random resetting") mutation (Eiben & Smith, Introduction
/// to Evolutionary Computing, 2015, §4.3).

#include <cstdint>
#include <type_traits>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/operators/gene_kinds.hpp"
#include "fusedga/operators/mutation.hpp"

namespace fusedga {

/**
 * Uniform reset (see mutation.hpp for the draw layout): the gene is replaced
 * by a uniform value in [lo, hi] (integers: each value equally likely, up to
 * 2^-32 bias). Any gene type. Pure; thread-safe.
 */
struct uniform_reset_mutation {
  static constexpr gene_kinds genes = gene_kinds::any;  ///< the genes it can vary (its row in catalog.hpp)
  double rate;  ///< per-gene probability in [0, 1]

  /// A uniform gene in [lo, hi] from 32 random bits (also used to create the initial population).
  template <class Gene>
  FUSEDGA_HD FUSEDGA_INLINE static Gene draw(Gene lo, Gene hi, std::uint32_t u) {
    if constexpr (std::is_floating_point_v<Gene>) {
      return lo + unit<Gene>(u) * (hi - lo);
    } else {
      const auto span = static_cast<std::uint32_t>(static_cast<std::int64_t>(hi) - lo + 1);
      return static_cast<Gene>(lo + static_cast<std::int64_t>(below(u, span)));
    }
  }

  template <class Gene>
  FUSEDGA_HD FUSEDGA_INLINE Gene perturb(Gene, Gene lo, Gene hi, const draws4& m, int child) const {
    return draw(lo, hi, child == 0 ? m.v[1] : m.v[3]);
  }

  template <class Gene>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(Gene& c1, Gene& c2, Gene lo, Gene hi, const draws4& m) const {
    mutate_pair(*this, c1, c2, lo, hi, m);
  }
};

}  // namespace fusedga
