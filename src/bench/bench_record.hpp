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

#include "bench/bench_labels.hpp"
#include "fusedga/config/run_config.hpp"

namespace fusedga {

/// Version of the JSON layout written by `bench_report_json`; bumped on incompatible changes.
/// 2: p10_ms/p90_ms, derived row metrics (speedup_vs_slowest, spread, noisy, gflop_per_s, arithmetic_intensity), the
/// measured peak FLOP/s, FLOPs per evaluation, repeat policy, JIT compile times and the build/machine details.
inline constexpr int bench_schema_version = 2;

/// A row is flagged noisy when the spread of its repeats, (p90 − p10) / median, exceeds this.
/// (Percentiles rather than max − min: over thousands of short calls one interrupted call is
/// certain and says nothing about the median.)
inline constexpr double noisy_spread_limit = 0.25;

/// One timed cell.
struct bench_row {
  bench_tier tier = bench_tier::fused;
  bench_workload workload = bench_workload::eval;
  backend_kind backend = backend_kind::serial;  ///< serial, tbb or cuda (one of bench_backends)
  int threads = 1;       ///< worker threads
  std::size_t population = 0;  ///< N
  std::size_t repeats = 0;     ///< timed calls
  double median_ms = 0, min_ms = 0, max_ms = 0;  ///< milliseconds per call
  double p10_ms = 0, p90_ms = 0;                 ///< 10th and 90th percentiles of the repeats, ms (bench_stats.hpp)
  double individuals_per_s = 0;  ///< N / median
  std::uint64_t bytes = 0;       ///< modelled bytes per call (bytes_model.hpp)
  double gb_per_s = 0;           ///< bytes / median, 10^9 bytes/s
  double copy_gb_per_s = 0;      ///< best copy bandwidth probed with up to `threads` threads (before and after the timings)
  double copy_fraction = 0;      ///< gb_per_s / copy_gb_per_s
  std::optional<double> speedup_vs_object;   ///< object-tier eval median / this median (eval rows only)
  std::optional<double> speedup_vs_unfused;  ///< unfused-tier eval median / this median (eval rows only)
  // Derived by derive_row_metrics (report_metrics.hpp) once the report is assembled:
  std::optional<double> speedup_vs_slowest;  ///< slowest median of the same workload and N / this median
  double spread = 0;                 ///< (p90_ms − p10_ms) / median_ms ((max − min) / median when no percentiles)
  bool noisy = false;                ///< spread > noisy_spread_limit
  double gflop_per_s = 0;            ///< eval rows: flops_per_evaluation·N / median, 10^9 flop/s; 0 = unknown or n/a
  double arithmetic_intensity = 0;   ///< eval rows: flops_per_evaluation·N / bytes, flop/byte; 0 = unknown or n/a
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
  std::map<int, double> peak_gflop_per_s;  ///< threads -> best FMA-loop peak (roofline_peak.hpp) in the report's precision, 10^9 flop/s
  std::string simd_level;       ///< widest SIMD extension the build targets, e.g. "AVX2+FMA"
  std::uint64_t memory_bytes = 0;  ///< MemTotal of /proc/meminfo, bytes (0 = unknown)
  std::string gpu;              ///< GPU model and driver, or why there is none (e.g. "none: no GPU backend in this build")
  std::string compiler_flags;   ///< build type and C++ flags of the library build
  std::map<std::string, std::string> libraries;  ///< library name -> version (oneTBB, fmt, ...)
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
  int warmup = 0;            ///< untimed calls before each row's timings
  int min_repeats = 0;       ///< timed calls at least per row
  double min_time_s = 0;     ///< and until they add up to this many seconds
  /// Arithmetic operations per evaluation of one individual (objective, constraints, violation;
  /// report_flops.hpp), set by the caller; 0 = unknown (no roofline).
  double flops_per_evaluation = 0;
  std::string flops_basis;   ///< how flops_per_evaluation was counted, one line; empty when unknown
  double jit_compile_cold_s = 0;  ///< expression problems: JIT compile with an empty cache, s (0 = not measured)
  double jit_compile_warm_s = 0;  ///< and from the cache, s (0 = not measured)
  std::vector<bench_row> rows;
  std::vector<std::string> notes;  ///< skipped sizes/tiers and why, correctness checks
};

}  // namespace fusedga
