#pragma once
/// @file solve.hpp
/// `fusedga::solve`: run a GA on a problem and return the best individual.
/// Above the backends (it names backend::tbb as the default), so the engine
/// below never includes a backend.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "fusedga/backends/serial.hpp"
#include "fusedga/backends/tbb.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/engine/engine.hpp"
#include "fusedga/engine/generation_stats.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/engine/result.hpp"

namespace fusedga {

namespace detail {
template <class Fitness>
bool reached(Sense sense, Fitness objective, Fitness violation, double target) {
  if (violation != Fitness(0)) return false;
  return sense == Sense::minimize ? objective <= target : objective >= target;
}

/// The options of start `k` (0 = the run as configured): population grown by
/// population_growth^k, elitism scaled alike, a seed derived from the run's.
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
}  // namespace detail

/**
 * Runs a GA on `problem` and returns the best individual ever seen (by Deb's
 * feasibility rules, or the penalty order).
 *
 * Each generation is one fused offspring pass (tournament → crossover →
 * mutation → repair → evaluation → write) over fixed tiles of 64 children,
 * run by `backend`. The run stops at `options.generations` (counted over all
 * restarts), when `options.stop.evaluations` would be exceeded by the next
 * generation, or earlier by `options.stop` or `options.interrupt`. With
 * `options.restarts`, a stagnating population is replaced by a fresh, larger
 * one (restart_options); `options.on_generation` sees every generation's
 * statistics on the calling thread, with generation, evaluation and time
 * counted from the start of the run.
 *
 * Reproducible: the same problem, options and seed give bitwise identical
 * results on the serial backend and the TBB backend at any thread count.
 *
 * @throws config_error when options do not fit the problem (validate.hpp).
 * @throws config_error when the run does not fit in memory, checked before allocating (host memory:
 *         engine/memory_estimate.hpp; device memory on backend::cuda), naming what fits.
 * Exceptions thrown by `on_generation` propagate.
 *
 * **Example**
 * @code
 * fusedga::ga_options o;
 * o.population = 10000;
 * auto r = fusedga::solve(MyProblem{}, o, fusedga::backend::tbb{});
 * @endcode
 */
template <class Problem, class Backend = backend::tbb>
Result solve(const Problem& problem, const ga_options& options, const Backend& backend = Backend{}) {
  using fitness = fitness_t<Problem>;
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  // Across restarts the best is kept by the run's final order: the penalty's, else Deb's feasibility rules.
  const constraint_rule final_rule =
      options.constraints.rule == constraint_rule::penalty ? constraint_rule::penalty : constraint_rule::feasibility_rules;
  const auto rank = [&](fitness objective, fitness violation) {
    return make_rank_key(objective, violation, sense_of<Problem>(), final_rule,
                         static_cast<fitness>(options.constraints.penalty_weight));
  };
  Result r;
  r.reason = stop_reason::generations;
  r.variable_names = variable_names(problem);
  bool have_best = false;
  rank_key_t<fitness> best_key = 0;
  int generations = 0, improved_at = 0;  // over the whole run
  std::uint64_t evaluations = 0;
  for (int k = 0;; ++k) {
    ga_options o = detail::restart_options_for(options, k);
    const std::uint64_t children = o.population - detail::effective_elitism(o);  // per generation: N with plus and DE
    // This start's generation limit: what is left of the run's, cut to what the budget pays for.
    long long limit = options.generations - generations;
    bool budget_limited = false;
    if (options.stop.evaluations) {
      const std::uint64_t left = *options.stop.evaluations - evaluations;
      if (left < o.population) {  // not even the fresh population's evaluation fits
        if (k == 0) validate(o, problem.dimension(), std::is_floating_point_v<gene_t<Problem>>);  // throws: names it
        r.reason = stop_reason::evaluations;
        break;
      }
      const auto affordable = static_cast<long long>((left - o.population) / children);
      if (affordable < limit) limit = affordable, budget_limited = true;
    }
    if (k > 0 && limit <= 0) {  // no generation left for a fresh population
      r.reason = budget_limited ? stop_reason::evaluations : stop_reason::generations;
      break;
    }
    o.generations = static_cast<int>(limit);
    engine<Problem, Backend> e(problem, o, backend);
    r.restarts = k;
    bool best_here = false;
    const int generation0 = generations;
    const std::uint64_t evaluations0 = evaluations;
    const auto record = [&] {
      generation_stats g = e.stats();
      g.generation = generations = generation0 + e.generation();
      g.evaluations = evaluations = evaluations0 + e.evaluations();
      g.elapsed_s = elapsed();
      const auto key = rank(e.best_objective(), e.best_violation());
      if (!have_best || key < best_key) {
        have_best = true;
        best_key = key;
        r.objective = static_cast<double>(e.best_objective());
        r.violation = static_cast<double>(e.best_violation());
        best_here = true;  // its genes are copied once, when this start ends (a device copy per improvement would cost)
        improved_at = generations;
      }
      r.history.push_back(g);
      if (options.on_generation) options.on_generation(g);
    };
    const auto stop_now = [&]() -> bool {
      if (options.interrupt && options.interrupt->load()) return r.reason = stop_reason::interrupted, true;
      if (options.stop.target &&
          detail::reached(sense_of<Problem>(), static_cast<fitness>(r.objective), static_cast<fitness>(r.violation),
                          *options.stop.target))
        return r.reason = stop_reason::target, true;
      if (options.stop.stall_generations && generations - improved_at >= *options.stop.stall_generations)
        return r.reason = stop_reason::stall, true;
      if (options.stop.time_limit_s && elapsed() >= *options.stop.time_limit_s)
        return r.reason = stop_reason::time_limit, true;
      return false;
    };
    const auto restart_due = [&] {
      return options.restarts.stall_generations && e.stalled_generations() >= *options.restarts.stall_generations;
    };
    e.initialize();
    record();
    bool stopped = stop_now();
    // Gradient repair spends evaluations known only after its generation: stop before one the budget may not pay for.
    const auto budget_spent = [&] {
      return options.stop.evaluations && evaluations + children > *options.stop.evaluations;
    };
    while (!stopped && e.generation() < limit && !restart_due()) {
      if (budget_spent()) {
        r.reason = stop_reason::evaluations;
        stopped = true;
        break;
      }
      e.step();
      record();
      stopped = stop_now();
    }
    if (best_here) r.best_genes.assign(e.best_genes().begin(), e.best_genes().end());
    r.not_a_number += e.not_a_number();
    if (stopped) break;
    if (!restart_due() || e.generation() >= limit) {  // the start used its whole limit
      r.reason = budget_limited ? stop_reason::evaluations : stop_reason::generations;
      break;
    }
  }
  r.feasible = r.violation == 0 && r.finite();  // an infinite or NaN objective or gene is never feasible
  r.generations = generations;
  r.evaluations = evaluations;
  r.wall_time_s = elapsed();
  return r;
}

}  // namespace fusedga
