// Population-batch problems given in code (config/batch_entry.hpp): a problem type over the spec
// (registry/batch_problem.hpp), one instantiation per sense (a compile-time part of the problem concept, as for
// expression problems) and gene type (double, or int32 for integer genes), solved on the CPU backends, or with
// the spec's device evaluator on the CUDA backend (src/cuda/batch.cu).
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "fusedga/config/batch_entry.hpp"
#include "fusedga/core/bounds.hpp"
#include "fusedga/core/error.hpp"
#include "registry/batch_problem.hpp"
#include "registry/entry.hpp"

namespace fusedga {

namespace detail {
namespace {

/// What identifies a batch problem in a checkpoint: its name, shape, sense and bounds (the function itself
/// cannot be compared).
std::string batch_problem_id(const batch_spec& spec) {
  std::string id = "batch " + spec.name + (spec.integer_genes ? " integer" : "") + " d=" + std::to_string(spec.dimension) +
                   " m=" + std::to_string(spec.inequality_count) + " p=" + std::to_string(spec.equality_count) +
                   " " + to_string(spec.sense);
  for (int j = 0; j < spec.dimension; ++j)
    id += " [" + exact_number(spec.lower[static_cast<std::size_t>(j)]) + ", " +
          exact_number(spec.upper[static_cast<std::size_t>(j)]) + "]" +
          (!spec.integer_variables.empty() && spec.integer_variables[static_cast<std::size_t>(j)] ? " integer" : "");
  return id;
}

template <class Problem>
Result solve_batch(const Problem& problem, const batch_spec& spec, const run_config& cfg, const run_hooks& hooks,
                   int& threads_used) {
  const ga_options o = run_options(cfg, hooks, [&] { return batch_problem_id(spec); });
  if (cfg.backend != backend_kind::cuda) return solve_on_cpu(problem, o, cfg, hooks, threads_used);
  return solve_on_cuda(batch_problem<Problem::sense, typename Problem::gene_type, batch_memory::device>{problem.spec},
                       o, cfg, hooks, threads_used);
}

}  // namespace
}  // namespace detail

void check_batch_run(const batch_spec& spec, const run_config& cfg) {
  if (cfg.precision == precision_kind::float32)
    throw config_error(cfg.located("precision") +
                       "batch problems run in double precision (genes and fitness are double arrays); use "
                       "precision: double");
  if (cfg.backend != backend_kind::cuda) return;
  if (spec.integer_genes ? !spec.evaluate_integer_device : !spec.evaluate_device)
    throw config_error(cfg.located("backend") + "cuda needs a fitness function of device memory (batch_spec::" +
                       (spec.integer_genes ? "evaluate_integer_device" : "evaluate_device") +
                       "; in Python BatchProblem(array='torch'), which gets a CUDA tensor); use backend: tbb (or "
                       "serial, or auto)");
}

void validate_batch_spec(const batch_spec& spec) {
  const std::string where = "batch problem '" + spec.name + "': ";
  const auto fail = [&](const std::string& what) { throw config_error(where + what); };
  const int d = spec.dimension;
  if (d < 1) fail("dimension: expected an integer >= 1, got " + std::to_string(d));
  const auto check_side = [&](const std::vector<double>& side, const char* name) {
    if (side.size() != static_cast<std::size_t>(d))
      fail(std::string(name) + ": expected " + std::to_string(d) + " values (dimension), got " +
           std::to_string(side.size()));
    for (std::size_t j = 0; j < side.size(); ++j)
      if (!std::isfinite(side[j]))
        fail(std::string(name) + "[" + std::to_string(j) + "]: expected a finite number, got " +
             detail::exact_number(side[j]));
  };
  check_side(spec.lower, "lower");
  check_side(spec.upper, "upper");
  if (spec.integer_genes)  // int32 genes: each bound an integer of int32's range
    for (const auto* side : {&spec.lower, &spec.upper})
      for (std::size_t j = 0; j < side->size(); ++j) {
        const double v = (*side)[j];
        if (v != std::floor(v) || v < -2147483648.0 || v > 2147483647.0)
          fail(std::string(side == &spec.lower ? "lower" : "upper") + "[" + std::to_string(j) +
               "]: expected an integer in [-2147483648, 2147483647] (integer genes), got " + detail::exact_number(v));
      }
  for (std::size_t j = 0; j < spec.lower.size(); ++j)
    if (spec.lower[j] > spec.upper[j])
      fail("bounds[" + std::to_string(j) + "]: expected lower <= upper, got lower " +
           detail::exact_number(spec.lower[j]) + " > upper " + detail::exact_number(spec.upper[j]));
  if (!spec.integer_variables.empty()) {
    if (spec.integer_genes)
      fail("integer_variables: expected none with integer_genes (every gene is an integer already), got " +
           std::to_string(spec.integer_variables.size()) + " marks");
    if (spec.integer_variables.size() != static_cast<std::size_t>(d))
      fail("integer_variables: expected none or " + std::to_string(d) + " marks (dimension), got " +
           std::to_string(spec.integer_variables.size()));
    try {  // the engine's own checks of the marks and of the marked genes' bounds
      Bounds<double> b(spec.lower, spec.upper);
      b.integer = spec.integer_variables;
      b.validate(d);
    } catch (const config_error& e) {
      fail(e.what());
    }
  }
  if (!spec.variable_names.empty() && spec.variable_names.size() != static_cast<std::size_t>(d))
    fail("variable_names: expected none (x[0], x[1], ...) or " + std::to_string(d) + " names (dimension), got " +
         std::to_string(spec.variable_names.size()));
  std::unordered_map<std::string_view, std::size_t> named;  // a result maps names to genes: one each
  for (std::size_t j = 0; j < spec.variable_names.size(); ++j) {
    const std::string& name = spec.variable_names[j];
    if (name.empty()) fail("variable_names[" + std::to_string(j) + "]: expected a name, got an empty one");
    const auto [at, added] = named.emplace(name, j);
    if (!added)
      fail("variable_names[" + std::to_string(j) + "]: '" + name + "' names gene " + std::to_string(at->second) +
           " already; expected d distinct names");
  }
  if (spec.inequality_count < 0)
    fail("inequality_count: expected an integer >= 0, got " + std::to_string(spec.inequality_count));
  if (spec.equality_count < 0)
    fail("equality_count: expected an integer >= 0, got " + std::to_string(spec.equality_count));
  if (spec.integer_genes ? !spec.evaluate_integer : !spec.evaluate)
    fail(spec.integer_genes ? "evaluate_integer: expected a fitness function of integer genes, got none"
                            : "evaluate: expected a fitness function, got none");
}

Result run_batch(const batch_spec& spec, const run_config& cfg, const run_hooks& hooks, int* threads_used) {
  validate_batch_spec(spec);
  check_batch_run(spec, cfg);
  run_config resolved = cfg;
  if (resolved.backend == backend_kind::automatic) resolved.backend = backend_kind::tbb;  // NumPy fitness: host
  int threads = 0;
  const auto solve = [&](auto problem) { return detail::solve_batch(problem, spec, resolved, hooks, threads); };
  using detail::batch_problem;
  Result r = spec.integer_genes
                 ? (spec.sense == Sense::maximize ? solve(batch_problem<Sense::maximize, std::int32_t>{&spec})
                                                  : solve(batch_problem<Sense::minimize, std::int32_t>{&spec}))
                 : (spec.sense == Sense::maximize ? solve(batch_problem<Sense::maximize, double>{&spec})
                                                  : solve(batch_problem<Sense::minimize, double>{&spec}));
  if (threads_used) *threads_used = threads;
  return r;
}

}  // namespace fusedga
