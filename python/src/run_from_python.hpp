#pragma once
// One run started from Python, whatever the problem kind: the steps around the engine call.
#include <nanobind/nanobind.h>

#include <functional>

#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/engine/result.hpp"

namespace fusedga::python {

/// The engine call of a problem kind: fusedga::run for built-in and expression problems (a batch problem's
/// run_batch likewise). Called with the GIL released; `threads_used` receives the backend's thread count.
using native_run = std::function<Result(const run_config& cfg, const run_hooks& hooks, int* threads_used)>;

/**
 * With the GIL held: checks the config's output paths are writable, resolves `backend: auto`
 * (resolve_backend), runs `engine` with the GIL released and python_hooks (callback, Ctrl-C, notices),
 * re-raises a callback's exception, writes the config's `output:` files and returns result_to_python's dict
 * (genes as int64 when `integer_genes`).
 * @throws config_error for an output path that cannot be written; backend_unavailable; what `engine` throws.
 */
nanobind::dict run_from_python(const run_config& parsed, nanobind::object callback, bool integer_genes,
                               const native_run& engine);

}  // namespace fusedga::python
