#pragma once
/// @file gene_sum.hpp
/// Seed example 1: the throughput workload — sum of small integer genes.

#include <cstdint>

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>

namespace fusedga::problems {

/**
 * Maximize the sum of d int8 genes, each in [1, 24]. Optimum 24·d. The
 * seeds run it with d = 1000 at 900,000 individuals (900 MB of genes): a
 * memory-bandwidth benchmark more than an optimization problem.
 * `Fitness` (float or double) is the objective's storage type; both are exact
 * up to d = 699,050.
 */
template <class Fitness = double>
struct GeneSum {
  using gene_type = std::int8_t;
  using fitness_type = Fitness;
  static constexpr Sense sense = Sense::maximize;

  int genes = 1000;  ///< d >= 1

  int dimension() const { return genes; }
  Bounds<std::int8_t> bounds() const { return Bounds<std::int8_t>::uniform(genes, 1, 24); }

  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    return objective_of(partial_objective(x, 0, genes));
  }

  // Separable (problem_traits.hpp): the CUDA backend sums a long row's slices on a warp's lanes.
  using partial_type = std::int32_t;

  /// The sum of genes x[begin, end); 0 <= begin <= end <= d.
  template <class X>
  FUSEDGA_HD partial_type partial_objective(const X& x, int begin, int end) const {
    // Blocks of 256 genes sum in int16 (|sum| <= 256·128 fits), which SIMD
    // adds twice as many of per instruction as int32 (measured +40% per core).
    std::int32_t s = 0;
    int j = begin;
    for (; j + 256 <= end; j += 256) {
      std::int16_t block = 0;
      for (int k = 0; k < 256; ++k) block = static_cast<std::int16_t>(block + x[j + k]);
      s += block;
    }
    for (; j < end; ++j) s += x[j];
    return s;
  }

  FUSEDGA_HD double objective_of(partial_type total) const { return total; }
};

}  // namespace fusedga::problems
