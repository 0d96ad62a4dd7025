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

namespace fusedga {

expression_plan plan_expression(const run_config& cfg) {
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

template <class Real>
Result run_expression(const run_config& cfg, const run_hooks& hooks, int& threads) {
  const expr::program& p = *cfg.problem.expression;
  const expression_plan plan = plan_expression(cfg);
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
  return entry;
}

}  // namespace detail
}  // namespace fusedga
