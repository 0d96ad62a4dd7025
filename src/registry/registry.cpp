#include "fusedga/config/registry.hpp"

#include <algorithm>

#include "fusedga/core/error.hpp"
#include "registry/entry.hpp"

namespace fusedga {

const std::vector<problem_entry>& builtin_problems() {
  static const std::vector<problem_entry> entries = [] {
    std::vector<problem_entry> v;
    detail::register_seed(v);
    detail::register_engineering(v);
    detail::register_classic(v);
    std::sort(v.begin(), v.end(), [](const problem_entry& a, const problem_entry& b) { return a.name < b.name; });
    return v;
  }();
  return entries;
}

const problem_entry* find_problem(const std::string& name) {
  for (const auto& e : builtin_problems())
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<std::string> built_backends() { return {"serial", "tbb"}; }

backend_kind resolve_backend(backend_kind requested, std::string* notice) {
  if (requested == backend_kind::cuda)
    throw backend_unavailable("backend cuda: this build has no CUDA backend (built backends: serial, tbb)");
  if (requested == backend_kind::automatic) {
    if (notice) *notice = "backend auto: no CUDA backend in this build; using tbb";
    return backend_kind::tbb;
  }
  return requested;
}

problem_entry entry_for(const run_config& cfg) {
  if (cfg.problem.expression) return detail::make_expression_entry(cfg);
  const problem_entry* entry = find_problem(cfg.problem.builtin);
  if (!entry) throw config_error("problem.builtin: unknown problem '" + cfg.problem.builtin + "'");
  return *entry;
}

Result run(const run_config& cfg, const run_hooks& hooks, int* threads_used) {
  const problem_entry entry = entry_for(cfg);
  run_config resolved = cfg;
  resolved.backend = resolve_backend(cfg.backend, nullptr);
  int threads = 0;
  Result r = entry.run(resolved, hooks, threads);
  if (threads_used) *threads_used = threads;
  return r;
}

}  // namespace fusedga
