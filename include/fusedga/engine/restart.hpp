#pragma once
/// @file restart.hpp
/// When a start ends and the options of the next (engine/options.hpp restart_options): shared by one
/// population's restarts (solve.hpp) and each island's (islands/solve_islands.hpp).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "fusedga/engine/generation_stats.hpp"
#include "fusedga/engine/options.hpp"

namespace fusedga::detail {

/// Whether the current start ends (restart_options): its best unimproved for `stalled` generations, and
/// `now` (its latest generation's statistics) says its population has converged when the rule asks for it.
/// A NaN mean (every individual NaN) counts as not converged: such a start ends at max_stall_generations.
inline bool restart_due(const restart_options& r, int stalled, const generation_stats& now) {
  if (!r.stall_generations || stalled < *r.stall_generations) return false;
  if (!r.convergence_tolerance) return true;
  if (stalled >= r.max_stall()) return true;
  return std::abs(now.mean_objective - now.best_objective) <=
         *r.convergence_tolerance * std::max(1.0, std::abs(now.best_objective));
}

/// The options of start `k` (0 = the run as configured): population grown by
/// population_growth^k, elitism scaled alike, a seed derived from `o.seed` and k.
inline ga_options restart_options_for(const ga_options& o, int k) {
  ga_options r = o;
  if (k == 0) return r;
  const double n = std::min(static_cast<double>(o.population) * std::pow(o.restarts.population_growth, k),
                            static_cast<double>((std::size_t(1) << 31) - 1));
  r.population = static_cast<std::size_t>(n);
  r.elitism = std::min<std::size_t>(r.population - 1, static_cast<std::size_t>(std::llround(
                                                           static_cast<double>(o.elitism) * n / double(o.population))));
  // SplitMix64 (Steele, Lea & Flood 2014) of seed + k·γ: restart seeds far apart from the run's and each other's.
  std::uint64_t z = o.seed + static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  r.seed = z ^ (z >> 31);
  return r;
}

}  // namespace fusedga::detail
