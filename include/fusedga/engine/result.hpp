#pragma once
/// @file result.hpp
/// What `fusedga::solve` returns.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fusedga/engine/generation_stats.hpp"

namespace fusedga {

/// Why a run ended.
enum class stop_reason { generations, target, stall, time_limit, interrupted, evaluations };

/// "generations", "target", "stall", "time_limit", "interrupted" or "evaluations" (the result JSON's `stop_reason`).
inline const char* to_string(stop_reason r) {
  switch (r) {
    case stop_reason::generations: return "generations";
    case stop_reason::target: return "target";
    case stop_reason::stall: return "stall";
    case stop_reason::time_limit: return "time_limit";
    case stop_reason::interrupted: return "interrupted";
    case stop_reason::evaluations: return "evaluations";
  }
  return "unknown";
}

/// One island's outcome in an island-model run (engine/options.hpp island_options).
struct island_result {
  int island = 0;                         ///< index i in [0, I)
  int rank = 0;                           ///< the MPI rank that ran it (0 without MPI)
  std::size_t population = 0;             ///< its individuals (its last start's, with restarts)
  int restarts = 0;                       ///< times it started afresh (ga.restarts), 0 without
  double objective = 0;                   ///< its best-so-far under the run's ranking
  double violation = 0;                   ///< the best-so-far's total violation
  bool feasible = false;                  ///< violation == 0 and objective finite
  std::uint64_t evaluations = 0;          ///< objective evaluations it performed
  std::uint64_t immigrants = 0;           ///< immigrants that replaced a resident, over the run
  std::vector<generation_stats> history;  ///< its own rows, as Result::history of a one-population run
};

/**
 * Outcome of a run: the best individual ever seen under the run's ranking
 * (feasibility rules or penalty), counters and history.
 */
struct Result {
  std::vector<double> best_genes;          ///< d genes of the best individual (integers converted exactly)
  std::vector<std::string> variable_names; ///< d names, from the problem
  /// d marks, 1 where the gene takes integer values only (core/problem_traits.hpp integer_variables): the
  /// result JSON and ga-run write those genes as integers.
  std::vector<std::uint8_t> integer_variables;
  double objective = 0;                    ///< its objective, in the problem's sense
  double violation = 0;                    ///< its total violation, >= 0 (NaN when no individual's was a number)
  bool feasible = false;                   ///< violation == 0, and objective and every gene finite
  int generations = 0;                     ///< generations run (not counting initial populations), over all restarts
  std::uint64_t evaluations = 0;           ///< objective evaluations performed
  double wall_time_s = 0;                  ///< wall time of the whole run, seconds
  stop_reason reason = stop_reason::generations;
  int restarts = 0;                        ///< fresh populations started after the first (restart_options); islands: summed
  std::vector<generation_stats> history;   ///< one row per generation, generation 0 first; a restart adds a row for its initial population (same generation number as the row before it)
  /// NaN individuals summed over every generation's population (generation_stats::not_a_number); 0 in a
  /// healthy run.
  std::uint64_t not_a_number = 0;
  /// Island-model runs (island_options::count > 1): one entry per island, island order; `history` then holds
  /// the rows of the whole archipelago (best over islands, means and feasible fraction over all individuals,
  /// evaluations summed). Empty otherwise.
  std::vector<island_result> islands;

  /// Whether best gene j is an integer to write as one (integer_variables, and finite).
  bool integer_gene(std::size_t j) const {
    return j < integer_variables.size() && integer_variables[j] && std::isfinite(best_genes[j]);
  }

  /// Whether the best individual is usable: objective, violation and every gene finite. A run where no
  /// individual ever had a finite objective and violation ends with !finite() (ga-run: exit 1).
  bool finite() const {
    if (!std::isfinite(objective) || !std::isfinite(violation)) return false;
    for (double g : best_genes)
      if (!std::isfinite(g)) return false;
    return true;
  }
};

}  // namespace fusedga
