#pragma once
/// @file population.hpp
/// Flat, batched population storage (DESIGN.md, "Flat, batched storage").

#include <cstddef>

#include "fusedga/core/aligned_buffer.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/core/rank_key.hpp"

namespace fusedga {

/**
 * Trivially copyable view of a population that kernels capture by value.
 *
 * Layout: `genes` is N × d row-major (row i = individual i, gene j at
 * `genes[i*d + j]`), exactly NumPy's C-ordered (N, d) array; `objective`,
 * `violation` and `rank_key` hold N values each. One spare row/slot follows
 * the N individuals (scratch for the unpaired last child), so arrays have N+1
 * entries. Valid while the owning `population` lives.
 */
template <class Gene, class Fitness>
struct population_view {
  Gene* genes;
  Fitness* objective;
  Fitness* violation;
  rank_key_t<Fitness>* rank_key;
  std::size_t size;  ///< N
  int dimension;     ///< d

  FUSEDGA_HD Gene* row(std::size_t i) const { return genes + i * static_cast<std::size_t>(dimension); }
};

/**
 * Owning host storage for N individuals of d genes, allocated once.
 *
 * Memory: (N+1)·d·sizeof(Gene) + (N+1)·(2·sizeof(Fitness) + sizeof(rank key)) bytes,
 * 64-byte aligned, uninitialized. The engine holds two and swaps them each
 * generation (double buffering). Not thread-safe to resize; there is no resize.
 * @throws std::bad_alloc when memory is exhausted.
 */
template <class Gene, class Fitness>
class population {
 public:
  population() = default;
  population(std::size_t n, int d)
      : genes_((n + 1) * static_cast<std::size_t>(d)), objective_(n + 1), violation_(n + 1), rank_key_(n + 1),
        size_(n), dimension_(d) {}

  population_view<Gene, Fitness> view() {
    return {genes_.data(), objective_.data(), violation_.data(), rank_key_.data(), size_, dimension_};
  }
  std::size_t size() const { return size_; }
  int dimension() const { return dimension_; }

 private:
  detail::aligned_buffer<Gene> genes_;
  detail::aligned_buffer<Fitness> objective_;
  detail::aligned_buffer<Fitness> violation_;
  detail::aligned_buffer<rank_key_t<Fitness>> rank_key_;
  std::size_t size_ = 0;
  int dimension_ = 0;
};

}  // namespace fusedga
