#pragma once
/// @file restart.hpp
/// When a start ends and the options of the next (engine/options.hpp restart_options): shared by one
/// population's restarts (solve.hpp) and each island's (islands/solve_islands.hpp).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "fusedga/core/sense.hpp"
#include "fusedga/core/splitmix64.hpp"
#include "fusedga/engine/generation_stats.hpp"
#include "fusedga/engine/options.hpp"

namespace fusedga::detail {

/// `tolerance` relative to `x` and absolute near 0: tolerance · max(1, |x|), as the restarts' convergence
/// and progress tests read restarts.convergence_tolerance.
inline double tolerance_at(double tolerance, double x) { return tolerance * std::max(1.0, std::abs(x)); }

/// Whether the current start ends (restart_options): its best without progress for `stalled` generations
/// (engine::generations_without_progress), and
/// `now` (its latest generation's statistics) says its population has converged when the rule asks for it.
/// A NaN mean (every individual NaN) counts as not converged: such a start ends at max_stall_generations.
inline bool restart_due(const restart_options& r, int stalled, const generation_stats& now) {
  if (!r.stall_generations || stalled < *r.stall_generations) return false;
  if (!r.convergence_tolerance) return true;
  if (stalled >= r.max_stall()) return true;
  return std::abs(now.mean_objective - now.best_objective) <=
         tolerance_at(*r.convergence_tolerance, now.best_objective);
}

/**
 * Whether a new best-so-far (`now_*`, better under the run's ranking) is progress over the best at the last
 * progress (`then_*`) for the restarts' stall count (engine::generations_without_progress): either is
 * infeasible (violation > 0: any better one counts), the earlier objective is not finite, or the objective
 * gained more than `tolerance` · max(1, |then_objective|) in the direction of `sense`. `tolerance` >= 0
 * (restarts.convergence_tolerance; 0: every improvement counts).
 */
template <class Real>
bool made_progress(Sense sense, double tolerance, Real then_objective, Real then_violation, Real now_objective,
                   Real now_violation) {
  if (now_violation > Real(0) || then_violation > Real(0)) return true;
  const double then = static_cast<double>(then_objective), now = static_cast<double>(now_objective);
  if (!std::isfinite(then)) return true;
  const double gain = sense == Sense::minimize ? then - now : now - then;
  return gain > tolerance_at(tolerance, then);
}

/// Where start `k` >= 0 falls in BIPOP's fixed interlacing (restart_schedule::bipop): block j begins at
/// k = j + 2^j - 1 with the j-th large start, and its 2^j small starts follow (k = 0 large, 1 small, 2 large,
/// 3-4 small, 5 large, 6-9 small, 10 large, ...).
struct bipop_position {
  int block = 0;       ///< j
  bool small = false;  ///< one of the block's small starts, else its large start
};

inline bipop_position bipop_position_of(int k) {
  const auto begins = [](long long j) { return j + (1LL << j) - 1; };
  int j = 0;
  while (begins(j + 1) <= k) ++j;
  return {j, k != begins(j)};
}

/// The population of start `k` over the first start's, as a power of population_growth.
inline double restart_growth_exponent(const restart_options& r, int k, std::uint64_t start_seed) {
  if (r.schedule == restart_schedule::ipop) return k;
  const bipop_position p = bipop_position_of(k);
  if (!p.small) return p.block;
  const double u = static_cast<double>(splitmix64(start_seed) >> 11) * 0x1.0p-53;  // in [0, 1)
  return p.block * u * u;
}

/// The options of start `k` (0 = the run as configured): population grown by population_growth^k (or as
/// restarts.schedule says), elitism scaled alike, a seed derived from `o.seed` and k.
inline ga_options restart_options_for(const ga_options& o, int k) {
  ga_options r = o;
  if (r.de.crossover == de_crossover::alternate) {  // exp on the exploring starts: BIPOP's small ones, IPOP's odd ones
    const bool small = o.restarts.schedule == restart_schedule::bipop ? bipop_position_of(k).small : k % 2 == 1;
    r.de.crossover = small ? de_crossover::exp : de_crossover::bin;
  }
  if (k == 0) return r;
  // Restart seeds far apart from the run's and each other's.
  r.seed = splitmix64(o.seed + static_cast<std::uint64_t>(k) * splitmix64_gamma);
  const double n =
      std::min(static_cast<double>(o.population) *
                   std::pow(o.restarts.population_growth, restart_growth_exponent(o.restarts, k, r.seed)),
               static_cast<double>((std::size_t(1) << 31) - 1));
  r.population = static_cast<std::size_t>(n);
  r.elitism = std::min<std::size_t>(r.population - 1, static_cast<std::size_t>(std::llround(
                                                           static_cast<double>(o.elitism) * n / double(o.population))));
  return r;
}

}  // namespace fusedga::detail
