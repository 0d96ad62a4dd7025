#pragma once
/// @file registry.hpp
/// Built-in problems by name: the one place where problem types are erased,
/// at the host boundary (pagmo2 style). Kernels never see this layer.

#include <atomic>
#include <functional>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "fusedga/config/run_config.hpp"
#include "fusedga/engine/result.hpp"

namespace fusedga {

/// A numeric parameter of a built-in problem (`problem.params` in YAML).
struct param_spec {
  std::string name;
  double default_value;
  double min;
  double max;
  bool integer;
  std::string help;
};

/// Host-side hooks for a run (progress, interruption, one-line notices).
struct run_hooks {
  std::function<void(const generation_stats&)> on_generation;
  const std::atomic<bool>* interrupt = nullptr;
  /// One-line notices, e.g. "problem.engine auto: no C++ compiler (...); using the interpreter".
  std::function<void(const std::string&)> on_notice;
  /// Checkpoints to write (ga_options::checkpoint); `problem_id` is filled in from the config.
  checkpoint_options checkpoint;
  /// When set: resume the run from this checkpoint (solve's resuming overload); `resume_source` names it.
  std::istream* resume = nullptr;
  std::string resume_source;
  /// When set: the islands run over these ranks (island_options::transport; ga-run under mpirun), not owned.
  islands::any_transport* transport = nullptr;
};

/// A registered built-in problem.
struct problem_entry {
  std::string name;          ///< e.g. "engineering/pressure-vessel"
  std::string description;   ///< one line
  std::vector<param_spec> params;
  bool integer_genes = false;
  /// Real genes some of which are integer variables (an expression problem's `integer: true`): every real-gene
  /// algorithm runs, the engine keeping those genes integral (Bounds::integer).
  bool integer_variables = false;
  bool constrained = false;  ///< has inequality or equality constraints (at its default parameters)
  /// Evaluated a population at a time (config/batch_entry.hpp): no gradient repair, which needs per-individual
  /// constraints.
  bool population_evaluated = false;
  /// The number of genes d at these parameters (validated). `ga.algorithm: auto` sizes the population by it.
  std::function<int(const std::map<std::string, double>& params)> dimension;
  /// Solves it with `cfg` (problem params already validated). Returns the Result; backend threads in `threads_used`.
  std::function<Result(const run_config& cfg, const run_hooks& hooks, int& threads_used)> run;
};

/// How an expression problem will be evaluated, and why (ga-run --explain).
struct expression_plan {
  expression_engine engine = expression_engine::interpreter;  ///< jit or interpreter, never automatic
  std::string reason;                                           ///< e.g. "auto: C++ compiler found (g++ ...)"
  bool gpu = false;  ///< the GPU JIT (backend cuda, or auto with a usable GPU): NVRTC + nvJitLink
};

/**
 * Resolves `cfg.problem.engine` for an expression problem. On the GPU
 * (`backend: cuda`, or `auto` with a usable GPU, in a build with the CUDA
 * backend) it is the GPU JIT; on the CPU backends `auto` becomes the CPU JIT
 * when a C++ compiler is usable, else the interpreter.
 * @throws config_error when `jit` is requested and no compiler is usable, or
 *         when `interpreter` is requested with `backend: cuda` (the
 *         interpreter runs on the CPU).
 */
expression_plan plan_expression(const run_config& cfg);

/**
 * The entry that runs `cfg`: the built-in named by `cfg.problem.builtin`, or
 * for an expression problem an entry bound to its program (its `run`
 * JIT-compiles or interprets it as `plan_expression` says).
 * @throws config_error for an unknown built-in problem.
 */
problem_entry entry_for(const run_config& cfg);

/// All built-in problems, sorted by name.
const std::vector<problem_entry>& builtin_problems();

/// Their names, in the same order (for messages and "did you mean").
std::vector<std::string> builtin_problem_names();

/// The entry named `name`, or nullptr.
const problem_entry* find_problem(const std::string& name);

/**
 * The backend that `requested` means in this build and on this machine:
 * `automatic` becomes `cuda` when the CUDA backend is built and a GPU is
 * usable, else `tbb` with a one-line `notice` saying why. Probes the GPU once
 * per process (cuda_device_status).
 * @throws backend_unavailable for `cuda` when it is not built or no GPU is usable (the message names the reason and
 *         lists the built backends).
 */
backend_kind resolve_backend(backend_kind requested, std::string* notice = nullptr);

/**
 * The backend a run of `cfg` uses: resolve_backend(cfg.backend), except that
 * `automatic` stays on the CPU (tbb, with a `notice`) for an expression
 * problem evaluated by the interpreter, which runs on the CPU only (the JITs
 * run on the GPU too). Used by `run` and ga-run alike.
 * @throws backend_unavailable as resolve_backend.
 */
backend_kind resolve_backend(const run_config& cfg, std::string* notice = nullptr);

/// Whether this build has the CUDA backend (FUSEDGA_WITH_CUDA).
bool cuda_built();

/// Empty when a GPU is usable by the CUDA backend, else why not ("this build has no CUDA backend", "no NVIDIA
/// driver is installed ...", ...). Probes once per process.
std::string cuda_unavailable_reason();

/// How many GPUs the CUDA runtime sees (0 without a usable driver, or in a build without CUDA). Probes once.
int cuda_device_count();

/// One line describing the GPU the cuda backend runs on (name, compute capability, memory, driver), or "none: reason".
std::string cuda_device_line();

/// Runs `cfg` through the registry: resolves `backend: auto`, checks the
/// backend is built (@throws backend_unavailable listing the built ones) and
/// calls the entry. @throws config_error for an unknown problem.
Result run(const run_config& cfg, const run_hooks& hooks = {}, int* threads_used = nullptr);

/// Backends built into this binary, e.g. {"serial", "tbb"}.
std::vector<std::string> built_backends();

}  // namespace fusedga
