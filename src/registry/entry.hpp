#pragma once
/// @file entry.hpp
/// Private helper: turns a typed problem factory into a type-erased
/// `problem_entry` (names → run), instantiating the engine for float and
/// double and for each CPU backend (and the CUDA backend when built).

#include <tbb/info.h>

#include <algorithm>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusedga/config/registry.hpp"
#include "fusedga/core/check_constraint_counts.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/solve.hpp"
#include "registry/problem_families.hpp"
#if defined(FUSEDGA_WITH_CUDA)
#include "cuda/cuda_entry.hpp"
#endif

namespace fusedga::detail {

/// What identifies the problem of `cfg` in a checkpoint: the built-in's name and parameters, or the
/// expression problem as parsed (normalized expressions, bounds, constraint forms).
std::string checkpoint_problem_id(const run_config& cfg);

/// The options of a run of `cfg`: its ga: and stop: sections with the hooks' callbacks and checkpoints;
/// `problem_id()` (what identifies the problem in a checkpoint) is called only when the run writes or resumes one.
template <class ProblemId>
ga_options run_options(const run_config& cfg, const run_hooks& hooks, ProblemId problem_id) {
  ga_options o = cfg.ga;
  o.on_generation = hooks.on_generation;
  o.interrupt = hooks.interrupt;
  o.checkpoint = hooks.checkpoint;
  o.islands.transport = hooks.transport;
  if (o.checkpoint.write || hooks.resume) o.checkpoint.problem_id = problem_id();
  return o;
}

/// run_options with the problem identified by checkpoint_problem_id(cfg).
inline ga_options run_options(const run_config& cfg, const run_hooks& hooks) {
  return run_options(cfg, hooks, [&] { return checkpoint_problem_id(cfg); });
}

/// solve, or resume the hooks' checkpoint.
template <class Problem, class Backend>
Result solve_or_resume(const Problem& problem, const ga_options& o, const Backend& backend, const run_hooks& hooks) {
  if (hooks.resume) return solve(problem, o, backend, *hooks.resume, hooks.resume_source);
  return solve(problem, o, backend);
}

/// solve_or_resume on the serial backend when `cfg.backend` says so, else on TBB with `cfg.threads`.
template <class Problem>
Result solve_on_cpu(const Problem& problem, const ga_options& o, const run_config& cfg, const run_hooks& hooks,
                    int& threads_used) {
  if (cfg.backend == backend_kind::serial) {
    threads_used = 1;
    return solve_or_resume(problem, o, backend::serial{}, hooks);
  }
  threads_used = cfg.threads > 0 ? cfg.threads : ::tbb::info::default_concurrency();
  return solve_or_resume(problem, o, backend::tbb{cfg.threads}, hooks);
}

/// solve_or_resume on backend::cuda with `cfg.device`, for a problem with a CUDA engine (src/cuda/*.cu).
/// @throws backend_unavailable in a build without the CUDA backend, and for host-evaluated expression problems.
template <class Problem>
Result solve_on_cuda(const Problem& problem, const ga_options& o, const run_config& cfg, const run_hooks& hooks,
                     int& threads_used) {
#if defined(FUSEDGA_WITH_CUDA)
  if constexpr (!has_batch_evaluation<Problem>::value) {
    threads_used = 0;
    return cuda_solve(problem, o, backend::cuda{std::max(0, cfg.device)}, hooks.resume, hooks.resume_source);
  } else {  // expression problems reach the GPU through the GPU JIT (registry/expression.cpp), not here
    throw backend_unavailable("backend cuda: a host-evaluated expression problem cannot run on the GPU");
  }
#else
  (void)problem, (void)o, (void)cfg, (void)hooks, (void)threads_used;
  throw backend_unavailable("backend cuda: this build has no CUDA backend (built backends: serial, tbb)");
#endif
}

template <class Problem>
Result solve_on(const Problem& problem, const run_config& cfg, const run_hooks& hooks, int& threads_used) {
  check_constraint_counts(problem, "'" + cfg.problem.builtin + "'");
  const ga_options o = run_options(cfg, hooks);
  switch (cfg.backend) {
    case backend_kind::serial:
    case backend_kind::tbb:
      return solve_on_cpu(problem, o, cfg, hooks, threads_used);
    case backend_kind::cuda:
      return solve_on_cuda(problem, o, cfg, hooks, threads_used);
    default:
      throw backend_unavailable(std::string("backend ") + to_string(cfg.backend) + " is not built");
  }
}

/**
 * Builds a registry entry from `make(real_tag<R>{}, params) -> Problem<R>`,
 * a generic lambda. Both precisions and both CPU backends are instantiated.
 */
template <class Make>
problem_entry make_entry(std::string name, std::string description, std::vector<param_spec> params, bool integer_genes,
                         Make make) {
  problem_entry e;
  e.name = std::move(name);
  e.description = std::move(description);
  e.params = std::move(params);
  e.integer_genes = integer_genes;
  {
    std::map<std::string, double> defaults;
    for (const param_spec& p : e.params) defaults[p.name] = p.default_value;
    const auto problem = make(real_tag<double>{}, defaults);
    using P = std::decay_t<decltype(problem)>;
    // So ga-run repairs every built-in (real genes) with Newton's steps, as it does expressions: the finite-difference
    // Jacobian and its measured step limit are for C++ callers' own problems (measured_defaults.hpp).
    static_assert(detail::has_jacobian<P>::value || std::is_integral_v<gene_t<P>> ||
                      (!detail::has_inequalities<P>::value && !detail::has_equalities<P>::value),
                  "a built-in problem with constraints on real genes provides their exact `jacobian` "
                  "(problem_traits.hpp)");
    e.constrained = inequality_count(problem) + equality_count(problem) > 0;
  }
  e.dimension = [make](const std::map<std::string, double>& params) {
    return static_cast<int>(make(real_tag<double>{}, params).dimension());
  };
  e.run = [make](const run_config& cfg, const run_hooks& hooks, int& threads) -> Result {
    if (cfg.precision == precision_kind::float32)
      return solve_on(make(real_tag<float>{}, cfg.problem.params), cfg, hooks, threads);
    return solve_on(make(real_tag<double>{}, cfg.problem.params), cfg, hooks, threads);
  };
  return e;
}

/// The `add` of registry/problem_families.hpp: appends each problem's entry to `out`.
struct entry_adder {
  std::vector<problem_entry>& out;
  template <class Make>
  void operator()(std::string name, std::string description, std::vector<param_spec> params, bool integer_genes,
                  Make make) const {
    out.push_back(make_entry(std::move(name), std::move(description), std::move(params), integer_genes, make));
  }
};

// One registration function per problem family (src/registry/<family>.cpp).
void register_seed(std::vector<problem_entry>& out);
void register_engineering(std::vector<problem_entry>& out);
void register_classic(std::vector<problem_entry>& out);

/// The entry of an expression problem (`cfg.problem.expression` set); src/registry/expression.cpp.
problem_entry make_expression_entry(const run_config& cfg);

}  // namespace fusedga::detail
