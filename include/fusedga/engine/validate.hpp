#pragma once
/// @file validate.hpp
/// Checks `ga_options` against a problem before a run starts; the operator
/// parameters' ranges and gene kinds come from the operator table (catalog.hpp).

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "fusedga/core/error.hpp"
#include "fusedga/engine/operator_parameters.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/operators/catalog.hpp"
#include "fusedga/operators/operator_text.hpp"

namespace fusedga {

namespace detail {
/// Throws config_error with `message` when !ok: a string, or a callable that builds it, called only then (every
/// check's message built eagerly was a quarter of an engine's set-up, ~0.9 us at N = 50).
template <class Message>
void check_range(bool ok, Message&& message) {
  if (ok) return;
  if constexpr (std::is_invocable_v<Message>)
    throw config_error(std::string(message()));
  else
    throw config_error(std::string(message));
}

/// Why `de.crossover` cannot run with `de.strategy`, or empty: rand/1/bin is binomial by name. `validate` throws
/// it under the key's name; the config parser locates it at the YAML key (config/parse_config.cpp).
inline std::optional<std::string> de_crossover_misfit(const de_options& de) {
  if (de.crossover == de_crossover::bin || de.strategy != de_strategy::rand_1_bin) return std::nullopt;
  return std::string("rand/1/bin is binomial by name; ") + to_string(de.crossover) +
         " needs type current-to-pbest/1 or shade";
}

/// Where a parameter of the operator table lives in an options struct: `read` gives its value (empty = auto)
/// from the struct's address plus `offset`; null when the struct has no field of that name.
struct parameter_reader {
  const parameter_spec* spec;
  std::size_t offset;
  std::optional<double> (*read)(const void* field);
};

/// Every parameter of `family` (the family's, then each row's) with its field in `Options`, found by name
/// (with_parameter's string compares) on a value-initialized struct: the same fields in every struct.
template <class Options>
std::vector<parameter_reader> resolve_parameters(const operator_family& family) {
  std::vector<parameter_reader> out;
  const Options probe{};
  const auto add = [&](const parameter_spec& p) {
    parameter_reader r{&p, 0, nullptr};
    with_parameter(probe, p.name, [&](const auto& field) {
      using T = std::decay_t<decltype(field)>;
      r.offset =
          static_cast<std::size_t>(reinterpret_cast<const char*>(&field) - reinterpret_cast<const char*>(&probe));
      r.read = [](const void* f) { return as_number(*static_cast<const T*>(f)); };
    });
    out.push_back(r);
  };
  for (const parameter_spec& p : family.common) add(p);
  for (const operator_spec& row : family.rows)
    for (const parameter_spec& p : row.params) add(p);
  return out;
}

/// Checks every parameter of `Family` held by `o` (the family's and each row's, so a value set for another
/// kind than the chosen one is still checked) against its range; `run_max` bounds parameters with a `max_name`.
/// The fields are found by name once per family (resolve_parameters): by name on every call, the ~40
/// parameters' lookups were 4 % of rc31's short runs. Thread-safe (the table is a function-local static).
template <const operator_family& Family, class Options>
void check_parameters(const Options& o, double run_max) {
  static const std::vector<parameter_reader> fields = resolve_parameters<Options>(Family);
  for (const parameter_reader& f : fields) {
    const parameter_spec& p = *f.spec;
    const std::optional<double> v =
        f.read ? f.read(reinterpret_cast<const char*>(&o) + f.offset) : std::optional<double>();
    // auto, or in range; the message is built only when thrown (for every parameter, it was most of a run's start-up)
    if (!v || p.contains(*v, run_max)) continue;
    throw config_error(std::string(Family.section) + "." + p.name + ": expected " + parameter_range_text(p, run_max) +
                       ", got " + detail::spec_number(*v));
  }
}

/// Checks that operator `kind` of `family` accepts the problem's genes.
template <class Kind>
void check_genes(const operator_family& family, Kind kind, bool real_genes) {
  if (accepts(kind, real_genes)) return;
  throw config_error(std::string(family.section) + ".type: " + to_string(kind) + " needs " +
                     (real_genes ? "integer" : "real") + " genes; for " + (real_genes ? "real" : "integer") +
                     " genes use one of: " + operator_names(family, real_genes));
}
/// Why max_stall_generations without convergence_tolerance is refused (validate and the config reader): it
/// would be ignored.
inline constexpr const char* max_stall_needs_tolerance =
    "needs convergence_tolerance (without it, a start ends at stall_generations)";

}  // namespace detail

/**
 * Validates options for a problem of `dimension` genes of real (floating
 * point) or integer kind.
 * @throws config_error naming the option, its value and the valid range or choices.
 */
inline void validate(const ga_options& o, int dimension, bool real_genes) {
  using detail::check_range;
  check_range(dimension >= 1, [&] { return "problem: dimension must be >= 1, got " + std::to_string(dimension); });
  check_range(o.population >= 2 && o.population < (std::size_t(1) << 31), [&] {
    return "ga.population: expected an integer in [2, 2147483647], got " + std::to_string(o.population);
  });
  check_range(o.generations >= 0,
              [&] { return "ga.generations: expected an integer >= 0, got " + std::to_string(o.generations); });
  const double population = static_cast<double>(o.population);
  detail::check_parameters<selection_family>(o.selection, population);
  detail::check_parameters<crossover_family>(o.crossover, population);
  detail::check_parameters<mutation_family>(o.mutation, population);
  detail::check_parameters<constraint_family>(o.constraints, population);
  detail::check_parameters<gradient_repair_family>(o.constraints.gradient_repair, population);
  check_range(real_genes || !(o.constraints.gradient_repair.rate > 0),
              "ga.constraint_handling.gradient_repair: needs real genes (a Newton step is not defined for integer "
              "genes); set rate: 0 for this problem");
  check_range(o.elitism < o.population, [&] {
    return "ga.elitism: expected an integer in [0, population - 1 = " + std::to_string(o.population - 1) + "], got " +
           std::to_string(o.elitism);
  });
  if (o.stop.stall_generations)
    check_range(*o.stop.stall_generations >= 1, [&] {
      return "stop.stall_generations: expected an integer >= 1, got " + std::to_string(*o.stop.stall_generations);
    });
  if (o.stop.time_limit_s)
    check_range(*o.stop.time_limit_s > 0, [&] {
      return "stop.time_limit_s: expected a number of seconds > 0, got " + detail::spec_number(*o.stop.time_limit_s);
    });
  if (o.stop.target)  // NaN is never reached, and ±inf is reached by nothing or at once: ignored without a word
    check_range(std::isfinite(*o.stop.target), [&] {
      return std::string("stop.target: expected a finite number, got ") +
             (std::isnan(*o.stop.target) ? "NaN" : *o.stop.target > 0 ? "inf" : "-inf");
    });
  if (o.stop.evaluations)
    check_range(*o.stop.evaluations >= o.population, [&] {
      return "stop.evaluations: expected an integer >= population = " + std::to_string(o.population) +
             " (the initial population is evaluated), got " + std::to_string(*o.stop.evaluations) +
             "; from C++, measured_default::budget(d, population) is the "
             "default budget for a population";
    });
  if (o.restarts.stall_generations)
    check_range(*o.restarts.stall_generations >= 1, [&] {
      return "ga.restarts.stall_generations: expected an integer >= 1, got " +
             std::to_string(*o.restarts.stall_generations);
    });
  check_range(o.restarts.population_growth >= 1 && o.restarts.population_growth <= 1e6, [&] {
    return "ga.restarts.population_growth: expected a number in [1, 1000000], got " +
           detail::spec_number(o.restarts.population_growth);
  });
  if (o.restarts.convergence_tolerance)
    check_range(*o.restarts.convergence_tolerance >= 0 && *o.restarts.convergence_tolerance <= 1, [&] {
      return "ga.restarts.convergence_tolerance: expected a number in [0, 1], got " +
             detail::spec_number(*o.restarts.convergence_tolerance);
    });
  if (o.restarts.max_stall_generations) {
    check_range(o.restarts.convergence_tolerance.has_value(),
                [] { return std::string("ga.restarts.max_stall_generations: ") + detail::max_stall_needs_tolerance; });
    check_range(o.restarts.stall_generations && *o.restarts.max_stall_generations >= *o.restarts.stall_generations,
                [&] {
                  return "ga.restarts.max_stall_generations: expected an integer >= stall_generations" +
                         (o.restarts.stall_generations ? " = " + std::to_string(*o.restarts.stall_generations)
                                                       : std::string()) +
                         ", got " + std::to_string(*o.restarts.max_stall_generations);
                });
  }
  detail::check_parameters<de_family>(o.de, population);
  if (o.algorithm == algorithm_kind::de) {
    // rand/1/bin draws three individuals besides the target; current-to-pbest/1 two
    check_range(o.population >= kDeMinPopulation, [&] {
      return "ga.population: differential evolution needs at least 4 individuals, got " + std::to_string(o.population);
    });
    check_range(o.survival.kind == survival_kind::generational,
                "ga.survival: differential evolution has its own one-to-one survivor selection; leave survival "
                "unset (generational)");
    check_range(real_genes, "ga.algorithm: de needs real genes, the problem has integer genes; use ga");
    check_range(o.constraints.rule != constraint_rule::stochastic_ranking,
                "ga.constraint_handling.type: stochastic-ranking compares in the GA's tournaments, and differential "
                "evolution's one-to-one survival has none; use feasibility-rules or epsilon with ga.algorithm: de");
    if (const auto why = detail::de_crossover_misfit(o.de)) throw config_error("ga.de.crossover: " + *why);
    return;
  }
  detail::check_genes(crossover_family, o.crossover.kind, real_genes);
  detail::check_genes(mutation_family, o.mutation.kind, real_genes);
}

/**
 * Checks the options a population-batch problem (problem_traits.hpp, `evaluate_population`) cannot run with:
 * the gradient repair needs each individual's constraints (and their Jacobian) on their own, one at a time.
 * @throws config_error naming ga.constraint_handling.gradient_repair when its rate is above 0.
 */
inline void validate_population_evaluation(const ga_options& o) {
  detail::check_range(!(o.constraints.gradient_repair.rate > 0),
                      "ga.constraint_handling.gradient_repair: the problem is evaluated a population at a time "
                      "(evaluate_population), and the gradient repair needs each individual's constraints on "
                      "their own; set rate: 0");
}

}  // namespace fusedga
