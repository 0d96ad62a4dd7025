#pragma once
/// @file quality_metrics.hpp
/// What one run of `ga-bench --quality` reached, and the aggregates per
/// problem × method (docs/quality.md, "Measure"). Pure functions over
/// best-so-far samples, the same for FusedGA runs and for peers.
///
/// Measure (CEC convention, Kumar et al. 2020; Liang et al. 2006):
///  - error = f(x_best) − f* for minimization (f* − f(x_best) for maximization),
///    where x_best is the best point found by the feasibility rules; +inf while no feasible point was found;
///  - success = feasible and error <= tolerance · max(1, |f*|) (relative for |f*| > 1, absolute below), which
///    also counts an error below 0 (a point better than f* within the equality tolerance) as a success;
///  - time to target = the evaluations and wall time of the first sample at which success held.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fusedga {

/// The best-so-far state of a run after `evaluations` evaluations (one sample per generation, in order).
struct quality_sample {
  std::uint64_t evaluations = 0;
  double elapsed_s = 0;
  double objective = 0;  ///< of the best point so far (feasibility rules)
  double violation = 0;  ///< its total violation; 0 = feasible
};

/// One run, assessed.
struct quality_run {
  std::string problem;
  std::string method;
  std::uint64_t seed = 0;
  bool feasible = false;
  double objective = 0;                          ///< final best objective
  double violation = 0;                          ///< its violation
  double error = 0;                              ///< final error (+inf when infeasible)
  bool success = false;
  std::uint64_t evaluations = 0;                 ///< evaluations used by the run
  double wall_s = 0;                             ///< wall time of the run
  std::optional<std::uint64_t> evaluations_to_target;
  std::optional<double> seconds_to_target;
  std::vector<quality_sample> trace;             ///< best-so-far per sample (the input reduced by the feasibility rules)
  std::vector<double> trace_error;               ///< the error of each trace sample (+inf while infeasible)
};

/// The success threshold tolerance · max(1, |f*|).
double success_threshold(double best_known, double tolerance);

/// error of (objective, violation) against f*: +inf when violation > 0, else f − f* (minimize) or f* − f (maximize).
double quality_error(double objective, double violation, double best_known, bool maximize);

/**
 * Assesses one run from its samples (in order of evaluations; the last one is
 * the final state). Samples are reduced to the best so far by the
 * feasibility rules, so a trace of per-generation population bests is
 * accepted too. `evaluations` and `wall_s` of the run are those of the last
 * sample unless given (> 0).
 * @throws std::invalid_argument for an empty `samples`.
 */
quality_run assess_run(std::string problem, std::string method, std::uint64_t seed,
                       const std::vector<quality_sample>& samples, double best_known, bool maximize, double tolerance,
                       std::uint64_t evaluations = 0, double wall_s = 0);

/// The aggregate of the runs of one problem × method.
struct quality_cell {
  std::string problem;
  std::string method;
  int runs = 0;
  int successes = 0;
  int feasible = 0;
  double success_rate = 0;                     ///< successes / runs
  double feasible_rate = 0;                    ///< feasible / runs
  double median_error = 0;                     ///< over all runs (+inf counts as the worst)
  double best_error = 0;                       ///< smallest error (+inf when no run was feasible)
  std::optional<double> median_evaluations_to_target;  ///< over successful runs
  std::optional<double> median_seconds_to_target;      ///< over successful runs
};

/// Median of `v` (mean of the two middle values for an even count; +inf entries sort last). @pre !v.empty().
double median_of(std::vector<double> v);

/// Aggregates `runs` per (problem, method) in order of first appearance.
std::vector<quality_cell> aggregate_runs(const std::vector<quality_run>& runs);

/// One point of a convergence curve: the median best-so-far error across seeds at `x` (evaluations or seconds).
struct curve_point {
  double x = 0;
  double median_error = 0;  ///< +inf while fewer than half the runs were feasible
};

/**
 * The median best-so-far error across `runs` (of one problem × method) at
 * `points` log-spaced values of evaluations (by_time false) or of seconds (by_time true), from the
 * smallest first sample to the largest last one. A run's error at x is that of its last sample at or before x
 * (+inf before its first sample).
 */
std::vector<curve_point> convergence_curve(const std::vector<const quality_run*>& runs, bool by_time, int points = 40);

}  // namespace fusedga
