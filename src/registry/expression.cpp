// Expression problems in the registry: the evaluators (JIT or interpreter)
// are built once per run, and the problem type erases nothing per tile but
// one virtual call into them.
#include <memory>
#include <string>
#include <utility>

#include "fusedga/expr/expression_problem.hpp"
#include "fusedga/expr/interpreter.hpp"
#include "fusedga/expr/jit.hpp"
#include "fusedga/expr/unfused_expression.hpp"  // before bench_target_impl is instantiated
#include "registry/entry.hpp"
#include "registry/holding_bench_target.hpp"
#if defined(FUSEDGA_WITH_CUDA)
#include "cuda/cuda_entry.hpp"
#include "cuda/device_jit.hpp"
#include "cuda/expr_device_problem.hpp"
#include "fusedga/backends/cuda/device.hpp"
#endif

namespace fusedga {

namespace {

/// Whether the run goes to the GPU: backend cuda (usable or not: --explain plans it anyway), or auto where
/// resolve_backend(cfg) picks cuda.
bool runs_on_gpu(const run_config& cfg) {
  return cfg.backend == backend_kind::cuda ||
         (cfg.backend == backend_kind::automatic && resolve_backend(cfg) == backend_kind::cuda);
}

}  // namespace

expression_plan plan_expression(const run_config& cfg) {
  if (runs_on_gpu(cfg)) {
    if (cfg.problem.engine == expression_engine::interpreter)
      throw config_error(cfg.source + ": problem.engine: interpreter runs on the CPU backends only; use backend: tbb "
                                      "(or serial), or engine: jit/auto for the GPU JIT");
#if defined(FUSEDGA_WITH_CUDA)
    return {expression_engine::jit,
            "gpu jit (backend " + std::string(to_string(cfg.backend)) + "): generated CUDA C++ compiled by NVRTC and "
            "linked into the fused kernels by nvJitLink (" + expr::device_jit_identity() + ")", true};
#else
    throw backend_unavailable("backend cuda: this build has no CUDA backend (built backends: serial, tbb)");
#endif
  }
  if (cfg.problem.engine == expression_engine::interpreter) return {expression_engine::interpreter, "interpreter (requested)"};
  std::string why;
  const std::string compiler = expr::find_compiler({}, &why);
  if (cfg.problem.engine == expression_engine::jit) {
    if (compiler.empty())
      throw config_error(cfg.source + ": problem.engine: jit requested, but no C++ compiler is usable: " + why);
    return {expression_engine::jit, "jit (requested), compiler " + compiler};
  }
  if (compiler.empty()) return {expression_engine::interpreter, "interpreter (auto: no usable C++ compiler: " + why + ")"};
  return {expression_engine::jit, "jit (auto: C++ compiler " + compiler + " found)"};
}

namespace detail {
namespace {

/// The evaluators of one run: the interpreter always (fallback and ga-bench's
/// unfused tier), the JIT module when planned.
template <class Real>
struct evaluators {
  std::unique_ptr<expr::evaluator<Real>> interpreter;
  std::unique_ptr<expr::evaluator<Real>> jit;
  const expr::evaluator<Real>& engine() const { return jit ? *jit : *interpreter; }
};

template <class Real>
std::shared_ptr<evaluators<Real>> build(const expr::program& p, const expression_plan& plan) {
  auto e = std::make_shared<evaluators<Real>>();
  e->interpreter = expr::make_interpreter<Real>(p);
  if (plan.engine == expression_engine::jit) e->jit = expr::jit_compile<Real>(p);
  return e;
}

/// Calls f(expression_problem<Real, S>) with S the program's sense.
template <class Real, class F>
auto with_problem(const expr::program& p, const evaluators<Real>& e, F&& f) {
  if (p.sense == Sense::maximize)
    return f(expr::expression_problem<Real, Sense::maximize>{&p, &e.engine(), e.interpreter.get()});
  return f(expr::expression_problem<Real, Sense::minimize>{&p, &e.engine(), e.interpreter.get()});
}

#if defined(FUSEDGA_WITH_CUDA)
/// The GPU JIT's module for `p` on GPU 0: the problem linked into the kernels for its architecture, loaded.
template <class Real>
std::shared_ptr<cuda_expr_module> gpu_module(const expr::program& p) {
  const cuda_device_status gpu = probe_cuda_device(0);
  if (!gpu.usable) throw backend_unavailable("backend cuda: no usable GPU: " + gpu.reason);
  return std::make_shared<cuda_expr_module>(expr::device_jit_image<Real>(p, gpu.compute_major * 10 + gpu.compute_minor), p);
}

/// Calls f(expr_device_problem<Real, S>) with S the program's sense.
template <class Real, class F>
auto with_gpu_problem(const expr::program& p, const cuda_expr_module& module, F&& f) {
  if (p.sense == Sense::maximize) return f(expr_device_problem<Real, Sense::maximize>{&p, &module});
  return f(expr_device_problem<Real, Sense::minimize>{&p, &module});
}

/// The GPU JIT: link the problem into the kernels for this GPU, load them, run the CUDA engine on them.
template <class Real>
Result run_expression_gpu(const run_config& cfg, const run_hooks& hooks, int& threads) {
  const expr::program& p = *cfg.problem.expression;
  const std::shared_ptr<cuda_expr_module> module = gpu_module<Real>(p);
  ga_options o = cfg.ga;
  o.on_generation = hooks.on_generation;
  o.interrupt = hooks.interrupt;
  threads = 0;
  return with_gpu_problem<Real>(p, *module, [&](const auto& problem) { return cuda_solve(problem, o, backend::cuda{}); });
}

/// ga-bench's CUDA tiers for an expression problem: the GPU JIT's kernels, as a built-in's.
template <class Real>
std::unique_ptr<cuda_bench_target> cuda_bench_expression(const run_config& cfg) {
  const std::shared_ptr<const expr::program> p = cfg.problem.expression;
  const std::shared_ptr<cuda_expr_module> module = gpu_module<Real>(*p);
  auto inner = with_gpu_problem<Real>(*p, *module, [&](const auto& problem) { return make_cuda_bench_target(problem, cfg); });
  return std::make_unique<holding_cuda_bench_target>(
      std::move(inner), std::make_shared<std::pair<decltype(p), decltype(module)>>(p, module));
}
#endif

template <class Real>
Result run_expression(const run_config& cfg, const run_hooks& hooks, int& threads) {
  const expr::program& p = *cfg.problem.expression;
  const expression_plan plan = plan_expression(cfg);
#if defined(FUSEDGA_WITH_CUDA)
  if (plan.gpu) return run_expression_gpu<Real>(cfg, hooks, threads);
#endif
  // One line when auto falls back; choosing the JIT is the normal case and says nothing (--explain shows it).
  if (cfg.problem.engine == expression_engine::automatic && plan.engine == expression_engine::interpreter &&
      hooks.on_notice)
    hooks.on_notice("problem.engine: using the " + plan.reason);
  const auto e = build<Real>(p, plan);
  return with_problem(p, *e, [&](const auto& problem) { return solve_on(problem, cfg, hooks, threads); });
}

template <class Real>
std::unique_ptr<bench_target> bench_expression(const run_config& cfg) {
  const std::shared_ptr<const expr::program> p = cfg.problem.expression;
  const auto e = build<Real>(*p, plan_expression(cfg));
  auto inner = with_problem(*p, *e, [&](const auto& problem) { return make_bench_target(problem, cfg); });
  return std::make_unique<holding_bench_target>(std::move(inner), std::make_shared<std::pair<decltype(p), decltype(e)>>(p, e));
}

}  // namespace

problem_entry make_expression_entry(const run_config& cfg) {
  problem_entry entry;
  entry.name = cfg.problem.builtin;
  entry.description = "expression problem from " + cfg.source;
  entry.integer_genes = false;
  entry.run = [](const run_config& c, const run_hooks& hooks, int& threads) -> Result {
    if (c.precision == precision_kind::float32) return run_expression<float>(c, hooks, threads);
    return run_expression<double>(c, hooks, threads);
  };
  entry.bench = [](const run_config& c) -> std::unique_ptr<bench_target> {
    if (c.precision == precision_kind::float32) return bench_expression<float>(c);
    return bench_expression<double>(c);
  };
#if defined(FUSEDGA_WITH_CUDA)
  entry.cuda_bench = [](const run_config& c) -> std::unique_ptr<cuda_bench_target> {
    if (c.precision == precision_kind::float32) return cuda_bench_expression<float>(c);
    return cuda_bench_expression<double>(c);
  };
#endif
  return entry;
}

}  // namespace detail
}  // namespace fusedga
