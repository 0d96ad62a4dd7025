#pragma once
// The parts of the module fusedga._core, each registered by one function (module.cpp calls them in order).
#include <nanobind/nanobind.h>

namespace fusedga::python {

/// ConfigError, BackendUnavailable and the translator of FusedGA's C++ exceptions (errors.cpp).
void bind_errors(nanobind::module_& m);
/// GenerationStats, the per-generation statistics passed to callbacks (python_hooks.cpp).
void bind_stats(nanobind::module_& m);
/// RunConfig, parse_config, problems() and the build facts (config.cpp).
void bind_config(nanobind::module_& m);
/// run(config, callback): one run through the registry (run.cpp).
void bind_run(nanobind::module_& m);
/// BatchSpec, parse_batch_config and run_batch: population-batch problems with a Python fitness (batch.cpp).
void bind_batch(nanobind::module_& m);

}  // namespace fusedga::python
