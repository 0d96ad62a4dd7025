#include "bench/bench_config.hpp"

#include <fstream>
#include <string>
#include <vector>

#include "config/yaml_helpers.hpp"
#include "fusedga/core/error.hpp"

namespace fusedga {

run_config builtin_bench_config(const problem_entry& entry) {
  run_config cfg;
  cfg.source = "<builtin>";
  cfg.problem.builtin = entry.name;
  for (const auto& p : entry.params) cfg.problem.params[p.name] = p.default_value;
  if (entry.integer_genes) {
    cfg.ga.crossover.kind = crossover_kind::uniform;
    cfg.ga.mutation.kind = mutation_kind::uniform_reset;
  }
  return cfg;
}

run_config resolve_bench_config(const std::string& problem_or_config, const std::vector<std::string>& overrides) {
  if (const problem_entry* entry = find_problem(problem_or_config)) {
    if (overrides.empty()) return builtin_bench_config(*entry);
    // --set goes through the config parser, which knows every key and its range.
    // The GA, as builtin_bench_config: ga-bench measures the GA's generation unless --set ga.algorithm=... says otherwise.
    std::string yaml = "problem:\n  builtin: " + entry->name + "\nga:\n  algorithm: ga\n";
    if (entry->integer_genes) yaml += "  crossover: {type: uniform}\n  mutation: {type: uniform-reset}\n";
    run_config cfg = parse_config(yaml, "<builtin " + entry->name + ">", overrides);
    cfg.source = "<builtin>";
    return cfg;
  }
  if (!std::ifstream(problem_or_config).good()) {
    const std::vector<std::string> names = builtin_problem_names();
    throw config_error("'" + problem_or_config +
                       "' is neither a built-in problem nor a readable config file; built-in problems: " +
                       detail::join(names) + detail::did_you_mean(problem_or_config, names));
  }
  run_config cfg = load_config(problem_or_config, overrides);
  if (!cfg.problem.expression && !find_problem(cfg.problem.builtin))
    throw config_error(problem_or_config + ": unknown built-in problem '" + cfg.problem.builtin +
                       "'. Built-in problems: " + detail::join(builtin_problem_names()));
  return cfg;
}

}  // namespace fusedga
