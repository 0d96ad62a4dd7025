#pragma once
/// @file bench_runner.hpp
/// The ga-bench measurement loop: every tier and workload of one problem at
/// every population size and backend, timed, with the copy-bandwidth roofline
/// and the bytes model (bytes_model.hpp) applied to each row.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "bench/bench_labels.hpp"
#include "bench/bench_record.hpp"
#include "bench/bench_target.hpp"
#include "bench/bench_timer.hpp"
#include "fusedga/config/run_config.hpp"

namespace fusedga {

/// One backend configuration of the fused tier.
struct bench_backend {
  backend_kind kind = backend_kind::serial;  ///< serial or tbb
  int threads = 1;                           ///< >= 1 (serial: 1)
};

/// What to measure and how long.
struct bench_plan {
  std::vector<std::size_t> sizes;          ///< population sizes N, each in [2, 2^31)
  std::vector<bench_backend> backends;     ///< fused-tier backends, in order
  std::vector<bench_tier> tiers{std::begin(plan_tiers), std::end(plan_tiers)};  ///< each one of plan_tiers
  std::vector<bench_workload> workloads{bench_workload::eval, bench_workload::generation};
  repeat_policy repeats;
  /// Object tier only up to N·d gene values (default 10^8: 800 MB of rows, about a second per call).
  std::uint64_t object_max_gene_values = 100000000ull;
  /// Unfused tier only up to N·d gene values (default 10^9).
  std::uint64_t unfused_max_gene_values = 1000000000ull;
  /// Bytes the run may allocate; 0 = 90% of MemAvailable at the start.
  std::uint64_t memory_limit_bytes = 0;
  std::size_t copy_array_bytes = 0;  ///< per array of the copy probe; 0 = default_stream_array_bytes()
  int copy_trials = 5;               ///< best of this many copy trials, >= 1
  int peak_trials = 5;               ///< best of this many peak-FLOP/s trials (about 10 ms each); 0 = not measured
};

/// Receives one line per step (preparing, timing, results); may be empty.
using bench_progress = std::function<void(const std::string&)>;

/**
 * Runs `plan` on `target`: measures the copy bandwidth and the peak FLOP/s
 * (roofline_peak.hpp) at every thread count used, then for each N (sizes that do not fit in memory are skipped with a
 * note) prepares each backend in turn; on the first one it times the object
 * and unfused evaluation tiers (single-threaded; capped by size, with a note)
 * and checks that the unfused results match the fused ones (1e-9 relative
 * for double fitness, 1e-5 for float), then times the fused workloads on
 * every backend; probes bandwidth and peak again at the end and keeps the
 * best. Fills the report's layout, environment, repeat policy, rows and
 * notes; the caller sets problem, source, precision and flops_per_evaluation
 * and then applies derive_row_metrics (report_metrics.hpp).
 *
 * @throws config_error for an empty or invalid plan; error when the unfused
 *         tier disagrees with the fused evaluation; whatever `target` throws.
 */
bench_report run_bench(bench_target& target, const bench_plan& plan, const bench_progress& progress = {});

}  // namespace fusedga
