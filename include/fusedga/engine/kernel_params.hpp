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

}  // namespace fusedga::detail
