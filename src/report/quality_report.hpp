#pragma once
/// @file quality_report.hpp
/// The report of `ga-bench --quality`: report.md (summary, per-problem and
/// time-to-target tables, who reached the target), runs.csv, summary.csv,
/// results.json and convergence plots (median error against evaluations and
/// against wall time, log scale, via gnuplot) — written atomically.

#include <string>

#include "bench/quality_runner.hpp"
#include "report/report_writer.hpp"

namespace fusedga {

/// report.md's text. `notices`: plot notices; `plotted`: whether the convergence images exist.
std::string quality_markdown(const quality_results& r, const std::string& command,
                             const std::vector<std::string>& notices, bool plotted);

/// One row per run: problem, method, seed, feasible, success, objective, violation, error, evaluations, wall_s,
/// evaluations_to_target, seconds_to_target (empty when not reached).
std::string quality_runs_csv(const quality_results& r);

/// One row per problem × method (quality_cell).
std::string quality_summary_csv(const quality_results& r);

/// The summary table alone (problems × methods success rates), Markdown; also printed by ga-bench. Its last two
/// rows count, per method, the problems solved at least once and those solved in every run (a problem the
/// method did not run counts as not solved).
std::string quality_summary_table(const quality_results& r);

/// Writes the whole report directory (report_writer.hpp, write_report_files). @throws as write_report_files.
report_outcome write_quality_report(const quality_results& r, const std::string& dir, const report_options& options);

}  // namespace fusedga
