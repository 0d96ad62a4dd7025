// fusedga._core: the native half of the Python package fusedga (docs/python.md). The Python half
// (python/fusedga/) turns solve()'s keyword arguments into config overrides and wraps the results.
#include "bindings.hpp"

NB_MODULE(_core, m) {
  m.doc() = "FusedGA's native core; use the fusedga package, not this module.";
  fusedga::python::bind_errors(m);
  fusedga::python::bind_stats(m);
  fusedga::python::bind_config(m);
  fusedga::python::bind_run(m);
  fusedga::python::bind_batch(m);
}
