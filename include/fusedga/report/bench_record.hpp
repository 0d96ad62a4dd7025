#pragma once
/// @file bench_record.hpp
/// What a ga-bench run produces: one row per (tier, workload, backend,
/// threads, N), the machine it ran on and the notes about what was left out.
/// Written as a table (bench_table.hpp) and as JSON (bench_json.hpp).

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fusedga {

/// Version of the JSON layout written by `bench_report_json`; bumped on incompatible changes.
inline constexpr int bench_schema_version = 1;

/// One timed cell.
struct bench_row {
  std::string tier;      ///< "object", "unfused" or "fused"
  std::string workload;  ///< "eval" or "generation"
  std::string backend;   ///< "serial" or "tbb"
  int threads = 1;       ///< worker threads
  std::size_t population = 0;  ///< N
  std::size_t repeats = 0;     ///< timed calls
  double median_ms = 0, min_ms = 0, max_ms = 0;  ///< milliseconds per call
  double individuals_per_s = 0;  ///< N / median
  std::uint64_t bytes = 0;       ///< modelled bytes per call (bytes_model.hpp)
  double gb_per_s = 0;           ///< bytes / median, 10^9 bytes/s
  double copy_gb_per_s = 0;      ///< best copy bandwidth probed with up to `threads` threads (before and after the timings)
  double copy_fraction = 0;      ///< gb_per_s / copy_gb_per_s
  std::optional<double> speedup_vs_object;   ///< object-tier eval median / this median (eval rows only)
  std::optional<double> speedup_vs_unfused;  ///< unfused-tier eval median / this median (eval rows only)
};

/// The machine and build a report was measured on.
struct bench_environment {
  std::string cpu_model;   ///< "model name" of /proc/cpuinfo, or "unknown"
  int cores = 0;           ///< logical CPUs available to this process
  std::string compiler;    ///< compiler and version (__VERSION__)
  std::string date_utc;    ///< ISO 8601, e.g. 2024-05-01T12:00:00Z
  std::string fusedga_version;
  std::map<int, double> copy_gb_per_s;  ///< threads -> best of the copy-bandwidth probes (run before and after the timings), 10^9 bytes/s
  std::size_t copy_array_bytes = 0;     ///< bytes per array of the copy probe
};

/// A whole ga-bench run.
struct bench_report {
  std::string problem;     ///< registry name
  std::string source;      ///< config file, or "<builtin>"
  std::string precision;   ///< "double" or "float"
  int dimension = 0;
  std::size_t gene_bytes = 0, fitness_bytes = 0, key_bytes = 0;
  int tournament_size = 0;
  std::size_t elitism = 0;
  bench_environment environment;
  std::vector<bench_row> rows;
  std::vector<std::string> notes;  ///< skipped sizes/tiers and why, correctness checks
};

}  // namespace fusedga
