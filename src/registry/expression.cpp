// Expression problems in the registry: the evaluators (JIT or interpreter)
// are built once per run, and the problem type erases nothing per tile but
// one virtual call into them.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "registry/entry.hpp"
#include "registry/expression_evaluators.hpp"
#if defined(FUSEDGA_WITH_CUDA)
#include "cuda/cuda_entry.hpp"
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
      throw config_error(cfg.located(cfg.where.count("problem.engine") ? "problem.engine" : "backend") +
                         "the interpreter runs on the CPU backends only, and the run's backend is cuda; use backend: "
                         "tbb (or serial), or problem.engine: jit/auto for the GPU JIT");
#if defined(FUSEDGA_WITH_CUDA)
    return {expression_engine::jit,
            "gpu jit (backend " + std::string(to_string(cfg.backend)) +
                "): generated CUDA C++ compiled by NVRTC and "
                "linked into the fused kernels by nvJitLink (" +
                expr::device_jit_identity() + ")",
            true};
#else
    throw backend_unavailable("backend cuda: this build has no CUDA backend (built backends: serial, tbb)");
#endif
  }
  if (cfg.problem.engine == expression_engine::interpreter)
    return {expression_engine::interpreter, "interpreter (requested)"};
  std::string why;
  const std::string compiler = expr::find_compiler({}, &why);
  // JIT compile time grows faster than linearly with the problem's size (issue 16, item 7): auto bounds it.
  const std::size_t size = expr::jit_size(*cfg.problem.expression);
  const bool large = size > expr::jit_auto_size_limit;
  const std::string size_text = std::to_string(size) + " expression nodes, over the JIT's auto limit of " +
                                std::to_string(expr::jit_auto_size_limit);
  if (cfg.problem.engine == expression_engine::jit) {
    if (compiler.empty())
      throw config_error(cfg.source + ": problem.engine: jit requested, but no C++ compiler is usable: " + why);
    return {expression_engine::jit, "jit (requested), compiler " + compiler +
                                        (large ? "; " + size_text + ": the compile may take minutes" : "")};
  }
  if (compiler.empty())
    return {expression_engine::interpreter, "interpreter (auto: no usable C++ compiler: " + why + ")"};
  if (large)
    return {expression_engine::interpreter,
            "interpreter (auto: " + size_text + ", whose compile time grows faster than linearly; problem.engine: " +
                "jit compiles it anyway)"};
  return {expression_engine::jit, "jit (auto: C++ compiler " + compiler + " found)"};
}

namespace detail {
namespace {

#if defined(FUSEDGA_WITH_CUDA)
/// The GPU JIT: link the problem into the kernels for this GPU, load them, run the CUDA engine on them.
template <class Real>
Result run_expression_gpu(const run_config& cfg, const run_hooks& hooks, int& threads) {
  const expr::program& p = *cfg.problem.expression;
  const std::shared_ptr<cuda_expr_module> module = gpu_module<Real>(cfg, hooks.on_notice);
  const ga_options o = run_options(cfg, hooks);
  return with_gpu_problem<Real>(p, *module,
                                [&](const auto& problem) { return solve_on_cuda(problem, o, cfg, hooks, threads); });
}
#endif

template <class Real>
Result run_expression(const run_config& cfg, const run_hooks& hooks, int& threads) {
  const expr::program& p = *cfg.problem.expression;
  const expression_plan plan = plan_expression(cfg);
#if defined(FUSEDGA_WITH_CUDA)
  if (plan.gpu) return run_expression_gpu<Real>(cfg, hooks, threads);
#endif
  // One line when auto falls back, or when an explicit jit is over the size limit; choosing the JIT is the
  // normal case and says nothing (--explain shows it).
  if (cfg.problem.engine == expression_engine::automatic && plan.engine == expression_engine::interpreter &&
      hooks.on_notice)
    hooks.on_notice("problem.engine: using the " + plan.reason);
  if (cfg.problem.engine == expression_engine::jit && expr::jit_size(p) > expr::jit_auto_size_limit &&
      hooks.on_notice)
    hooks.on_notice("problem.engine: " + plan.reason);
  expr::jit_options jit;
  jit.interrupt = hooks.interrupt;  // Ctrl-C stops the compiler: fusedga::interrupted, never a fallback
  jit.on_notice = hooks.on_notice;
  std::shared_ptr<evaluators<Real>> e;
  try {
    e = build_evaluators<Real>(p, plan, jit);
  } catch (const interrupted&) {
    throw;
  } catch (const error& failure) {
    // auto promises a run: a JIT that cannot compile or cache (no $HOME, a read-only cache, a broken compiler)
    // falls back to the interpreter, said in one line. engine: jit keeps the error.
    if (cfg.problem.engine != expression_engine::automatic || plan.engine != expression_engine::jit) throw;
    if (hooks.on_notice)
      hooks.on_notice(std::string("problem.engine: using the interpreter (auto: the JIT failed: ") + failure.what() +
                      ")");
    e = build_evaluators<Real>(p, {expression_engine::interpreter, "interpreter", false}, jit);
  }
  if (needs_jacobian(cfg, p)) {
    const expr::jacobian_tape tape = repair_jacobian(p);  // too large: a config_error saying what to set
    try {
      e->jacobian = jacobian_evaluator_of<Real>(tape, e->jit != nullptr, jit);
    } catch (const interrupted&) {
      throw;
    } catch (const error& failure) {
      if (hooks.on_notice)
        hooks.on_notice(std::string("gradient repair: using the Jacobian interpreter (the JIT failed: ") +
                        failure.what() + ")");
      e->jacobian = jacobian_evaluator_of<Real>(tape, false);
    }
  }
  return with_problem(p, *e, [&](const auto& problem) { return solve_on(problem, cfg, hooks, threads); });
}

}  // namespace

problem_entry make_expression_entry(const run_config& cfg) {
  problem_entry entry;
  entry.name = cfg.problem.builtin;
  entry.description = "expression problem from " + cfg.source;
  entry.integer_genes = false;
  entry.constrained = !cfg.problem.expression->constraints.empty();
  entry.run = [](const run_config& c, const run_hooks& hooks, int& threads) -> Result {
    if (c.precision == precision_kind::float32) return run_expression<float>(c, hooks, threads);
    return run_expression<double>(c, hooks, threads);
  };
  return entry;
}

}  // namespace detail
}  // namespace fusedga
