#pragma once
/// @file bench_factories.hpp
/// Private: ga-bench's targets for a problem, kept out of the public registry (config/registry.hpp: names → run).
/// They are instantiated here, in the harness, from the same problem list as the registry
/// (registry/problem_families.hpp) and the same expression evaluators (registry/expression_evaluators.hpp).

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fusedga/config/run_config.hpp"

namespace fusedga {

class bench_target;       // bench/bench_target.hpp
class cuda_bench_target;  // bench/bench_cuda.hpp

namespace detail {

/// Benchmark target factories of one problem.
struct bench_factories {
  /// Creates the CPU tiers' target (bench/bench_target.hpp) for `cfg`.
  std::function<std::unique_ptr<bench_target>(const run_config& cfg)> cpu;
  /// Creates the CUDA tiers' target (bench/bench_cuda.hpp); empty when the CUDA backend is not built.
  std::function<std::unique_ptr<cuda_bench_target>(const run_config& cfg)> cuda;
};

/**
 * The benchmark factories of the problem `cfg` runs: the built-in named by `cfg.problem.builtin`, or for an
 * expression problem factories bound to its program (JIT or interpreter as plan_expression says).
 * @throws config_error for an unknown built-in problem.
 */
bench_factories bench_factories_for(const run_config& cfg);

/// The factories of an expression problem (bound to `cfg.problem.expression` when called); bench/expression_bench.cpp.
bench_factories make_expression_bench();

/// A built-in problem's name and factories.
using named_bench_factories = std::pair<std::string, bench_factories>;

// One registration function per problem family (bench/<family>_bench.cpp).
void register_seed_bench(std::vector<named_bench_factories>& out);
void register_engineering_bench(std::vector<named_bench_factories>& out);
void register_classic_bench(std::vector<named_bench_factories>& out);

}  // namespace detail
}  // namespace fusedga
