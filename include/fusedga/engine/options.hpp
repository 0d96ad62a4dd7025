#pragma once
/// @file options.hpp
/// Settings of one GA run (`fusedga::solve`), mirroring the `ga:` and `stop:`
/// sections of the YAML schema in DESIGN.md. The operators, their parameters,
/// valid ranges and defaults are listed in operators/catalog.hpp.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include "fusedga/core/rank_key.hpp"
#include "fusedga/engine/generation_stats.hpp"
#include "fusedga/operators/catalog.hpp"

namespace fusedga {

/// Tournament selection settings.
struct selection_options {
  int tournament_size = 2;  ///< k in [1, population]
};

/// Crossover settings; only the fields of the chosen kind are read.
struct crossover_options {
  crossover_kind kind = crossover_kind::sbx;
  double rate = 0.9;   ///< probability that a pair is crossed, [0, 1]
  double eta = 15;     ///< SBX distribution index, >= 0
  double alpha = 0.5;  ///< BLX-α, >= 0
};

/// Mutation settings; only the fields of the chosen kind are read.
struct mutation_options {
  mutation_kind kind = mutation_kind::polynomial;
  std::optional<double> rate;  ///< per-gene probability in [0, 1]; empty = 1/dimension ("auto")
  double eta = 20;             ///< polynomial mutation distribution index, >= 0
  double sigma = 0.1;          ///< Gaussian step as a fraction of the gene range, > 0
  int step = 1;                ///< creep step, >= 1
};

/// How violations enter the comparison (rank_key.hpp).
struct constraint_options {
  constraint_rule rule = constraint_rule::feasibility_rules;
  double penalty_weight = 1e6;       ///< static penalty weight, > 0
  double equality_tolerance = 1e-4;  ///< eps in |h(x)| <= eps, >= 0
  /// Gradient repair of infeasible children (operators/gradient_repair.hpp): per-child probability in [0, 1]
  /// (0 = off) and Newton steps at most (>= 1). Real genes only.
  struct gradient_repair_options {
    double rate = 0;
    int iterations = 3;
  } gradient_repair;
};

/// Extra stopping rules; the generation limit always applies.
struct stop_options {
  std::optional<double> target;           ///< stop once the best feasible objective reaches it
  std::optional<int> stall_generations;   ///< stop after this many generations without improvement
  std::optional<double> time_limit_s;     ///< stop after this wall time (checked each generation)
};

/**
 * Everything `solve` needs besides the problem and the backend.
 *
 * Defaults follow common practice (pymoo's GA, Deb's NSGA-II code): binary
 * tournament, SBX(η=15, rate 0.9), polynomial mutation (η=20, rate 1/d),
 * elitism 2, feasibility rules.
 */
struct ga_options {
  std::size_t population = 100;  ///< N in [2, 2^31)
  int generations = 300;         ///< maximal generations, >= 0 (0 = evaluate the initial population only)
  std::uint64_t seed = 42;       ///< run seed; equal seeds give bitwise equal runs
  selection_options selection;
  crossover_options crossover;
  mutation_options mutation;
  std::size_t elitism = 2;       ///< best individuals copied unchanged into the next generation, < population
  constraint_options constraints;
  stop_options stop;
  /// Called on the host after every generation (generation 0 = initial population). May be empty.
  std::function<void(const generation_stats&)> on_generation;
  /// When set and true, the run stops at the end of the current generation (e.g. on SIGINT).
  const std::atomic<bool>* interrupt = nullptr;
};

}  // namespace fusedga
