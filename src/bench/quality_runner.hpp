#pragma once
/// @file quality_runner.hpp
/// `ga-bench --quality SUITE`: every problem × method × seed, run in process
/// through the problem registry (FusedGA methods) or the peers (pagmo2 in
/// process, pymoo as a subprocess), assessed by quality_metrics.hpp.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/quality_budget.hpp"
#include "bench/quality_metrics.hpp"
#include "bench/quality_suite.hpp"

namespace fusedga {

/// What to run.
struct quality_options {
  quality_budget budget;               ///< evaluations per run (one number, or by dimension)
  int seeds = 25;                      ///< seeds 1..seeds
  std::vector<std::string> problems;   ///< problem ids to run (empty = all)
  std::vector<std::string> methods;    ///< method names to run, peers included (empty = all methods, all peers)
  int peer_population = 100;           ///< population of every peer algorithm
  std::string python = "python3";      ///< interpreter for the pymoo peer
  int peer_jobs = 1;                   ///< pymoo runs in parallel processes (1 = one after another, clean timings)
  std::string pymoo_script;            ///< scripts/peers/pymoo_quality.py; empty = no pymoo peer
  std::string work_dir;                ///< where the generated NumPy modules are written (a temporary folder)
  /// FusedGA methods stop once the best feasible objective is within half the success threshold of f* (stop.target),
  /// instead of spending the whole budget: success and time to target are unchanged (a run that reaches the
  /// threshold but not half of it runs on), the final error of a successful run is then at most half the threshold.
  bool stop_at_target = false;
};

/// A problem as the report shows it.
struct quality_problem_info {
  std::string id;
  std::string name;        ///< problem.name of the config
  int dimension = 0;
  std::uint64_t budget = 0;  ///< evaluations per run on this problem (quality_budget::for_dimension)
  int inequalities = 0;
  int equalities = 0;
  double best_known = 0;
  bool maximize = false;
  std::string source;
};

/// A method as the report shows it.
struct quality_method_info {
  std::string name;
  std::string kind;         ///< "fusedga", "pagmo" or "pymoo"
  std::string description;
};

/// Everything measured.
struct quality_results {
  std::string suite;
  quality_budget budget;
  int seeds = 0;
  double tolerance = 1e-4;
  double equality_tolerance = 1e-4;
  std::vector<quality_problem_info> problems;
  std::vector<quality_method_info> methods;
  std::vector<quality_run> runs;
  std::vector<std::string> notes;  ///< one line each: peers not run and why, budget rule, ...
};

/// scripts/peers/pymoo_quality.py of the source tree this ga-bench was built from.
std::string default_pymoo_script();

/**
 * Runs the suite. FusedGA methods: each problem's config loaded with the method's overrides, seed = 1..seeds,
 * `stop.evaluations` = the problem's budget (no generation limit), through fusedga::run (the registry, in process;
 * seeds one after another). Peers: pagmo (when built) and pymoo (when `pymoo_script` is set and Python with pymoo
 * runs), each on the same expressions; a peer that cannot run adds a note instead of runs.
 * @throws config_error for an unknown problem or method name, a config that fails to load, or a problem that is
 *         not an expression problem (peers need its expressions); error when a run fails.
 */
quality_results run_quality(const quality_suite& suite, const quality_options& options,
                            const std::function<void(const std::string&)>& progress = {});

}  // namespace fusedga
