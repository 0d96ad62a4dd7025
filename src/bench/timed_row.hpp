#pragma once
/// @file timed_row.hpp
/// A benchmark row from a timing summary and the bytes model, shared by the
/// CPU tiers (bench_runner) and the CUDA tiers (bench_cuda).

#include <cstddef>

#include "bench/bench_record.hpp"
#include "bench/bench_stats.hpp"
#include "bench/bytes_model.hpp"

namespace fusedga {

/// The row of `tier` × `workload` on `backend` with `threads` threads at population `n`:
/// times in ms from `s`, individuals/s and GB/s from its median and `t`'s total bytes.
/// Copy-bandwidth fields are left to the caller (CPU and GPU use different probes).
inline bench_row timed_row(bench_tier tier, bench_workload workload, backend_kind backend, int threads, std::size_t n,
                           const timing_summary& s, const traffic& t) {
  bench_row row;
  row.tier = tier;
  row.workload = workload;
  row.backend = backend;
  row.threads = threads;
  row.population = n;
  row.repeats = s.count;
  row.median_ms = s.median_s * 1e3;
  row.min_ms = s.min_s * 1e3;
  row.max_ms = s.max_s * 1e3;
  row.p10_ms = s.p10_s * 1e3;
  row.p90_ms = s.p90_s * 1e3;
  row.individuals_per_s = s.median_s > 0 ? static_cast<double>(n) / s.median_s : 0;
  row.bytes = t.total();
  row.gb_per_s = s.median_s > 0 ? static_cast<double>(row.bytes) / s.median_s / 1e9 : 0;
  return row;
}

}  // namespace fusedga
