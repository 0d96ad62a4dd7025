#pragma once
/// @file uniform_crossover.hpp
/// Uniform crossover (Syswerda 1989, "Uniform crossover in genetic algorithms", ICGA 3).

#include <utility>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/operators/gene_kinds.hpp"

namespace fusedga {

/**
 * Uniform crossover on one gene of one pair, in place: the parents' genes are
 * exchanged with probability 1/2 (gene.v[0]). Any gene type. Pure; thread-safe.
 */
struct uniform_crossover {
  static constexpr gene_kinds genes = gene_kinds::any;  ///< the genes it can vary (its row in catalog.hpp)
  template <class Gene>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(Gene& a, Gene& b, Gene, Gene, const draws4& gene) const {
    const bool swap = (gene.v[0] >> 31) != 0;
    const Gene na = swap ? b : a;
    const Gene nb = swap ? a : b;
    a = na;
    b = nb;
  }
};

}  // namespace fusedga
