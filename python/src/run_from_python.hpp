#pragma once
// One run started from Python, whatever the problem kind: the steps around the engine call.
#include <nanobind/nanobind.h>

#include <functional>
#include <optional>
#include <string>

#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/engine/result.hpp"

namespace fusedga::python {

/// The engine call of a problem kind: fusedga::run for built-in and expression problems (a batch problem's
/// run_batch likewise). Called with the GIL released; `threads_used` receives the backend's thread count.
using native_run = std::function<Result(const run_config& cfg, const run_hooks& hooks, int* threads_used)>;

/// Checkpoints of a run started from Python (solve()'s `checkpoint`, `checkpoint_every`, `checkpoint_every_s`,
/// `resume`): where to write them and how often (as ga-run's --checkpoint options), and which to resume from.
struct checkpoint_request {
  std::optional<std::string> path;     ///< write checkpoints here (atomically); none: no checkpoints
  int every_generations = 0;           ///< >= 0; with neither this nor every_seconds: every 60 s
  double every_seconds = 0;            ///< >= 0
  std::optional<std::string> resume;   ///< continue the run of this checkpoint (the same problem and options)
};

/**
 * With the GIL held: checks the config's output paths and the checkpoint's are writable (and distinct), reads
 * the checkpoint to resume, resolves `backend: auto` (resolve_backend), runs `engine` with the GIL released and
 * python_hooks (callback, Ctrl-C, notices) and the checkpoint hooks, re-raises a callback's exception, writes
 * the config's `output:` files and returns result_to_python's dict (genes as int64 when `integer_genes`). A
 * checkpoint that cannot be written mid-run does not stop the run: the result's notices say so.
 * @throws config_error for an output path that cannot be written, a checkpoint that cannot be read;
 *         checkpoint_error (a config_error) for a checkpoint of another run, naming what differs;
 *         backend_unavailable; what `engine` throws.
 */
nanobind::dict run_from_python(const run_config& parsed, nanobind::object callback, bool integer_genes,
                               const native_run& engine, const checkpoint_request& checkpoint = {});

}  // namespace fusedga::python
