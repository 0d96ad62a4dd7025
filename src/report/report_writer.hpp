#pragma once
/// @file report_writer.hpp
/// `ga-bench --report DIR`: a whole report directory — report.md,
/// results.csv, results.json, and the plots (time, speedup, roofline as PNG
/// and SVG, with plots.gp and its .dat files) — written all at once.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench/bench_record.hpp"

namespace fusedga {

/// How to write a report directory.
struct report_options {
  std::string command;  ///< the command line that produced the report, quoted in report.md
  /// gnuplot executable; empty = $FUSEDGA_GNUPLOT when set, else "gnuplot" in PATH (plot_gnuplot.hpp).
  /// A path that is not an executable means "no gnuplot": the report is written without plots, with a notice.
  std::string gnuplot;
  bool plots = true;  ///< false: no plots at all (and no notice beyond saying so)
};

/// What was written.
struct report_outcome {
  std::string dir;                    ///< the report directory
  std::vector<std::string> files;     ///< file names written into it, report.md last
  bool plotted = false;               ///< gnuplot drew every plot it was given
  std::vector<std::string> notices;   ///< one line each: plots missing and why
};

/**
 * Checks, before anything is measured, that `dir` can become a report
 * directory: an existing directory, or a new name in an existing directory,
 * writable either way.
 * @throws config_error naming the path and what is wrong.
 */
void check_report_dir(const std::string& dir);

/**
 * Writes the report of `report` into `dir` (created when missing; files of
 * a previous report there are replaced, unrelated files kept). Derived row
 * metrics are (re)applied to a copy first. Everything is written into a
 * private staging directory beside `dir`, unrelated files of `dir` are hard
 * linked into it, and it replaces `dir` in one step (report_staging.hpp), so
 * a reader or a kill at any instant sees the old report or the new one, never
 * a mix; staging directories of killed writers are removed by the next one.
 * A failure while writing, or a report file name in `dir` taken by something
 * that is not a plain file, leaves `dir` unchanged. Plot outputs of a
 * previous run that this run does not produce go with the old directory, so
 * plots never disagree with the data.
 * A missing or failing gnuplot is not an error: report.md then carries a notice.
 * @throws config_error as check_report_dir; error when writing or moving fails.
 */
report_outcome write_report_dir(const bench_report& report, const std::string& dir, const report_options& options = {});

}  // namespace fusedga

namespace fusedga {

/// A report directory's contents, for write_report_files.
struct report_files {
  std::vector<std::pair<std::string, std::string>> files;  ///< name -> content (data files, CSV, JSON, plots.gp)
  std::string plot_script;                                 ///< e.g. "plots.gp" (one of `files`); empty = no plots
  std::vector<std::string> images;                         ///< the images the script draws
  std::vector<std::string> known_outputs;                  ///< every name such a report may hold (stale ones removed)
  /// The index file's name and content, given the plot notices and whether the plots were drawn; written last.
  std::string index_name = "report.md";
  std::function<std::string(const std::vector<std::string>& notices, bool plotted)> index;
};

/**
 * Writes `in` into `dir` the way write_report_dir does (staging directory, gnuplot run there, then the whole
 * directory swapped in at once, unrelated files kept, known outputs of an earlier run dropped), for reports
 * other than the speed report (e.g. `ga-bench --quality`).
 * @throws config_error as check_report_dir; error when writing or moving fails.
 */
report_outcome write_report_files(const std::string& dir, const report_files& in, const report_options& options = {});

}  // namespace fusedga
