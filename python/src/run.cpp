// run(config, callback): one run of a parsed config through the registry (built-in and expression problems),
// the GIL released while the engine works. run_from_python holds the steps every problem kind shares.
#include <nanobind/stl/string.h>

#include <optional>

#include "bindings.hpp"
#include "fusedga/config/result_writer.hpp"
#include "fusedga/core/error.hpp"
#include "io/atomic_file.hpp"
#include "python_hooks.hpp"
#include "result_convert.hpp"
#include "run_from_python.hpp"

namespace nb = nanobind;

namespace fusedga::python {

nb::dict run_from_python(const run_config& parsed, nb::object callback, bool integer_genes, const native_run& engine) {
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
    r = engine(cfg, hooks.hooks(), &threads);
  }
  hooks.rethrow();
  std::vector<std::string> notices = hooks.notices();
  if (!notice.empty()) notices.insert(notices.begin(), notice);
  const run_info info{cfg.problem.builtin, to_string(cfg.backend), threads, to_string(cfg.precision), cfg.ga.seed};
  if (cfg.output.result) write_file_atomic(*cfg.output.result, result_json(r, info));
  if (cfg.output.history) write_file_atomic(*cfg.output.history, history_csv(r));
  return result_to_python(r, info, integer_genes, notices);
}

void bind_run(nb::module_& m) {
  m.def(
      "run",
      [](const run_config& cfg, nb::object callback) {
        const problem_entry* entry = cfg.problem.expression ? nullptr : find_problem(cfg.problem.builtin);
        return run_from_python(
            cfg, std::move(callback), entry != nullptr && entry->integer_genes,
            [](const run_config& c, const run_hooks& h, int* threads) { return run(c, h, threads); });
      },
      nb::arg("config"), nb::arg("callback").none() = nb::none(),
      "run(config, callback=None) -> dict: solves `config` (a RunConfig) with the GIL released; "
      "`callback(GenerationStats)` runs each generation with the GIL held (False stops the run). Ctrl-C "
      "stops at the end of the generation (stop_reason 'interrupted').");
}

}  // namespace fusedga::python
