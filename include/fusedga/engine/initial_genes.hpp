#pragma once
/// @file initial_genes.hpp
/// The initial population's genes, one definition for every backend: the CPU's
/// init tiles (passes.hpp) and the CUDA init kernel (kernels.cuh) both call it.

#include <cstdint>
#include <type_traits>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/operators/uniform_reset_mutation.hpp"

namespace fusedga::detail {

/// An integer variable's initial gene (Bounds::integer): each integer of [lo, hi] (integer bounds) equally
/// likely, up to 2^-32 bias, as uniform_reset_mutation draws a gene of an integer type.
template <class Gene>
FUSEDGA_HD FUSEDGA_INLINE Gene integer_variable_draw(Gene lo, Gene hi, std::uint32_t u) {
  if constexpr (std::is_floating_point_v<Gene>) {
    const auto span = static_cast<std::uint32_t>(static_cast<std::int64_t>(hi - lo) + 1);
    return lo + static_cast<Gene>(below(u, span));
  } else {
    return uniform_reset_mutation::draw(lo, hi, u);
  }
}

/**
 * Genes [4·block, 4·block + 4) ∩ [0, d) of a row (its d genes) from that block's Philox draws `r`
 * (rng(i, 0, init, block) for individual i): uniform in the bounds.
 */
template <class Problem>
FUSEDGA_HD FUSEDGA_INLINE void initial_genes_from(const kernel_params<Problem>& kp, int block, const draws4& r,
                                                  gene_t<Problem>* row) {
  const int first = 4 * block;
  for (int j = first; j < first + 4 && j < kp.dimension; ++j)
    row[j] = kp.bounds.is_integer(j)
                 ? integer_variable_draw(kp.bounds.lower[j], kp.bounds.upper[j], r.v[j - first])
                 : uniform_reset_mutation::draw(kp.bounds.lower[j], kp.bounds.upper[j], r.v[j - first]);
}

/// The same for individual `i`, drawing its block (the CUDA init kernel; the CPU tiles draw across individuals).
template <class Problem>
FUSEDGA_HD FUSEDGA_INLINE void initial_gene_block(const kernel_params<Problem>& kp, std::uint32_t i, int block,
                                                  gene_t<Problem>* row) {
  initial_genes_from(kp, block, kp.rng(i, 0, stream::init, static_cast<std::uint32_t>(block)), row);
}

}  // namespace fusedga::detail
