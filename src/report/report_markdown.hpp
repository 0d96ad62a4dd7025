#pragma once
/// @file report_markdown.hpp
/// report.md of a ga-bench report directory: the environment header, the
/// tiers explained, the seed documents' tables (time per call by population
/// size, then speedups, individuals/s, GB/s, % of copy bandwidth and
/// GFLOP/s per row), a "what this means" paragraph generated from the
/// numbers, the plots (or a notice why there are none) and the notes.

#include <string>
#include <vector>

#include "bench/bench_record.hpp"

namespace fusedga {

/// What report.md says beyond the report itself.
struct markdown_options {
  std::string command;                   ///< the command line that produced the report (shown verbatim); may be empty
  std::vector<std::string> plots;        ///< plots drawn, by base name ("time", "speedup", "roofline"): SVG embedded, PNG linked
  std::vector<std::string> plot_notices; ///< one line each: why plots (or one of them) are missing
  std::string plotter;                   ///< e.g. "gnuplot 5.4 patchlevel 4", listed with the libraries when not empty
};

/**
 * The Markdown report for `r` (derived metrics applied: report_metrics.hpp).
 * Every configuration (tier, backend, threads) of every workload appears in
 * the tables with its label (row_label); noisy rows carry "†", explained
 * under the table. Pure; ends with a newline.
 */
std::string format_report_markdown(const bench_report& r, const markdown_options& options);

/**
 * The "what this means" paragraph alone: which configuration is fastest and
 * by how much, memory- or compute-bound (roofline position against the
 * measured ridge point), what fusion and threads bring, from which size the
 * parallel tiers (and the GPU, when present) win, what a generation costs
 * relative to an evaluation, and after how many generations a JIT compile
 * pays off. Sentences whose numbers are missing are left out or say why.
 */
std::string what_this_means(const bench_report& r);

/// Milliseconds as a human time: "850 ns", "12.3 µs", "4.56 ms", "1.23 s".
std::string human_time_ms(double ms);

/// An integer with thousands separators: 1000000 -> "1,000,000".
std::string with_commas(std::size_t n);

}  // namespace fusedga
