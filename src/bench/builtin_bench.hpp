#pragma once
/// @file builtin_bench.hpp
/// Private: ga-bench's targets of the built-in problems, from the registry's own problem list
/// (registry/problem_families.hpp), instantiated for float and double.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_factories.hpp"
#include "bench/bench_target_impl.hpp"
#include "registry/problem_families.hpp"
#if defined(FUSEDGA_WITH_CUDA)
#include "bench/cuda_bench_entry.hpp"
#endif

namespace fusedga::detail {

/// The factories of `make(real_tag<R>{}, params) -> Problem<R>` (a generic lambda): CPU targets, and CUDA targets
/// when the CUDA backend is built.
template <class Make>
bench_factories make_bench_factories(Make make) {
  bench_factories f;
  f.cpu = [make](const run_config& cfg) -> std::unique_ptr<bench_target> {
    if (cfg.precision == precision_kind::float32)
      return make_bench_target(make(real_tag<float>{}, cfg.problem.params), cfg);
    return make_bench_target(make(real_tag<double>{}, cfg.problem.params), cfg);
  };
#if defined(FUSEDGA_WITH_CUDA)
  f.cuda = [make](const run_config& cfg) -> std::unique_ptr<cuda_bench_target> {
    if (cfg.precision == precision_kind::float32)
      return make_cuda_bench_target(make(real_tag<float>{}, cfg.problem.params), cfg);
    return make_cuda_bench_target(make(real_tag<double>{}, cfg.problem.params), cfg);
  };
#endif
  return f;
}

/// The `add` of registry/problem_families.hpp: appends each problem's name and factories to `out`.
struct bench_adder {
  std::vector<named_bench_factories>& out;
  template <class Make>
  void operator()(std::string name, const std::string&, const std::vector<param_spec>&, bool, Make make) const {
    out.emplace_back(std::move(name), make_bench_factories(make));
  }
};

}  // namespace fusedga::detail
