#pragma once
/// @file survival.hpp
/// (μ+λ) survivor selection with μ = λ = N (Schwefel 1981, "Numerical
/// Optimization of Computer Models"; Bäck 1996, "Evolutionary Algorithms in
/// Theory and Practice", §2.1.6): the N parents and the N children of the
/// fused offspring pass compete, and the best N by rank key survive; on equal
/// keys a parent ranks before a child, then the smaller slot first.
///
/// Done in place, so only the rows that change move: with the parents and the
/// children each ordered by (key, slot), child k (k-th best) survives iff fewer
/// than N individuals rank before it, i.e. k + #(parents with key <= its key) < N;
/// the r surviving children replace the r worst parents, child k taking the
/// place of the parent ranked N − 1 − k. O(N log N) for the orders, O(r·d) moves.
/// The CPU executor and the CUDA executor (and its emulator) make the same
/// choice, so their runs agree wherever the arithmetic does.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/population.hpp"
#include "fusedga/engine/tile_summary.hpp"

namespace fusedga::detail {

/// Individuals of the sorted `keys[0, n)` with key <= `k` (the parents that rank before a child of key k).
template <class Key>
FUSEDGA_HD inline std::uint32_t count_not_after(const Key* keys, std::uint32_t n, Key k) {
  std::uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (keys[mid] <= k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/// Whether the k-th best child (key `child_key`) survives among N parents whose keys are sorted in `parent_keys`.
template <class Key>
FUSEDGA_HD inline bool plus_child_survives(std::uint32_t k, Key child_key, const Key* parent_keys, std::uint32_t n) {
  return k < n && k + count_not_after(parent_keys, n, child_key) < n;
}

/**
 * (μ+λ) survival on the host: `parents` (N individuals) keeps the best N of
 * parents ∪ `children` (N individuals), in place (see the file comment).
 * `parent_order`, `child_order` (N entries) and `parent_keys` (N) are scratch. Returns the number of
 * children that entered. Deterministic: (key, slot) is a total order.
 */
template <class Gene, class Fitness>
std::size_t plus_survival(const population_view<Gene, Fitness>& parents, const population_view<Gene, Fitness>& children,
                          candidate<rank_key_t<Fitness>>* parent_order, candidate<rank_key_t<Fitness>>* child_order,
                          rank_key_t<Fitness>* parent_keys) {
  const std::size_t n = parents.size;
  for (std::size_t i = 0; i < n; ++i) {
    parent_order[i] = {parents.rank_key[i], static_cast<std::uint32_t>(i)};
    child_order[i] = {children.rank_key[i], static_cast<std::uint32_t>(i)};
  }
  std::sort(parent_order, parent_order + n);
  std::sort(child_order, child_order + n);
  for (std::size_t i = 0; i < n; ++i) parent_keys[i] = parent_order[i].key;
  const std::size_t d = static_cast<std::size_t>(parents.dimension);
  std::size_t r = 0;
  while (r < n && plus_child_survives(static_cast<std::uint32_t>(r), child_order[r].key, parent_keys,
                                      static_cast<std::uint32_t>(n))) {
    const std::size_t c = child_order[r].slot;
    const std::size_t p = parent_order[n - 1 - r].slot;
    std::memcpy(parents.row(p), children.row(c), d * sizeof(Gene));
    parents.objective[p] = children.objective[c];
    parents.violation[p] = children.violation[c];
    parents.rank_key[p] = children.rank_key[c];
    ++r;
  }
  return r;
}

}  // namespace fusedga::detail
