#include "bench/bench_factories.hpp"

#include <algorithm>

#include "fusedga/core/error.hpp"

namespace fusedga::detail {

bench_factories bench_factories_for(const run_config& cfg) {
  if (cfg.problem.expression) return make_expression_bench();
  static const std::vector<named_bench_factories> builtins = [] {
    std::vector<named_bench_factories> v;
    register_seed_bench(v);
    register_engineering_bench(v);
    register_classic_bench(v);
    return v;
  }();
  const auto it = std::find_if(builtins.begin(), builtins.end(),
                               [&](const named_bench_factories& b) { return b.first == cfg.problem.builtin; });
  if (it == builtins.end()) throw config_error("problem.builtin: unknown problem '" + cfg.problem.builtin + "'");
  return it->second;
}

}  // namespace fusedga::detail
