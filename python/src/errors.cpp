// FusedGA's exception families as Python exceptions: what ga-run reports as a usage error (exit 2) is a
// ConfigError (a ValueError), an unavailable backend a BackendUnavailable (a ConfigError), an interrupted JIT
// compile a KeyboardInterrupt; other fusedga::error and std::exception become RuntimeError (nanobind's default).
#include <Python.h>

#include "bindings.hpp"
#include "fusedga/core/error.hpp"

namespace nb = nanobind;

namespace fusedga::python {

namespace {

PyObject* config_error_type = nullptr;
PyObject* backend_unavailable_type = nullptr;

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const backend_unavailable& e) {
    PyErr_SetString(backend_unavailable_type, e.what());
  } catch (const config_error& e) {  // checkpoint_error included
    PyErr_SetString(config_error_type, e.what());
  } catch (const expression_error& e) {  // a malformed expression problem is a config error, as in ga-run
    PyErr_SetString(config_error_type, e.what());
  } catch (const interrupted& e) {
    PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
  }
}

}  // namespace

void bind_errors(nb::module_& m) {
  config_error_type = PyErr_NewExceptionWithDoc(
      "fusedga.ConfigError",
      "An invalid option, config file or problem. The message says where (the solve() argument, "
      "file:line:col, or Expression field), the key path and what was expected.",
      PyExc_ValueError, nullptr);
  backend_unavailable_type = PyErr_NewExceptionWithDoc(
      "fusedga.BackendUnavailable",
      "The requested backend was not built into this package or cannot run here (e.g. backend='cuda' without "
      "a GPU); the message says why and lists the backends built.",
      config_error_type, nullptr);
  m.attr("ConfigError") = nb::borrow(config_error_type);
  m.attr("BackendUnavailable") = nb::borrow(backend_unavailable_type);
  nb::register_exception_translator(translate);
}

}  // namespace fusedga::python
