#pragma once
/// @file island_options.hpp
/// Island i's settings in an island-model run (engine/options.hpp island_options): its slice of the
/// population, its seed and — heterogeneous islands — its variant; and the checks of the island settings
/// that no single island's engine makes.

#include <cstddef>
#include <string>

#include "fusedga/core/error.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/islands/migration.hpp"

namespace fusedga::islands {

/**
 * Island i's options: the run's, with island i's population (island_population), seed (island_seed) and,
 * when `islands.variants` is non-empty, the search settings of variants[i mod size]. Its stopping rules,
 * restarts, callbacks and checkpoints are cleared: the island model applies the run's own (each island restarts
 * on its own, solve_islands.hpp).
 */
inline ga_options island_options_for(const ga_options& o, int i) {
  ga_options r = o;
  if (!o.islands.variants.empty()) {
    const ga_options& v = o.islands.variants[static_cast<std::size_t>(i) % o.islands.variants.size()];
    r.algorithm = v.algorithm;
    r.selection = v.selection;
    r.crossover = v.crossover;
    r.mutation = v.mutation;
    r.elitism = v.elitism;
    r.survival = v.survival;
    r.de = v.de;
    r.constraints = v.constraints;
  }
  r.population = island_population(o.population, o.islands.count, i);
  r.seed = island_seed(o.seed, i);
  r.islands = island_options{};
  r.restarts = restart_options{};
  r.stop = stop_options{};
  r.on_generation = nullptr;
  r.interrupt = nullptr;
  r.checkpoint = checkpoint_options{};
  return r;
}

/**
 * Checks the island settings that no single island's engine checks.
 * @throws config_error naming the `ga.islands` field: count outside [1, population / 2] (every island needs 2
 *         individuals), migration.every < 1, migration.size < 1 or not below the smallest island's population.
 */
inline void validate_islands(const ga_options& o) {
  const island_options& is = o.islands;
  if (is.count < 1 || static_cast<std::size_t>(is.count) > o.population / 2)
    throw config_error("ga.islands.count: expected an integer in [1, " + std::to_string(o.population / 2) +
                       "] (population / 2: every island needs 2 individuals), got " + std::to_string(is.count));
  if (is.count == 1) return;
  if (is.migration.every < 1)
    throw config_error("ga.islands.migration.every: expected an integer >= 1 (generations between migrations), got " +
                       std::to_string(is.migration.every));
  const std::size_t smallest = island_population(o.population, is.count, is.count - 1);
  if (is.migration.size < 1 || is.migration.size >= smallest)
    throw config_error("ga.islands.migration.size: expected an integer in [1, " + std::to_string(smallest - 1) +
                       "] (below the smallest island's population, " + std::to_string(smallest) + "), got " +
                       std::to_string(is.migration.size));
}

}  // namespace fusedga::islands
