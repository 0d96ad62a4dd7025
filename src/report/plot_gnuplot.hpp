#pragma once
/// @file plot_gnuplot.hpp
/// The report's plots, drawn by gnuplot (Debian package gnuplot-nox) from
/// generated data files and a generated script, so a reader can redraw or
/// restyle them with `gnuplot plots.gp` in the report directory:
///  - time.{png,svg}: time per call against population size, log–log, one
///    line per configuration, min–max as error bars; evaluation and full generation side by side;
///  - speedup.{png,svg}: speedup over the slowest configuration at the largest size, per workload;
///  - roofline.{png,svg}: achieved GFLOP/s of each evaluation row at the
///    largest size against its arithmetic intensity, under the measured copy
///    bandwidth and peak FLOP/s lines (only when FLOPs per evaluation are known).

#include <string>
#include <utility>
#include <vector>

#include "bench/bench_record.hpp"

namespace fusedga {

/// What gnuplot needs and what it is expected to draw.
struct plot_inputs {
  std::vector<std::pair<std::string, std::string>> files;  ///< file name -> content (data files and plots.gp)
  std::vector<std::string> images;   ///< the image file names plots.gp writes, e.g. "time.svg"
  std::vector<std::string> omitted;  ///< one line per plot not drawn and why (e.g. no FLOP count)
};

/**
 * The data files and script for `r` (rows with derived metrics, report_metrics.hpp).
 * Pure; the script refers to the data files by relative name. No plot at all
 * for a report without rows (then `files` and `images` are empty).
 */
plot_inputs gnuplot_inputs(const bench_report& r);

/**
 * The gnuplot executable to use: `override_path` when not empty, else the
 * environment variable FUSEDGA_GNUPLOT when set and not empty, else
 * "gnuplot" looked up in PATH. Returns the path when it names an executable
 * file, else an empty string.
 */
std::string find_gnuplot(const std::string& override_path = "");

/// How a gnuplot run went.
struct gnuplot_run {
  bool ok = false;          ///< exit status 0 and every expected image present and not empty
  std::string version;      ///< e.g. "5.4 patchlevel 4" (printed by the script), when it ran
  std::string message;      ///< why not ok: exit status and the end of gnuplot's output
};

/**
 * Runs `gnuplot script` with `dir` as working directory (posix_spawn with an
 * argument vector, no shell; stdin /dev/null, output captured in a
 * temporary log in `dir` that is removed again), waits up to `timeout_s`
 * seconds (then kills it), and checks that `images` exist in `dir`.
 * Never throws for gnuplot failures (they are reported in the result);
 * throws error when `dir` is not writable.
 */
gnuplot_run run_gnuplot(const std::string& gnuplot, const std::string& dir, const std::string& script,
                        const std::vector<std::string>& images, double timeout_s = 120);

}  // namespace fusedga
