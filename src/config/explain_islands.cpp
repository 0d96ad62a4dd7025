/// @file explain_islands.cpp
/// `ga-run --explain`'s island lines (config/explain_islands.hpp).

#include "fusedga/config/explain_islands.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <optional>
#include <string>

#include "fusedga/engine/operator_parameters.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/islands/migration.hpp"
#include "fusedga/operators/catalog.hpp"
#include "fusedga/operators/operator_text.hpp"

namespace fusedga {

namespace {

/// One operator line, as ga-run's own --explain lines: `LABEL NAME (param value, ...)  (source)`, indented.
template <class Kind, class Options>
std::string operator_line(const operator_family& family, Kind kind, const Options& o) {
  const operator_spec& row = spec_of(kind);
  std::string params;
  const auto add = [&](const parameter_spec& p) {
    const std::optional<double> v = parameter_value(o, p.name);
    params += fmt::format("{}{} {}", params.empty() ? "" : ", ", p.name,
                          v ? detail::spec_number(*v) : parameter_default_text(p));
  };
  for (const parameter_spec& p : family.common) add(p);
  for (const parameter_spec& p : row.params) add(p);
  const std::string noun = family.noun;
  const std::string label = noun == "constraint handling"      ? "constraints"
                            : noun == "differential evolution" ? "de"
                                                               : noun;
  return fmt::format("  {:11} {}{}  ({})\n", label, row.name, params.empty() ? "" : " (" + params + ")", row.source);
}

/// A variant's settings: its algorithm and the operators that algorithm reads.
std::string variant_lines(const ga_options& v, const std::string& reason) {
  std::string out = fmt::format("  {:11} {}{}\n", "algorithm", to_string(v.algorithm),
                                reason.empty() ? "" : " (" + reason + ")");
  if (v.algorithm == algorithm_kind::de) {
    out += operator_line(de_family, v.de.strategy, v.de);
  } else {
    out += operator_line(selection_family, selection_kind::tournament, v.selection);
    out += operator_line(crossover_family, v.crossover.kind, v.crossover);
    out += operator_line(mutation_family, v.mutation.kind, v.mutation);
    out += operator_line(survival_family, v.survival.kind, v.survival);
    if (v.survival.kind == survival_kind::generational) out += fmt::format("  {:11} {}\n", "elitism", v.elitism);
  }
  out += operator_line(constraint_family, v.constraints.rule, v.constraints);
  out += operator_line(gradient_repair_family, repair_kind::gradient, v.constraints.gradient_repair);
  return out;
}

}  // namespace

std::string explain_islands(const run_config& cfg) {
  const island_options& is = cfg.ga.islands;
  if (is.count <= 1) return {};
  const std::size_t big = islands::island_population(cfg.ga.population, is.count, 0);
  const std::size_t small = islands::island_population(cfg.ga.population, is.count, is.count - 1);
  const std::size_t extra = cfg.ga.population % static_cast<std::size_t>(is.count);
  const std::string sizes =
      big == small ? fmt::format("{} individuals each", big)
                   : fmt::format("{} individuals (island{} 0{}), {} (the others)", big, extra > 1 ? "s" : "",
                                 extra > 1 ? fmt::format(" to {}", extra - 1) : std::string(), small);
  std::string out = fmt::format(
      "islands      {} of the population's {}: {}  (island model: Cantú-Paz 2000)\n", is.count, cfg.ga.population,
      sizes);
  out += fmt::format("migration    after every {} generations: each island sends its {} best, topology {}, policy "
                     "{}\n",
                     is.migration.every, is.migration.size, to_string(is.migration.topology),
                     to_string(is.migration.policy));
  if (is.variants.empty()) {
    out += "variants     none: every island runs the settings above (own seed: island 0 the run's)\n";
    return out;
  }
  const std::size_t V = is.variants.size();
  out += fmt::format("variants     {} (heterogeneous islands): island i runs variant i mod {}\n", V, V);
  for (std::size_t v = 0; v < V; ++v) {
    std::string which;
    for (std::size_t i = v; i < static_cast<std::size_t>(is.count); i += V)
      which += (which.empty() ? "" : ", ") + std::to_string(i);
    out += fmt::format("variant {}    islands {}\n", v, which);
    out += variant_lines(is.variants[v], v < cfg.choice.variants.size() ? cfg.choice.variants[v] : std::string());
  }
  return out;
}

}  // namespace fusedga
