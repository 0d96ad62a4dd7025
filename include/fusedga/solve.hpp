#pragma once
/// @file solve.hpp
/// `fusedga::solve`: run a GA on a problem and return the best individual.
/// Above the backends (it names backend::tbb as the default), so the engine
/// below never includes a backend.

#include <cstddef>
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
}  // namespace detail

/**
 * Runs a generational GA with elitism on `problem` and returns the best
 * individual ever seen (by Deb's feasibility rules, or the penalty order).
 *
 * Each generation is one fused offspring pass (tournament → crossover →
 * mutation → repair → evaluation → write) over fixed tiles of 64 children,
 * run by `backend`. The run stops at `options.generations` or earlier by
 * `options.stop` or `options.interrupt`; `options.on_generation` sees every
 * generation's statistics on the calling thread.
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
  engine<Problem, Backend> e(problem, options, backend);
  const auto notify = [&] {
    if (options.on_generation) options.on_generation(e.stats());
  };
  e.initialize();
  notify();
  Result r;
  r.reason = stop_reason::generations;
  const auto stop_now = [&]() -> bool {
    if (options.interrupt && options.interrupt->load()) return r.reason = stop_reason::interrupted, true;
    if (options.stop.target &&
        detail::reached(sense_of<Problem>(), e.best_objective(), e.best_violation(), *options.stop.target))
      return r.reason = stop_reason::target, true;
    if (options.stop.stall_generations && e.stalled_generations() >= *options.stop.stall_generations)
      return r.reason = stop_reason::stall, true;
    if (options.stop.time_limit_s && e.elapsed_s() >= *options.stop.time_limit_s)
      return r.reason = stop_reason::time_limit, true;
    return false;
  };
  while (!stop_now() && e.generation() < options.generations) {
    e.step();
    notify();
  }
  r.best_genes.assign(e.best_genes().begin(), e.best_genes().end());
  r.variable_names = variable_names(problem);
  r.objective = static_cast<double>(e.best_objective());
  r.violation = static_cast<double>(e.best_violation());
  r.generations = e.generation();
  r.evaluations = e.evaluations();
  r.wall_time_s = e.elapsed_s();
  r.history = e.history();
  r.not_a_number = e.not_a_number();
  r.feasible = e.best_violation() == 0 && r.finite();  // an infinite or NaN objective or gene is never feasible
  return r;
}

}  // namespace fusedga
