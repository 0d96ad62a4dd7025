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

/// Where a population lives: host memory (64-byte aligned, aligned_buffer.hpp). The device
/// counterpart, `detail::device_memory`, is in backends/cuda/buffer.hpp; a memory policy names its
/// owning, movable, uninitialized array type `buffer<T>` with `T* data()`.
struct host_memory {
  template <class T>
  using buffer = detail::aligned_buffer<T>;
};

/**
 * Owning storage for N individuals of d genes where `Memory` says (host by
 * default), allocated once; kernels and tile bodies get its trivially copyable
 * `view()` (the cuCollections owning-container + view pattern).
 *
 * Memory: (N+1)·d·sizeof(Gene) + (N+1)·(2·sizeof(Fitness) + sizeof(rank key)) bytes,
 * uninitialized (64-byte aligned on the host). Engines hold two and swap them each
 * generation (double buffering). Movable, not copyable; there is no resize.
 * @throws std::bad_alloc (host) or cuda_error (device) when memory is exhausted.
 */
template <class Gene, class Fitness, class Memory = host_memory>
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
  typename Memory::template buffer<Gene> genes_;
  typename Memory::template buffer<Fitness> objective_;
  typename Memory::template buffer<Fitness> violation_;
  typename Memory::template buffer<rank_key_t<Fitness>> rank_key_;
  std::size_t size_ = 0;
  int dimension_ = 0;
};

}  // namespace fusedga
