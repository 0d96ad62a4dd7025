// run(config, callback): one run of a parsed config through the registry (built-in and expression problems),
// the GIL released while the engine works. The steps around the engine call (backend resolution, hooks,
// outputs, result conversion) are what a batch-problem run shares.
#include <optional>

#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "fusedga/config/registry.hpp"
#include "fusedga/config/result_writer.hpp"
#include "fusedga/core/error.hpp"
#include "io/atomic_file.hpp"
#include "python_hooks.hpp"
#include "result_convert.hpp"

namespace nb = nanobind;

namespace fusedga::python {

namespace {

/// Writes the config's `output:` files (result JSON, history CSV), as ga-run does.
void write_outputs(const run_config& cfg, const Result& r, const run_info& info) {
  if (cfg.output.result) write_file_atomic(*cfg.output.result, result_json(r, info));
  if (cfg.output.history) write_file_atomic(*cfg.output.history, history_csv(r));
}

nb::dict run_config_from_python(const run_config& parsed, nb::object callback) {
  run_config cfg = parsed;
  for (const auto& path : {cfg.output.result, cfg.output.history})
    if (path) {  // before the run, as ga-run: a run must not end by failing to write what it found
      try {
        check_writable(*path);
      } catch (const error& e) {
        throw config_error(std::string(e.what()) + " (checked before running)");
      }
    }
  python_hooks hooks(std::move(callback));
  std::string notice;
  Result r;
  int threads = 1;
  {
    nb::gil_scoped_release release;
    cfg.backend = resolve_backend(cfg, &notice);
    r = run(cfg, hooks.hooks(), &threads);
  }
  hooks.rethrow();
  std::vector<std::string> notices = hooks.notices();
  if (!notice.empty()) notices.insert(notices.begin(), notice);
  const run_info info{cfg.problem.builtin, to_string(cfg.backend), threads, to_string(cfg.precision), cfg.ga.seed};
  write_outputs(cfg, r, info);
  const bool integer = !cfg.problem.expression && find_problem(cfg.problem.builtin) &&
                       find_problem(cfg.problem.builtin)->integer_genes;
  return result_to_python(r, info, integer, notices);
}

}  // namespace

void bind_run(nb::module_& m) {
  m.def("run", &run_config_from_python, nb::arg("config"), nb::arg("callback").none() = nb::none(),
        "run(config, callback=None) -> dict: solves `config` (a RunConfig) with the GIL released; "
        "`callback(GenerationStats)` runs each generation with the GIL held (False stops the run). Ctrl-C "
        "stops at the end of the generation (stop_reason 'interrupted').");
}

}  // namespace fusedga::python
