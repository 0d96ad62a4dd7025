#pragma once
/// @file kernel_params.hpp
/// The trivially copyable bundle that every per-tile pass captures by value.

#include <cstddef>
#include <cstdint>

#include "fusedga/core/bounds.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/core/rank_key.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/operators/blx_alpha.hpp"
#include "fusedga/operators/creep_mutation.hpp"
#include "fusedga/operators/gaussian_mutation.hpp"
#include "fusedga/operators/point_crossover.hpp"
#include "fusedga/operators/polynomial_mutation.hpp"
#include "fusedga/operators/sbx.hpp"
#include "fusedga/operators/uniform_crossover.hpp"
#include "fusedga/operators/uniform_reset_mutation.hpp"
#include "fusedga/engine/options.hpp"

namespace fusedga::detail {

/// Pairs of children per offspring tile. A tile of 2·kTilePairs children is
/// the unit of parallel work and of reproducibility (see simd_math.hpp).
inline constexpr int kTilePairs = 64;

/// Genomes of up to this many genes are staged into structure-of-arrays tiles
/// (SIMD lanes = individuals); longer ones are varied and evaluated in place
/// on their rows (SIMD lanes = genes, where a problem's loops over genes
/// vectorize). The choice depends on d only, never on threads.
inline constexpr int kStagedGenes = 32;

template <class Gene>
constexpr bool staged_layout(int d) {
  return d <= kStagedGenes;
}

/// Everything a pass needs, resolved from `ga_options` once per run.
template <class Problem>
struct kernel_params {
  using gene = gene_t<Problem>;
  using fitness = fitness_t<Problem>;

  Problem problem;
  bounds_view<gene> bounds;
  int dimension;
  std::uint32_t population;  ///< N
  std::uint32_t elitism;     ///< E
  counter_rng rng;
  int tournament_size;
  crossover_kind crossover;
  double crossover_rate;
  sbx sbx_op;
  blx_alpha blx_op;
  point_crossover point_op;
  mutation_kind mutation;
  polynomial_mutation polynomial_op;
  gaussian_mutation gaussian_op;
  uniform_reset_mutation reset_op;
  creep_mutation creep_op;
  constraint_rule rule;
  fitness penalty_weight;
  fitness equality_tolerance;

  /// Children per generation (N − E) and the pairs that produce them.
  std::uint32_t children() const { return population - elitism; }
  std::uint32_t pairs() const { return (children() + 1) / 2; }
};

/// The kernel parameters of a run (bounds left empty: the caller points them at its own copy). Shared by every backend.
template <class Problem>
kernel_params<Problem> make_kernel_params(const Problem& p, const ga_options& o, int d) {
  using fitness = fitness_t<Problem>;
  kernel_params<Problem> kp{};
  kp.problem = p;
  kp.dimension = d;
  kp.population = static_cast<std::uint32_t>(o.population);
  kp.elitism = static_cast<std::uint32_t>(o.elitism);
  kp.rng = counter_rng::from_seed(o.seed);
  kp.tournament_size = o.selection.tournament_size;
  kp.crossover = o.crossover.kind;
  kp.crossover_rate = o.crossover.rate;
  kp.sbx_op = sbx{o.crossover.eta};
  kp.blx_op = blx_alpha{o.crossover.alpha};
  kp.point_op = point_crossover{o.crossover.kind == crossover_kind::two_point ? 2 : 1};
  const double rate = o.mutation.rate ? *o.mutation.rate : 1.0 / d;
  kp.mutation = o.mutation.kind;
  kp.polynomial_op = polynomial_mutation{rate, o.mutation.eta};
  kp.gaussian_op = gaussian_mutation{rate, o.mutation.sigma};
  kp.reset_op = uniform_reset_mutation{rate};
  kp.creep_op = creep_mutation{rate, o.mutation.step};
  kp.rule = o.constraints.rule;
  kp.penalty_weight = static_cast<fitness>(o.constraints.penalty_weight);
  kp.equality_tolerance = static_cast<fitness>(o.constraints.equality_tolerance);
  return kp;
}

}  // namespace fusedga::detail
