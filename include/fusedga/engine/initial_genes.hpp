#pragma once
/// @file initial_genes.hpp
/// The initial population's genes, one definition for every backend: the CPU's
/// init tiles (passes.hpp) and the CUDA init kernel (kernels.cuh) both call it.

#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/operators/uniform_reset_mutation.hpp"

namespace fusedga::detail {

/**
 * Genes [4·block, 4·block + 4) ∩ [0, d) of individual `i` into `row` (its d
 * genes): uniform in the bounds, from the one Philox block (i, 0, init, block).
 */
template <class Problem>
FUSEDGA_HD FUSEDGA_INLINE void initial_gene_block(const kernel_params<Problem>& kp, std::uint32_t i, int block,
                                                  gene_t<Problem>* row) {
  const draws4 r = kp.rng(i, 0, stream::init, static_cast<std::uint32_t>(block));
  const int first = 4 * block;
  for (int j = first; j < first + 4 && j < kp.dimension; ++j)
    row[j] = uniform_reset_mutation::draw(kp.bounds.lower[j], kp.bounds.upper[j], r.v[j - first]);
}

}  // namespace fusedga::detail
