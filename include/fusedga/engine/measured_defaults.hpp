#pragma once
/// @file measured_defaults.hpp
/// The settings `ga-run` runs when a config sets nothing (`ga.algorithm: auto`), for C++ callers: each value
/// is the one that did best on the quality suite (docs/quality.md, "Defaults"). parse_config reads the same
/// constants and rules (population, archive, budget), and tests/config/test_measured_defaults.cpp compares the two.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "fusedga/core/problem_traits.hpp"
#include "fusedga/engine/options.hpp"

namespace fusedga {

/// The measured default's values. Each comment names the docs/quality.md section that measured it.
namespace measured_default {
/// SHADE with restarts and the gradient repair solved 14 of 14 quality-suite problems at 2e5 evaluations,
/// 25 seeds (the GA's defaults 6, pagmo's best 8): "Defaults".
inline constexpr int restart_stall = 100;
inline constexpr double restart_growth = 2;
/// Restarts wait for a converged population, else 5 x 100 generations: "Restarts that wait".
inline constexpr double restart_tolerance = 1e-8;
/// BIPOP's small starts solve the deceptive Lunacek bi-Rastrigin where IPOP's growth alone does not: "BIPOP
/// restarts and a population by dimension". Islands keep IPOP (docs/islands.md, measured there).
inline constexpr restart_schedule restart_schedule_one_population = restart_schedule::bipop;
/// The population is d clamped to [50, 100]: 50 needs fewer evaluations at d <= 30, 100 is needed at d = 100
/// (same section).
inline constexpr std::size_t population_min = 50, population_max = 100;
/// BIPOP's small starts cross exponentially, its large ones binomially ("Exponential crossover on BIPOP's small
/// starts"): Lunacek's funnel at d = 30 92 -> 100 %, nothing lost on the constrained suite (d <= 24), and at
/// d = 100 since restarts ignore improvements below the tolerance ("A stall rule that ignores improvements below
/// the tolerance").
inline constexpr de_crossover crossover = de_crossover::alternate;
/// SHADE's success-history memory H = 20, between SHADE's 100 (Tanabe & Fukunaga 2013) and L-SHADE's 6 (2014,
/// ga.de's own default): the slower-moving means of F and CR keep large starts on the d = 100 funnels (Ackley
/// 92 -> 100 %, Lunacek 84 -> 100 %), the same successes at d <= 30 and on the constrained suite ("SHADE's
/// memory H = 20").
inline constexpr int memory = 20;
/// L-SHADE's archive of 2.6 N replaced parents (Tanabe & Fukunaga 2014), not SHADE's N, where the population is
/// at most d: x_r2 drawn from a larger, older archive keeps current-to-pbest/1's first start off Ackley's local
/// minima at d = 100 (783k -> 288k evaluations to target); where N > d it cost evaluations on the constrained
/// suite. A reading: N points span at most N - 1 of the d directions ("L-SHADE's archive where N ≤ d").
inline constexpr double archive_where_population_at_most_d = 2.6;
/// The gradient repair's rate on constrained problems (CPU backends: on a GPU its cost is not yet measured).
inline constexpr double repair_rate = 0.2;
/// Its steps at most where the Jacobian comes by finite differences (problems without their own `jacobian`): 8,
/// not `iterations`' 3. Broyden's steps converge more slowly than Newton's with an exact Jacobian: with 8, 18 of
/// the suite's 21 constrained problems (emulated so) are solved in every run, not 15; rc11 92 -> 100 % with 3.3x
/// fewer evaluations. With exact Jacobians 8 cost more evaluations to the target on 11 of 21 and 4.5 % more
/// instructions in the default's generation benchmark, so they keep 3 ("repair steps by finite differences").
inline constexpr int repair_iterations_by_differences = 8;
/// The budget where no run length is given: 10^4 evaluations per gene, CEC's MaxFES = 10,000 x D ("the default
/// run length"). Not for population-batch problems, whose fitness is often costly.
inline constexpr std::uint64_t budget_per_gene = 10000;
/// Integer genes get the GA with these operators: SBX and polynomial mutation need real genes.
inline constexpr crossover_kind integer_crossover = crossover_kind::uniform;
inline constexpr mutation_kind integer_mutation = mutation_kind::uniform_reset;

/// The population where none is given, for d >= 1 genes.
constexpr std::size_t population(std::size_t d) { return std::clamp(d, population_min, population_max); }
/// Whether a population of n over d genes gets L-SHADE's archive (archive_where_population_at_most_d).
constexpr bool large_archive(std::size_t n, std::size_t d) { return n <= d; }
/// The budget for d genes and a population of n (a run evaluates at least its first population).
constexpr std::uint64_t budget(std::size_t d, std::size_t n) {
  return std::max<std::uint64_t>(budget_per_gene * d, n);
}
}  // namespace measured_default

/// What the measured default depends on.
struct problem_shape {
  int dimension = 0;                  ///< d >= 1; 0 = unknown (population and budget stay ga_options' own)
  bool integer_genes = false;         ///< an integer gene_type: the GA with its integer operators
  bool constrained = false;           ///< declares inequality or equality constraints
  bool population_evaluated = false;  ///< evaluate_population (no per-individual repair, no default budget)
  bool own_jacobian = true;           ///< a `jacobian` member (false: the repair's Jacobian by finite differences)
};

namespace measured_default {
/// Whether the measured default repairs a problem of this shape (at repair_rate, on the CPU backends): it is
/// constrained and evaluated an individual at a time, as the gradient repair needs each individual's constraints.
constexpr bool repaired(const problem_shape& shape) { return shape.constrained && !shape.population_evaluated; }
/// Whether its repair takes the Jacobian by finite differences (no `jacobian` member), and so
/// repair_iterations_by_differences steps at most.
constexpr bool repaired_by_differences(const problem_shape& shape) { return repaired(shape) && !shape.own_jacobian; }
}  // namespace measured_default

/// A problem type's shape (its dimension() and declared constraint counts).
template <class Problem>
problem_shape shape_of(const Problem& problem) {
  static_assert(is_problem_v<Problem>, "shape_of: not a problem type (see check_problem)");
  return {static_cast<int>(problem.dimension()), std::is_integral_v<gene_t<Problem>>,
          inequality_count(problem) + equality_count(problem) > 0, detail::has_population_evaluation<Problem>::value,
          detail::has_jacobian<Problem>::value};
}

/**
 * The options `ga-run` runs on a problem of this shape when its config sets nothing, for one population on the
 * CPU backends:
 * - integer genes: the GA with uniform crossover and uniform-reset mutation, else ga_options' defaults;
 * - real genes: SHADE (Tanabe & Fukunaga 2013) with memory 20 and the `alternate` crossover, BIPOP restarts
 *   (Hansen 2009) after 100 stalled generations of a converged population, population d clamped to [50, 100],
 *   archive 2.6 N where N <= d; on a constrained problem the gradient repair at rate 0.2 (Takahama & Sakai
 *   2006), with 8 steps at most where its Jacobian comes by finite differences; a budget of max(10^4 · d, N)
 *   evaluations (`stop.evaluations`, no generation limit). A population-evaluated problem
 *   (`evaluate_population`) gets neither the repair nor the budget (300 generations).
 * Any field may be changed afterwards, but the budget and the archive follow from the population: with another
 * population set `stop.evaluations` (at least the population; `measured_default::budget`) and `de.archive`
 * (`measured_default::large_archive`) as ga-run does; with `generations` set, ga-run drops the budget
 * (`stop.evaluations.reset()`). With islands (`islands.count` > 1) ga-run keeps IPOP restarts, `bin` crossover,
 * memory 6, archive 1 and the given population (measured so, docs/islands.md). On `backend::cuda` ga-run sets the
 * repair's rate to 0 (its cost on a GPU is not yet measured). Thread-safe; throws nothing.
 */
inline ga_options measured_defaults(const problem_shape& shape) {
  namespace m = measured_default;
  ga_options o;
  if (shape.integer_genes) {
    o.crossover.kind = m::integer_crossover;
    o.mutation.kind = m::integer_mutation;
    return o;
  }
  o.algorithm = algorithm_kind::de;
  o.de.crossover = m::crossover;
  o.de.memory = m::memory;
  o.restarts.stall_generations = m::restart_stall;
  o.restarts.population_growth = m::restart_growth;
  o.restarts.convergence_tolerance = m::restart_tolerance;
  o.restarts.schedule = m::restart_schedule_one_population;
  if (m::repaired(shape)) o.constraints.gradient_repair.rate = m::repair_rate;
  if (m::repaired_by_differences(shape)) o.constraints.gradient_repair.iterations = m::repair_iterations_by_differences;
  if (shape.dimension <= 0) return o;
  const auto d = static_cast<std::size_t>(shape.dimension);
  o.population = m::population(d);
  if (m::large_archive(o.population, d)) o.de.archive = m::archive_where_population_at_most_d;
  if (!shape.population_evaluated) {
    o.stop.evaluations = m::budget(d, o.population);
    o.generations = std::numeric_limits<int>::max();  // the budget ends the run
  }
  return o;
}

/// measured_defaults(shape_of(problem)). Example: `auto r = fusedga::solve(p, fusedga::measured_defaults(p));`
template <class Problem>
ga_options measured_defaults(const Problem& problem) {
  return measured_defaults(shape_of(problem));
}

}  // namespace fusedga
