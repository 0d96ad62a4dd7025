#pragma once
/// @file bench_config.hpp
/// The run configuration ga-bench measures: a built-in problem by name or a YAML config file.

#include <string>
#include <vector>

#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"

namespace fusedga {

/**
 * The default run configuration of built-in problem `entry`: its parameters
 * at their defaults and the default GA options, with uniform crossover and
 * uniform-reset mutation for integer genes (SBX and polynomial mutation need
 * real genes). `source` is "<builtin>".
 */
run_config builtin_bench_config(const problem_entry& entry);

/**
 * Resolves ga-bench's PROBLEM_OR_CONFIG argument: a registry name (see
 * `builtin_problems()`) gives `builtin_bench_config`, anything else is read as
 * a YAML config with `load_config`. `overrides` (`--set key.path=value`) go
 * through the config parser in both cases.
 *
 * @throws config_error for an unknown name that is not a readable file, a
 *         config naming no built-in problem, or any parse/validation error.
 */
run_config resolve_bench_config(const std::string& problem_or_config, const std::vector<std::string>& overrides);

}  // namespace fusedga
