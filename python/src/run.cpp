// run(config, callback): one run of a parsed config through the registry (built-in and expression problems),
// the GIL released while the engine works. run_from_python holds the steps every problem kind shares.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <filesystem>
#include <mutex>
#include <optional>
#include <sstream>

#include "bindings.hpp"
#include "config/checkpoint_file.hpp"
#include "fusedga/config/result_writer.hpp"
#include "fusedga/core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/distinct_files.hpp"
#include "io/read_file.hpp"
#include "python_hooks.hpp"
#include "result_convert.hpp"
#include "run_from_python.hpp"

namespace nb = nanobind;

namespace fusedga::python {

nb::dict run_from_python(const run_config& parsed, nb::object callback, bool integer_genes, const native_run& engine,
                         const checkpoint_request& checkpoint) {
  run_config cfg = parsed;
  // As ga-run: no output may replace another, the config file or the checkpoint resumed from.
  std::error_code no_file;
  check_distinct_files({cfg.output.result, cfg.output.history, checkpoint.path.value_or(""),
                        std::filesystem::is_regular_file(cfg.source, no_file) ? cfg.source : "",
                        checkpoint.resume.value_or("")},
                       {"the result (output.result)", "the history (output.history)", "solve(checkpoint=...)"});
  for (const auto& path : {cfg.output.result, cfg.output.history, checkpoint.path})
    if (path) {  // before the run, as ga-run: a run must not end by failing to write what it found
      try {
        check_writable(*path);
      } catch (const error& e) {
        throw config_error(std::string(e.what()) + " (checked before running)");
      }
    }
  std::istringstream resume_stream(checkpoint.resume ? read_whole_file(*checkpoint.resume, "checkpoint") : "");
  python_hooks hooks(std::move(callback));
  run_hooks with_checkpoints = hooks.hooks();
  std::mutex failed_mutex;  // the engine calls write on its own thread, with the GIL released
  std::string checkpoint_failed;
  if (checkpoint.path)
    with_checkpoints.checkpoint = checkpoints_to_file(*checkpoint.path, checkpoint.every_generations,
                                                      checkpoint.every_seconds, [&](const std::string& message) {
                                                        const std::lock_guard<std::mutex> lock(failed_mutex);
                                                        if (checkpoint_failed.empty())
                                                          checkpoint_failed = "checkpoint not written: " + message;
                                                      });
  if (checkpoint.resume) {
    with_checkpoints.resume = &resume_stream;
    with_checkpoints.resume_source = *checkpoint.resume;
  }
  std::string notice;
  Result r;
  int threads = 1;
  {
    nb::gil_scoped_release release;
    cfg.backend = resolve_backend(cfg, &notice);
    r = engine(cfg, with_checkpoints, &threads);
  }
  hooks.rethrow();
  std::vector<std::string> notices = hooks.notices();
  if (!notice.empty()) notices.insert(notices.begin(), notice);
  if (!checkpoint_failed.empty()) notices.push_back(checkpoint_failed);
  const run_info info{cfg.problem.builtin, to_string(cfg.backend), threads, to_string(cfg.precision), cfg.ga.seed};
  if (cfg.output.result) write_file_atomic(*cfg.output.result, result_json(r, info));
  if (cfg.output.history) write_file_atomic(*cfg.output.history, history_csv(r));
  // ga-run's exit 1 after writing the outputs: here a warning, after them too (under -W error it raises)
  if (const std::string unusable = unusable_result_text(r); !unusable.empty()) {
    notices.push_back(unusable);
    if (PyErr_WarnEx(PyExc_RuntimeWarning, unusable.c_str(), 1) < 0) throw nb::python_error();
  }
  return result_to_python(r, info, integer_genes, notices);
}

void bind_run(nb::module_& m) {
  m.def(
      "run",
      [](const run_config& cfg, nb::object callback, std::optional<std::string> checkpoint, int every,
         double every_s, std::optional<std::string> resume) {
        const problem_entry* entry = cfg.problem.expression ? nullptr : find_problem(cfg.problem.builtin);
        return run_from_python(
            cfg, std::move(callback), entry != nullptr && entry->integer_genes,
            [](const run_config& c, const run_hooks& h, int* threads) { return run(c, h, threads); },
            {std::move(checkpoint), every, every_s, std::move(resume)});
      },
      nb::arg("config"), nb::arg("callback").none() = nb::none(), nb::arg("checkpoint").none() = nb::none(),
      nb::arg("checkpoint_every") = 0, nb::arg("checkpoint_every_s") = 0.0, nb::arg("resume").none() = nb::none(),
      "run(config, callback=None, checkpoint=None, checkpoint_every=0, checkpoint_every_s=0.0, resume=None) -> "
      "dict: solves `config` (a RunConfig) with the GIL released; `callback(GenerationStats)` runs each "
      "generation with the GIL held (False stops the run). Ctrl-C stops at the end of the generation "
      "(stop_reason 'interrupted'). `checkpoint`: write checkpoints to this path; `resume`: continue the run of "
      "this checkpoint.");
}

}  // namespace fusedga::python
