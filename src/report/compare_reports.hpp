#pragma once
/// @file compare_reports.hpp
/// `ga-bench --compare A.json B.json`: the per-row ratio between two saved
/// runs (before/after a change, a CPU machine against a GPU machine).

#include <cstddef>
#include <string>
#include <vector>

#include "bench/bench_labels.hpp"

namespace fusedga {

/// The part of a saved row that comparing needs.
struct saved_row {
  bench_tier tier = bench_tier::fused;
  bench_workload workload = bench_workload::eval;
  backend_kind backend = backend_kind::serial;
  int threads = 1;
  std::size_t population = 0;
  double median_ms = 0;  ///< > 0
  bool noisy = false;    ///< the row's spread was flagged (schema 2; false for schema 1)
};

/// A saved ga-bench JSON report, reduced to what `--compare` prints.
struct saved_report {
  std::string path;
  int schema_version = 0;
  std::string problem, precision, cpu_model, date_utc;
  std::vector<saved_row> rows;
};

/// The oldest schema version `load_saved_report` reads (1: ga-bench --json before reports).
inline constexpr int oldest_comparable_schema = 1;

/**
 * Reads and validates a JSON file written by `ga-bench --json` or
 * `--report` (results.json), schema versions oldest_comparable_schema to
 * bench_schema_version.
 * @throws config_error naming the file (and the row and key) when it cannot
 *         be read, is not JSON, is not a ga-bench report, has another schema
 *         version, or a row lacks a field, has one of the wrong type, or a
 *         tier, workload or backend that is not one of bench_labels.hpp's.
 */
saved_report load_saved_report(const std::string& path);

/// One matched row.
struct compared_row {
  saved_row a, b;
  double ratio = 0;    ///< b.median / a.median (< 1: B is faster)
  double speedup = 0;  ///< a.median / b.median (> 1: B is faster)
};

/// The comparison of two reports.
struct comparison {
  std::vector<compared_row> matched;   ///< in A's row order
  std::vector<saved_row> only_a, only_b;
};

/**
 * Matches rows by (tier, workload, backend, threads, population); a key
 * that occurs several times in one file is matched in order of occurrence.
 */
comparison compare_reports(const saved_report& a, const saved_report& b);

/// The comparison as text: a header naming both files (problem, precision,
/// CPU, date; a warning line when problems or precisions differ), a table of
/// A median, B median, B/A and A/B per matched row (noisy medians marked
/// with †), the geometric mean of A/B, and the unmatched rows of each side.
std::string format_comparison(const saved_report& a, const saved_report& b, const comparison& c);

}  // namespace fusedga
