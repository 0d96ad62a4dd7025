#pragma once
/// @file validate.hpp
/// Checks `ga_options` against a problem before a run starts.

#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>

#include "fusedga/core/error.hpp"
#include "fusedga/engine/options.hpp"

namespace fusedga {

/// "sbx", "blx-alpha", "uniform", "one-point", "two-point" (the YAML spelling).
inline const char* to_string(crossover_kind k) {
  switch (k) {
    case crossover_kind::sbx: return "sbx";
    case crossover_kind::blx_alpha: return "blx-alpha";
    case crossover_kind::uniform: return "uniform";
    case crossover_kind::one_point: return "one-point";
    case crossover_kind::two_point: return "two-point";
  }
  return "?";
}

/// "polynomial", "gaussian", "uniform-reset", "creep" (the YAML spelling).
inline const char* to_string(mutation_kind k) {
  switch (k) {
    case mutation_kind::polynomial: return "polynomial";
    case mutation_kind::gaussian: return "gaussian";
    case mutation_kind::uniform_reset: return "uniform-reset";
    case mutation_kind::creep: return "creep";
  }
  return "?";
}

/// True when crossover `k` can vary genes of this kind (real: floating point).
inline bool crossover_supports(crossover_kind k, bool real_genes) {
  return real_genes || (k != crossover_kind::sbx && k != crossover_kind::blx_alpha);
}
/// True when mutation `k` can vary genes of this kind.
inline bool mutation_supports(mutation_kind k, bool real_genes) {
  if (k == mutation_kind::creep) return !real_genes;
  return real_genes || k == mutation_kind::uniform_reset;
}

namespace detail {
inline void check_range(bool ok, const std::string& what) {
  if (!ok) throw config_error(what);
}
inline bool in_unit(double r) { return r >= 0 && r <= 1; }
}  // namespace detail

/**
 * Validates options for a problem of `dimension` genes of real (floating
 * point) or integer kind.
 * @throws config_error naming the option, its value and the valid range or choices.
 */
inline void validate(const ga_options& o, int dimension, bool real_genes) {
  using detail::check_range;
  check_range(dimension >= 1, "problem: dimension must be >= 1, got " + std::to_string(dimension));
  check_range(o.population >= 2 && o.population < (std::size_t(1) << 31),
              "ga.population: expected an integer in [2, 2147483647], got " + std::to_string(o.population));
  check_range(o.generations >= 0, "ga.generations: expected an integer >= 0, got " + std::to_string(o.generations));
  check_range(o.selection.tournament_size >= 1 && static_cast<std::size_t>(o.selection.tournament_size) <= o.population,
              "ga.selection.size: expected a tournament size in [1, population = " + std::to_string(o.population) +
                  "], got " + std::to_string(o.selection.tournament_size));
  check_range(detail::in_unit(o.crossover.rate),
              "ga.crossover.rate: expected a probability in [0, 1], got " + std::to_string(o.crossover.rate));
  check_range(o.crossover.eta >= 0 && std::isfinite(o.crossover.eta), "ga.crossover.eta: expected a finite number >= 0");
  check_range(o.crossover.alpha >= 0 && std::isfinite(o.crossover.alpha),
              "ga.crossover.alpha: expected a finite number >= 0");
  if (o.mutation.rate)
    check_range(detail::in_unit(*o.mutation.rate),
                "ga.mutation.rate: expected a probability in [0, 1] or auto, got " + std::to_string(*o.mutation.rate));
  check_range(o.mutation.eta >= 0 && std::isfinite(o.mutation.eta), "ga.mutation.eta: expected a finite number >= 0");
  check_range(o.mutation.sigma > 0 && std::isfinite(o.mutation.sigma), "ga.mutation.sigma: expected a number > 0");
  check_range(o.mutation.step >= 1, "ga.mutation.step: expected an integer >= 1");
  check_range(o.elitism < o.population, "ga.elitism: expected an integer in [0, population - 1 = " +
                                            std::to_string(o.population - 1) + "], got " + std::to_string(o.elitism));
  check_range(o.constraints.penalty_weight > 0, "ga.constraint_handling.weight: expected a number > 0");
  check_range(o.constraints.equality_tolerance >= 0, "ga.constraint_handling.equality_tolerance: expected a number >= 0");
  if (o.stop.stall_generations)
    check_range(*o.stop.stall_generations >= 1, "stop.stall_generations: expected an integer >= 1");
  if (o.stop.time_limit_s) check_range(*o.stop.time_limit_s > 0, "stop.time_limit_s: expected a number of seconds > 0");
  check_range(crossover_supports(o.crossover.kind, real_genes),
              std::string("ga.crossover.type: ") + to_string(o.crossover.kind) +
                  " needs real genes; for integer genes use one of: uniform, one-point, two-point");
  check_range(mutation_supports(o.mutation.kind, real_genes),
              std::string("ga.mutation.type: ") + to_string(o.mutation.kind) +
                  (real_genes ? " needs integer genes; for real genes use one of: polynomial, gaussian, uniform-reset"
                              : " needs real genes; for integer genes use one of: uniform-reset, creep"));
}

}  // namespace fusedga
