#pragma once
/// @file tile_summary.hpp
/// Per-tile partial statistics, written by each tile (a CPU tile or a CUDA
/// block) and combined in tile order, so statistics and elite choice are
/// identical for every thread count. The same types serve every backend.

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rank_key.hpp"

namespace fusedga::detail {

/// A candidate for elitism / best: its rank key and slot in the population. Smaller key, then smaller slot, wins.
template <class Key>
struct candidate {
  Key key;
  std::uint32_t slot;
};

/// The ranking order of candidates (key, then slot).
template <class Key>
FUSEDGA_HD FUSEDGA_INLINE bool before(const candidate<Key>& a, const candidate<Key>& b) {
  return a.key < b.key || (a.key == b.key && a.slot < b.slot);
}
template <class Key>
FUSEDGA_HD FUSEDGA_INLINE bool operator<(const candidate<Key>& a, const candidate<Key>& b) {
  return before(a, b);
}
/// The placeholder of an absent candidate: ranks after every real one.
template <class Key>
FUSEDGA_HD FUSEDGA_INLINE candidate<Key> worst_candidate() {
  return {static_cast<Key>(~Key(0)), ~std::uint32_t(0)};
}

/// Sums of one tile; its best `capacity` candidates live in a separate array. Individuals with a NaN key
/// (is_nan_key) count only in `not_a_number`.
struct tile_totals {
  double objective_sum;         ///< sum of the objectives of the rankable individuals
  std::uint32_t feasible;       ///< rankable individuals with zero violation
  std::uint32_t not_a_number;   ///< individuals whose objective or violation is NaN
  std::uint32_t repair_evaluations = 0;  ///< evaluations spent by the gradient repair (gradient_repair.hpp)
};

/**
 * Summarizes `count` consecutive slots starting at `first_slot`, whose
 * objective, violation and rank key are `objective[i]`, `violation[i]`,
 * `key[i]` (i < count): writes totals (NaN individuals apart, tile_totals) and the best `capacity` candidates
 * (ascending by key, then slot) into `best` (capacity entries; unused ones are
 * worst_candidate()). O(count·capacity).
 */
template <class Fitness>
inline void summarize(const Fitness* objective, const Fitness* violation, const rank_key_t<Fitness>* key,
                      std::size_t count, std::size_t first_slot, tile_totals& totals,
                      candidate<rank_key_t<Fitness>>* best, std::size_t capacity) {
  using Key = rank_key_t<Fitness>;
  double sum = 0;
  std::uint32_t feasible = 0, nan = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (is_nan_key(key[i])) {
      ++nan;
      continue;
    }
    sum += static_cast<double>(objective[i]);
    feasible += violation[i] == Fitness(0) ? 1u : 0u;
  }
  totals = {sum, feasible, nan};
  std::size_t filled = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const candidate<Key> c{key[i], static_cast<std::uint32_t>(first_slot + i)};
    if (filled == capacity && !(c < best[capacity - 1])) continue;
    std::size_t pos = filled < capacity ? filled++ : capacity - 1;
    while (pos > 0 && c < best[pos - 1]) {
      best[pos] = best[pos - 1];
      --pos;
    }
    best[pos] = c;
  }
  for (std::size_t k = filled; k < capacity; ++k) best[k] = worst_candidate<Key>();
}

}  // namespace fusedga::detail
