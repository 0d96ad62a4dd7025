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

/// Adds the constraint Jacobian (symbolic, derivative.hpp) to `e`, through the CPU JIT when `plan` uses it.
/// @throws fusedga::error when the constraints are too large to differentiate symbolically.
template <class Real>
void add_jacobian(evaluators<Real>& e, const expr::program& p, const expression_plan& plan,
                  const expr::jit_options& jit = {}) {
  const expr::jacobian_tape tape = expr::build_jacobian(p);
  e.jacobian = plan.engine == expression_engine::jit ? expr::jacobian_jit_compile<Real>(tape, jit)
                                                      : expr::make_jacobian_interpreter<Real>(tape);
}

/// Calls f(expression_problem<Real, S>) with S the program's sense.
template <class Real, class F>
auto with_problem(const expr::program& p, const evaluators<Real>& e, F&& f) {
  if (p.sense == Sense::maximize)
    return f(expr::expression_problem<Real, Sense::maximize>{&p, &e.engine(), e.interpreter.get(), e.jacobian.get()});
  return f(expr::expression_problem<Real, Sense::minimize>{&p, &e.engine(), e.interpreter.get(), e.jacobian.get()});
}

#if defined(FUSEDGA_WITH_CUDA)
/// The GPU JIT's module for `p` on GPU 0: the problem linked into the kernels for its architecture, loaded, with
/// the variation kernels of the algorithms the run's islands use (the GA's offspring kernel with
/// `genetic_algorithm`, the DE kernel with `differential_evolution`) and, with `jacobian`, the constraints'
/// Jacobian for the gradient repair; the cache's notices go to `on_notice`.
template <class Real>
std::shared_ptr<cuda_expr_module> gpu_module(const expr::program& p, bool genetic_algorithm = true,
                                             bool differential_evolution = false,
                                             const std::function<void(const std::string&)>& on_notice = {},
                                             bool jacobian = false) {
  const cuda_device_status gpu = probe_cuda_device(0);
  if (!gpu.usable) throw backend_unavailable("backend cuda: no usable GPU: " + gpu.reason);
  expr::device_jit_options options;
  options.genetic_algorithm = genetic_algorithm;
  options.differential_evolution = differential_evolution;
  options.on_notice = on_notice;
  options.jacobian = jacobian;
  return std::make_shared<cuda_expr_module>(
      expr::device_jit_image<Real>(p, gpu.compute_major * 10 + gpu.compute_minor, options), p, genetic_algorithm,
      differential_evolution);
}

/// Calls f(expr_device_problem<Real, S>) with S the program's sense.
template <class Real, class F>
auto with_gpu_problem(const expr::program& p, const cuda_expr_module& module, F&& f) {
  if (p.sense == Sense::maximize) return f(expr_device_problem<Real, Sense::maximize>{&p, &module});
  return f(expr_device_problem<Real, Sense::minimize>{&p, &module});
}
#endif

}  // namespace fusedga::detail
