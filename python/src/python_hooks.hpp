#pragma once
// The run_hooks of one run started from Python: the per-generation callback, Ctrl-C and notices, with the GIL
// taken only while Python code runs. Shared by every problem kind (built-in, YAML, expression, batch).
#include <nanobind/nanobind.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include "fusedga/config/registry.hpp"

namespace fusedga::python {

/**
 * Owns the hooks of one run. Construct and destroy it with the GIL held; run the engine with the GIL released
 * (nanobind::gil_scoped_release) and `hooks()`.
 *
 * Each generation, `on_generation` takes the GIL, runs Python's pending signal handlers (PyErr_CheckSignals:
 * Ctrl-C raises KeyboardInterrupt there, through Python's own SIGINT handler; no C handler is installed) and
 * calls `callback(GenerationStats)`. A KeyboardInterrupt (from a signal or raised by the callback) or a
 * callback returning `False` sets the interrupt flag: the engine stops after that generation with stop reason
 * "interrupted". Any other exception from the callback also stops the run and is re-raised by `rethrow()`.
 * Not thread-safe beyond that: one run per object.
 */
class python_hooks {
 public:
  /// `callback`: None, or a callable taking a GenerationStats; its return value `False` stops the run.
  explicit python_hooks(nanobind::object callback);
  python_hooks(const python_hooks&) = delete;
  python_hooks& operator=(const python_hooks&) = delete;

  /// The hooks to pass to fusedga::run (valid while this object lives).
  const run_hooks& hooks() const { return hooks_; }

  /// With the GIL held: runs pending signal handlers; KeyboardInterrupt (swallowed) or another exception (kept
  /// for rethrow) stops the run at the end of this generation. For evaluators that run Python code too.
  void check_signals();

  /// With the GIL held, after the run: re-raises the exception a callback or signal handler raised, if any.
  void rethrow();

  /// Whether the run was asked to stop (Ctrl-C, a callback returning False, or an exception).
  bool stop_requested() const { return interrupt_.load(); }

  /// The one-line notices the run emitted (e.g. "problem.engine auto: ... using the interpreter").
  std::vector<std::string> notices() const;

 private:
  void on_generation(const generation_stats& s);  // takes the GIL
  void keep_error();                              // GIL held, a Python error set: keep it or swallow Ctrl-C

  nanobind::object callback_;
  std::atomic<bool> interrupt_{false};
  std::exception_ptr error_;
  mutable std::mutex notices_mutex_;
  std::vector<std::string> notices_;
  run_hooks hooks_;
};

}  // namespace fusedga::python
