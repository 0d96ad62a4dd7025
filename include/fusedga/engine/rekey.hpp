#pragma once
/// @file rekey.hpp
/// The re-key pass: rank keys recomputed from the stored objective and
/// violation after a dynamic constraint handler's parameters changed
/// (ε-constrained, self-adaptive penalty), so individuals kept across
/// generations compare under this generation's order. Per tile, like the
/// other passes; O(N) loads and stores, no evaluation. Never run for the static
/// rules, whose keys and throughput stay as they were.

#include <cstddef>

#include "fusedga/core/population.hpp"
#include "fusedga/engine/evaluate.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/passes.hpp"
#include "fusedga/engine/tile_summary.hpp"

namespace fusedga::detail {

/// Tile t (evaluation tiles of kTileSlots) of the re-key pass over `pop`, then its summary.
template <class Problem>
inline void rekey_tile(const kernel_params<Problem>& kp, const population_view<gene_t<Problem>, fitness_t<Problem>>& pop,
                       std::size_t t, const summary_sink<rank_key_t<fitness_t<Problem>>>& out) {
  std::size_t begin, end;
  tile_range(t, pop.size, begin, end);
  for (std::size_t i = begin; i < end; ++i) pop.rank_key[i] = rank_key_of(kp, pop.objective[i], pop.violation[i]);
  summarize(pop.objective + begin, pop.violation + begin, pop.rank_key + begin, end - begin, begin, out.totals[t],
            out.best + t * out.capacity, out.capacity);
}

}  // namespace fusedga::detail
