#include "python_hooks.hpp"

#include <Python.h>
#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "fusedga/engine/generation_stats.hpp"

namespace nb = nanobind;

namespace fusedga::python {

python_hooks::python_hooks(nb::object callback) : callback_(std::move(callback)) {
  hooks_.interrupt = &interrupt_;
  hooks_.on_generation = [this](const generation_stats& s) { on_generation(s); };
  hooks_.on_notice = [this](const std::string& notice) {
    const std::lock_guard<std::mutex> lock(notices_mutex_);
    notices_.push_back(notice);
  };
}

void python_hooks::keep_error() {
  interrupt_.store(true);
  if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
    PyErr_Clear();  // Ctrl-C: the run ends after this generation and returns its result
    return;
  }
  nb::python_error e;  // fetches (and clears) the error
  if (!error_) error_ = std::make_exception_ptr(std::move(e));
}

void python_hooks::check_signals() {
  if (PyErr_CheckSignals() != 0) keep_error();
}

void python_hooks::on_generation(const generation_stats& s) {
  nb::gil_scoped_acquire gil;
  check_signals();
  if (error_ || !callback_ || callback_.is_none()) return;
  try {
    const nb::object answer = callback_(s);
    if (answer.is(nb::bool_(false))) interrupt_.store(true);
  } catch (nb::python_error& e) {
    interrupt_.store(true);
    if (e.matches(PyExc_KeyboardInterrupt)) return;
    error_ = std::current_exception();
    return;
  }
  check_signals();  // a signal the callback raised (os.kill) counts for this generation, not the next
}

void python_hooks::rethrow() {
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

std::vector<std::string> python_hooks::notices() const {
  const std::lock_guard<std::mutex> lock(notices_mutex_);
  return notices_;
}

void bind_stats(nb::module_& m) {
  nb::class_<generation_stats>(m, "GenerationStats",
                               "Statistics of one generation's population (after elitism), as passed to solve()'s "
                               "callback. Read-only.")
      .def_ro("generation", &generation_stats::generation, "int: 0 = the initial population")
      .def_ro("best_objective", &generation_stats::best_objective,
              "float: objective of the best individual by the run's ranking, in the problem's sense")
      .def_ro("best_violation", &generation_stats::best_violation, "float: its total violation, >= 0 (0 = feasible)")
      .def_ro("mean_objective", &generation_stats::mean_objective,
              "float: mean objective over the population's non-NaN individuals (NaN if none)")
      .def_ro("feasible_fraction", &generation_stats::feasible_fraction,
              "float in [0, 1]: share of feasible individuals")
      .def_ro("evaluations", &generation_stats::evaluations, "int: cumulative objective evaluations")
      .def_ro("elapsed_s", &generation_stats::elapsed_s, "float: seconds since the run started")
      .def_ro("not_a_number", &generation_stats::not_a_number, "int: this population's NaN individuals")
      .def("__repr__", [](const generation_stats& s) {
        return nb::str(
                   "GenerationStats(generation={}, best_objective={!r}, best_violation={!r}, "
                   "feasible_fraction={!r}, evaluations={}, elapsed_s={!r})")
            .format(s.generation, s.best_objective, s.best_violation, s.feasible_fraction, s.evaluations, s.elapsed_s);
      });
}

}  // namespace fusedga::python
