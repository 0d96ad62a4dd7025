#pragma once
// seed/gene-sum without its separable declaration (core/problem_traits.hpp), so that the CUDA parity tests also
// take the kernels' general paths for long integer rows: thread-per-row evaluation (rows staged in shared memory,
// or read from global memory) and the long offspring kernel evaluating children from its tile.

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>

namespace cuda_test {

struct plain_gene_sum {
  using gene_type = std::int8_t;
  using fitness_type = double;
  static constexpr fusedga::Sense sense = fusedga::Sense::maximize;

  int genes = 1000;

  int dimension() const { return genes; }
  fusedga::Bounds<std::int8_t> bounds() const { return fusedga::Bounds<std::int8_t>::uniform(genes, 1, 24); }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    fusedga::problems::GeneSum<double> p;
    p.genes = genes;
    return p.objective(x);
  }
};

}  // namespace cuda_test
