#pragma once
/// @file generation_stats.hpp
/// Per-generation statistics: the history row and the progress callback's argument.

#include <cstdint>

namespace fusedga {

/// Statistics of one generation's population (after elitism).
struct generation_stats {
  int generation = 0;              ///< 0 = initial population
  double best_objective = 0;       ///< objective of the best individual by the run's ranking
  double best_violation = 0;       ///< its total violation (0 = feasible)
  double mean_objective = 0;       ///< mean objective over the population's rankable (non-NaN) individuals; NaN if none
  double feasible_fraction = 0;    ///< share of individuals with zero violation and no NaN, [0, 1]
  std::uint64_t evaluations = 0;   ///< cumulative objective evaluations so far
  double elapsed_s = 0;            ///< wall time since the run started
  /// Individuals of this population whose objective or violation (or penalized score) is NaN. They rank
  /// worst (make_rank_key), so they are never chosen while a rankable individual competes.
  std::uint64_t not_a_number = 0;
};

}  // namespace fusedga
