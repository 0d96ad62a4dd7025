#pragma once
/// @file expression_evaluators.hpp
/// Private: the evaluators of an expression problem (interpreter, CPU JIT module, GPU JIT module) and the calls
/// that bind a program to its problem type. Shared by the registry's run (registry/expression.cpp) and ga-bench's
/// targets (bench/expression_bench.cpp), so both evaluate an expression exactly the same way.

#include <memory>

#include "fusedga/config/registry.hpp"
#include "fusedga/expr/expression_problem.hpp"
#include "fusedga/expr/interpreter.hpp"
#include "fusedga/expr/jacobian_evaluator.hpp"
#include "fusedga/expr/jit.hpp"
#if defined(FUSEDGA_WITH_CUDA)
#include "cuda/device_jit.hpp"
#include "cuda/expr_device_problem.hpp"
#include "fusedga/backends/cuda/device.hpp"
#endif

namespace fusedga::detail {

/// The evaluators of one run: the interpreter always (fallback and ga-bench's
/// unfused tier), the JIT module when planned.
template <class Real>
struct evaluators {
  std::unique_ptr<expr::evaluator<Real>> interpreter;
  std::unique_ptr<expr::evaluator<Real>> jit;
  std::unique_ptr<expr::jacobian_evaluator<Real>> jacobian;  ///< built only for runs with the gradient repair
  const expr::evaluator<Real>& engine() const { return jit ? *jit : *interpreter; }
};

/// The evaluators `plan` asks for (the CPU JIT compiles here with `jit`: seconds cold, milliseconds from its cache).
template <class Real>
std::shared_ptr<evaluators<Real>> build_evaluators(const expr::program& p, const expression_plan& plan,
                                                   const expr::jit_options& jit = {}) {
  auto e = std::make_shared<evaluators<Real>>();
  e->interpreter = expr::make_interpreter<Real>(p);
  if (plan.engine == expression_engine::jit) e->jit = expr::jit_compile<Real>(p, jit);
  return e;
}

/**
 * The constraints' symbolic Jacobian (derivative.hpp) for the gradient repair.
 * @throws config_error naming ga.constraint_handling.gradient_repair when the constraints are too large to
 *         differentiate symbolically (derivative.hpp's limits), with what to set instead.
 */
inline expr::jacobian_tape repair_jacobian(const expr::program& p) {
  try {
    return expr::build_jacobian(p);
  } catch (const config_error&) {
    throw;
  } catch (const error& e) {
    throw config_error(std::string("ga.constraint_handling.gradient_repair: ") + e.what() +
                       "; the repair needs it: set gradient_repair.rate: 0 (ga.algorithm auto sets 0.2 on a "
                       "constrained problem)");
  }
}

/// The evaluator of a Jacobian tape: compiled by the CPU JIT when `jit`, else the tape interpreter.
/// @throws fusedga::error when the JIT cannot compile it.
template <class Real>
std::unique_ptr<expr::jacobian_evaluator<Real>> jacobian_evaluator_of(const expr::jacobian_tape& tape, bool jit,
                                                                      const expr::jit_options& options = {}) {
  return jit ? expr::jacobian_jit_compile<Real>(tape, options) : expr::make_jacobian_interpreter<Real>(tape);
}

/// Adds the constraint Jacobian (repair_jacobian) to `e`, through the CPU JIT when `plan` uses it.
/// @throws config_error as repair_jacobian; fusedga::error when the JIT cannot compile it.
template <class Real>
void add_jacobian(evaluators<Real>& e, const expr::program& p, const expression_plan& plan,
                  const expr::jit_options& jit = {}) {
  e.jacobian = jacobian_evaluator_of<Real>(repair_jacobian(p), plan.engine == expression_engine::jit, jit);
}

/// Calls f(expression_problem<Real, S>) with S the program's sense.
template <class Real, class F>
auto with_problem(const expr::program& p, const evaluators<Real>& e, F&& f) {
  if (p.sense == Sense::maximize)
    return f(expr::expression_problem<Real, Sense::maximize>{&p, &e.engine(), e.interpreter.get(), e.jacobian.get()});
  return f(expr::expression_problem<Real, Sense::minimize>{&p, &e.engine(), e.interpreter.get(), e.jacobian.get()});
}

/// Whether `test` holds for the options some island of the run runs with: each heterogeneous island's variant
/// (ga.islands.variants, which replace the run's operators and constraint handling), else the run's own.
template <class Test>
bool any_island(const run_config& cfg, Test&& test) {
  const auto& variants = cfg.ga.islands.variants;
  if (variants.empty()) return test(cfg.ga);
  for (const ga_options& v : variants)
    if (test(v)) return true;
  return false;
}

/// Whether any island of the run repairs: the GPU JIT then builds the constraints' Jacobian into its kernels.
inline bool any_repair(const run_config& cfg) {
  return any_island(cfg, [](const ga_options& o) { return o.constraints.gradient_repair.rate > 0; });
}

/// Whether a run of `p` under `cfg` needs the constraints' Jacobian: some island repairs (a heterogeneous
/// island's variant may, where the run's own options do not) and `p` has constraints.
inline bool needs_jacobian(const run_config& cfg, const expr::program& p) {
  return any_repair(cfg) && p.inequality_count() + p.equality_count() > 0;
}

/// Whether any island of the run runs `algorithm`: the GPU JIT links that algorithm's variation kernel.
inline bool any_algorithm(const run_config& cfg, algorithm_kind algorithm) {
  return any_island(cfg, [&](const ga_options& o) { return o.algorithm == algorithm; });
}

#if defined(FUSEDGA_WITH_CUDA)
/// The GPU JIT's module for a run of `cfg`'s expression problem on GPU 0: the problem linked into the kernels for
/// its architecture, loaded, with the variation kernel of each algorithm its islands run and, when one of them
/// repairs, the constraints' Jacobian; the cache's notices go to `on_notice`.
template <class Real>
std::shared_ptr<cuda_expr_module> gpu_module(const run_config& cfg,
                                             const std::function<void(const std::string&)>& on_notice = {}) {
  const expr::program& p = *cfg.problem.expression;
  const cuda_device_status gpu = probe_cuda_device(0);
  if (!gpu.usable) throw backend_unavailable("backend cuda: no usable GPU: " + gpu.reason);
  expr::device_jit_options options;
  options.genetic_algorithm = any_algorithm(cfg, algorithm_kind::ga);
  options.differential_evolution = any_algorithm(cfg, algorithm_kind::de);
  options.jacobian = any_repair(cfg);  // generate_device_source adds none to an unconstrained problem
  options.on_notice = on_notice;
  return std::make_shared<cuda_expr_module>(
      expr::device_jit_image<Real>(p, gpu.compute_major * 10 + gpu.compute_minor, options), p,
      options.genetic_algorithm, options.differential_evolution);
}

/// Calls f(expr_device_problem<Real, S>) with S the program's sense.
template <class Real, class F>
auto with_gpu_problem(const expr::program& p, const cuda_expr_module& module, F&& f) {
  if (p.sense == Sense::maximize) return f(expr_device_problem<Real, Sense::maximize>{&p, &module});
  return f(expr_device_problem<Real, Sense::minimize>{&p, &module});
}
#endif

}  // namespace fusedga::detail
