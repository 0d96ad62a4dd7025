#include "fusedga/config/registry.hpp"

#include <algorithm>

#include "fusedga/core/error.hpp"
#include "fusedga/expr/parse.hpp"
#include "registry/entry.hpp"
#if defined(FUSEDGA_WITH_CUDA)
#include "fusedga/backends/cuda/device.hpp"
#endif

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

std::vector<std::string> builtin_problem_names() {
  std::vector<std::string> names;
  for (const auto& e : builtin_problems()) names.push_back(e.name);
  return names;
}

const problem_entry* find_problem(const std::string& name) {
  for (const auto& e : builtin_problems())
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<std::string> built_backends() {
  if (cuda_built()) return {"serial", "tbb", "cuda"};
  return {"serial", "tbb"};
}

#if defined(FUSEDGA_WITH_CUDA)
bool cuda_built() { return true; }
namespace {
const cuda_device_status& device_status() {
  static const cuda_device_status status = probe_cuda_device(0);  // once per process
  return status;
}
}  // namespace
std::string cuda_unavailable_reason() { return device_status().usable ? std::string() : device_status().reason; }
std::string cuda_device_line() { return describe(device_status()); }
int cuda_device_count() { return device_status().device_count; }
#else
bool cuda_built() { return false; }
std::string cuda_unavailable_reason() { return "this build has no CUDA backend"; }
std::string cuda_device_line() { return "none: no GPU backend in this build"; }
int cuda_device_count() { return 0; }
#endif

backend_kind resolve_backend(backend_kind requested, std::string* notice) {
  if (requested == backend_kind::cuda) {
    if (!cuda_built())
      throw backend_unavailable("backend cuda: this build has no CUDA backend (built backends: serial, tbb)");
    const std::string why = cuda_unavailable_reason();
    if (!why.empty())
      throw backend_unavailable("backend cuda: no usable GPU: " + why + " (built backends: serial, tbb, cuda)");
    return requested;
  }
  if (requested == backend_kind::automatic) {
    const std::string why = cuda_unavailable_reason();
    if (why.empty()) return backend_kind::cuda;
    if (notice) *notice = cuda_built() ? "backend auto: no usable GPU (" + why + "); using tbb"
                                       : "backend auto: no CUDA backend in this build; using tbb";
    return backend_kind::tbb;
  }
  return requested;
}

backend_kind resolve_backend(const run_config& cfg, std::string* notice) {
  backend_kind b;
  try {
    b = resolve_backend(cfg.backend, notice);
  } catch (const backend_unavailable& e) {  // located at the backend key (or --backend / --set)
    const std::string what = e.what();
    throw backend_unavailable(cfg.located("backend") + (what.rfind("backend ", 0) == 0 ? what.substr(8) : what));
  }
  if (cfg.backend == backend_kind::automatic && b == backend_kind::cuda && cfg.problem.expression &&
      cfg.problem.engine == expression_engine::interpreter) {
    if (notice) *notice = "backend auto: the expression interpreter runs on the CPU backends; using tbb";
    return backend_kind::tbb;
  }
  return b;
}

problem_entry entry_for(const run_config& cfg) {
  if (cfg.problem.expression) return detail::make_expression_entry(cfg);
  const problem_entry* entry = find_problem(cfg.problem.builtin);
  if (!entry) throw config_error("problem.builtin: unknown problem '" + cfg.problem.builtin + "'");
  return *entry;
}

namespace detail {
std::string checkpoint_problem_id(const run_config& cfg) {
  if (cfg.problem.expression) return "expression " + cfg.problem.builtin + "\n" + expr::describe(*cfg.problem.expression);
  std::string id = "built-in " + cfg.problem.builtin;
  for (const auto& [name, value] : cfg.problem.params) id += " " + name + "=" + detail::exact_number(value);
  return id;
}
}  // namespace detail

Result run(const run_config& cfg, const run_hooks& hooks, int* threads_used) {
  const problem_entry entry = entry_for(cfg);
  run_config resolved = cfg;
  resolved.backend = resolve_backend(cfg);
  int threads = 0;
  Result r = entry.run(resolved, hooks, threads);
  if (threads_used) *threads_used = threads;
  return r;
}

}  // namespace fusedga
