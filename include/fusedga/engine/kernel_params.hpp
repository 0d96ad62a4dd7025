#pragma once
/// @file kernel_params.hpp
/// The trivially copyable bundle that every per-tile pass captures by value.

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "fusedga/core/bounds.hpp"
#include "fusedga/core/constraint_key.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/core/rank_key.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/operator_parameters.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/operators/differential_evolution.hpp"
#include "fusedga/operators/dispatch.hpp"
#include "fusedga/operators/gradient_repair.hpp"

namespace fusedga::detail {

/// Pairs of children per offspring tile. A tile of 2·kTilePairs children is
/// the unit of parallel work and of reproducibility (see simd_math.hpp).
inline constexpr int kTilePairs = 64;

/// In the GA's offspring pass, genomes of up to this many genes are staged into
/// structure-of-arrays tiles (SIMD lanes = individuals) for variation, then
/// written to their rows and evaluated there, 64 rows at a time (passes.hpp,
/// evaluate_rows, as every other pass); longer ones are varied and evaluated in
/// place on their rows. The choice depends on d only, never on threads.
inline constexpr int kStagedGenes = 32;

template <class Gene>
constexpr bool staged_layout(int d) {
  return d <= kStagedGenes;
}

/**
 * One worker's scratch for a CPU pass (backends/pass_scratch.hpp allocates it when the executor is built, one
 * per worker slot of its loop), so no pass allocates in any generation. Host pointers, null where the run needs
 * none and on the GPU. Each is used by one tile at a time: the worker's.
 */
template <class Gene, class Fitness>
struct scratch_slot {
  Gene* padded_rows = nullptr;    ///< kTileSlots·d: a short group of rows padded to a tile (d > kStagedGenes)
  Gene* gathered_rows = nullptr;  ///< kTileSlots·d: rows gathered for one evaluate_batch call (batch problems)
  Gene* lane = nullptr;           ///< d: a staged child's genes while it is repaired (gradient repair)
  Fitness* repair_work = nullptr; ///< gradient_repair_scratch(d, m): the repair's own work (gradient repair)
};

/// Everything a pass needs, resolved from `ga_options` once per run.
template <class Problem>
struct kernel_params {
  using gene = gene_t<Problem>;
  using fitness = fitness_t<Problem>;

  Problem problem;
  bounds_view<gene> bounds;
  int dimension;
  std::uint32_t population;  ///< N
  std::uint32_t elitism;     ///< E (0 with plus survival and with DE)
  counter_rng rng;
  int tournament_size;
  crossover_spec crossover;  ///< the chosen crossover and its parameters (dispatch.hpp)
  mutation_spec mutation;    ///< the chosen mutation and its parameters, rate resolved
  constraint_rule rule;
  fitness penalty_weight;
  fitness equality_tolerance;
  algorithm_kind algorithm;  ///< GA or DE (engine/de_pass.hpp)
  survival_kind survival;    ///< GA survivor selection (engine/survival.hpp)
  de_spec de;                ///< DE settings, counts resolved for N
  handler_state<fitness> handler;  ///< the dynamic rules' parameters of this generation (constraint_key.hpp)
  double ranking_pf;               ///< stochastic ranking's pf
  gradient_repair_spec gradient_repair;  ///< rate 0 = off
  scratch_slot<gene, fitness> scratch;   ///< the CPU worker's scratch, set per tile (cpu_executor::for_each_tile)

  /// Children per generation (N − E) and the pairs that produce them.
  std::uint32_t children() const { return population - elitism; }
  std::uint32_t pairs() const { return (children() + 1) / 2; }
};

/// Elites copied per generation: `elitism` with generational survival, 0 with plus survival and with DE.
inline std::size_t effective_elitism(const ga_options& o) {
  return o.algorithm == algorithm_kind::de || o.survival.kind == survival_kind::plus ? 0 : o.elitism;
}

/// Children evaluated per generation: N − effective_elitism (N with plus survival and with DE).
inline std::uint64_t children_per_generation(const ga_options& o) { return o.population - effective_elitism(o); }

/**
 * The most evaluations the gradient repair can add to one generation of a run of `o` on `p` (0 without repair):
 * every child (GA) or trial (DE) repaired, each repair `iterations` evaluations of the constraints (with the
 * problem's own Jacobian, the same call gives it), plus d for one Jacobian by finite differences (later steps
 * update it by Broyden's: operators/gradient_repair.hpp), plus DE's evaluation of the repaired trial. solve holds the
 * repair off in a generation whose worst case could pass stop.evaluations, so the budget is never exceeded (the
 * repair's count is known only after the generation).
 */
template <class Problem>
std::uint64_t max_repair_evaluations(const Problem& p, const ga_options& o) {
  if constexpr (!repairable_v<Problem>) {
    (void)p, (void)o;
    return 0;
  } else {
    const constraint_options::gradient_repair_options& r = o.constraints.gradient_repair;
    if (!(r.rate > 0) || inequality_count(p) + equality_count(p) == 0) return 0;
    const std::uint64_t differences = has_jacobian<Problem>::value ? 0 : static_cast<std::uint64_t>(p.dimension());
    const std::uint64_t each =
        static_cast<std::uint64_t>(r.iterations) + differences + (o.algorithm == algorithm_kind::de ? 1 : 0);
    return children_per_generation(o) * each;
  }
}

/// The resolved DE settings for a population of `o.population`.
inline de_spec make_de_spec(const ga_options& o) {
  de_spec s;
  const double n = static_cast<double>(o.population);
  s.strategy = o.de.strategy;
  s.F = o.de.F;
  s.CR = o.de.CR;
  s.exponential = o.de.crossover == de_crossover::exp;  // alternate: restart_options_for chose bin or exp per start
  const double p = std::round(o.de.pbest * n);
  s.pbest_count = static_cast<std::uint32_t>(p < 2 ? 2 : p > n ? n : p);
  s.archive_capacity = s.uses_pbest() ? static_cast<std::uint32_t>(std::round(o.de.archive * n)) : 0;
  s.memory = o.de.memory;
  return s;
}

/// The kernel parameters of a run (bounds left empty: the caller points them at its own copy). Shared by every backend.
template <class Problem>
kernel_params<Problem> make_kernel_params(const Problem& p, const ga_options& o, int d) {
  using fitness = fitness_t<Problem>;
  kernel_params<Problem> kp{};
  kp.problem = p;
  kp.dimension = d;
  kp.population = static_cast<std::uint32_t>(o.population);
  kp.elitism = static_cast<std::uint32_t>(effective_elitism(o));
  kp.rng = counter_rng::from_seed(o.seed);
  kp.tournament_size = o.selection.tournament_size;
  kp.crossover = make_crossover_spec(o.crossover);
  kp.mutation = make_mutation_spec(o.mutation, d);
  kp.rule = o.constraints.rule;
  kp.penalty_weight = static_cast<fitness>(o.constraints.penalty_weight);
  kp.equality_tolerance = static_cast<fitness>(o.constraints.equality_tolerance);
  kp.algorithm = o.algorithm;
  kp.survival = o.survival.kind;
  kp.de = make_de_spec(o);
  kp.handler = handler_state<fitness>{};
  kp.ranking_pf = o.constraints.ranking_pf;
  kp.gradient_repair = {o.constraints.gradient_repair.rate, o.constraints.gradient_repair.iterations,
                        inequality_count(p), equality_count(p)};
  return kp;
}

}  // namespace fusedga::detail
