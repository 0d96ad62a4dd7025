// ga-bench's targets for an expression problem: the same evaluators as its run (registry/expression_evaluators.hpp),
// kept alive by the target.
#include <memory>
#include <utility>

#include "bench/unfused_expression.hpp"  // before bench_target_impl: its unfused tier for expression problems

#include "bench/bench_factories.hpp"
#include "bench/bench_target_impl.hpp"
#include "bench/holding_bench_target.hpp"
#include "registry/expression_evaluators.hpp"
#if defined(FUSEDGA_WITH_CUDA)
#include "bench/cuda_bench_entry.hpp"
#endif

namespace fusedga::detail {
namespace {

#if defined(FUSEDGA_WITH_CUDA)
/// ga-bench's CUDA tiers for an expression problem: the GPU JIT's kernels, as a built-in's.
template <class Real>
std::unique_ptr<cuda_bench_target> cuda_bench_expression(const run_config& cfg) {
  const std::shared_ptr<const expr::program> p = cfg.problem.expression;
  const std::shared_ptr<cuda_expr_module> module = gpu_module<Real>(cfg);  // the kernels a run of cfg launches
  auto inner =
      with_gpu_problem<Real>(*p, *module, [&](const auto& problem) { return make_cuda_bench_target(problem, cfg); });
  return std::make_unique<holding_cuda_bench_target>(
      std::move(inner), std::make_shared<std::pair<decltype(p), decltype(module)>>(p, module));
}
#endif

template <class Real>
std::unique_ptr<bench_target> bench_expression(const run_config& cfg) {
  const std::shared_ptr<const expr::program> p = cfg.problem.expression;
  const expression_plan plan = plan_expression(cfg);
  const auto e = build_evaluators<Real>(*p, plan);
  // The gradient repair (ga.algorithm auto's default on constrained problems) needs the Jacobian, as in a run
  // (registry/expression.cpp); without it the repair pass would call a null evaluator.
  if (needs_jacobian(cfg, *p))
    add_jacobian<Real>(*e, *p, e->jit ? plan : expression_plan{expression_engine::interpreter, "interpreter", false});
  auto inner = with_problem(*p, *e, [&](const auto& problem) { return make_bench_target(problem, cfg); });
  return std::make_unique<holding_bench_target>(std::move(inner),
                                                std::make_shared<std::pair<decltype(p), decltype(e)>>(p, e));
}

}  // namespace

bench_factories make_expression_bench() {
  bench_factories f;
  f.cpu = [](const run_config& c) -> std::unique_ptr<bench_target> {
    if (c.precision == precision_kind::float32) return bench_expression<float>(c);
    return bench_expression<double>(c);
  };
#if defined(FUSEDGA_WITH_CUDA)
  f.cuda = [](const run_config& c) -> std::unique_ptr<cuda_bench_target> {
    if (c.precision == precision_kind::float32) return cuda_bench_expression<float>(c);
    return cuda_bench_expression<double>(c);
  };
#endif
  return f;
}

}  // namespace fusedga::detail
