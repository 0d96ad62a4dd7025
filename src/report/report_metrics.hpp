#pragma once
/// @file report_metrics.hpp
/// The numbers a report derives from the measured rows: speedups, noise
/// flags, the roofline coordinates, and the tier names and one-line
/// explanations used by every report writer.

#include <optional>
#include <string>
#include <vector>

#include "bench/bench_record.hpp"

namespace fusedga {

/**
 * Fills the derived fields of every row of `r` from its measured ones
 * (idempotent; call after all rows, `flops_per_evaluation` and the copy
 * bandwidths are in):
 *  - speedup_vs_object / speedup_vs_unfused (eval rows): the "object" /
 *    "unfused" (or "interpreter") eval median at the same N over this median
 *    (a CUDA row's unfused baseline is the GPU unfused tier where one was timed);
 *  - speedup_vs_slowest: the slowest median of the same workload and N over this median;
 *  - spread = (p90 − p10) / median (or (max − min) / median for a row without percentiles),
 *    noisy = spread > noisy_spread_limit;
 *  - eval rows with flops known: gflop_per_s and arithmetic_intensity (generation
 *    rows get 0: the operators' arithmetic is not counted).
 */
void derive_row_metrics(bench_report& r);

/// Whether `tier` is an unfused baseline (unfused, or interpreter for expression problems).
bool is_unfused_tier(bench_tier tier);

/// Display name of a row's configuration: "object", "unfused", "fused serial", "fused TBB ×2",
/// "fused-jit TBB ×2", ... (`ascii`: "x2" instead of "×2", for plots).
std::string row_label(const bench_row& row, bool ascii = false);

/// Sort rank of a row's configuration: by tier in bench_tier's (report) order, baselines first (slowest expected),
/// then within a tier serial, TBB by threads, CUDA.
int row_rank(const bench_row& row);

/// The distinct configurations (tier, backend, threads) of `rows` for `workload`, in row_rank order;
/// each entry is the first row of that configuration.
std::vector<const bench_row*> configurations(const std::vector<bench_row>& rows, bench_workload workload);

/// One line explaining a tier; empty for builtin_transfer (no description yet).
std::string tier_explanation(bench_tier tier);

/// The population sizes of `rows` (optionally of one workload), ascending, distinct.
std::vector<std::size_t> population_sizes(const std::vector<bench_row>& rows,
                                          std::optional<bench_workload> workload = std::nullopt);

/// The row of configuration `like` (tier, backend, threads) for `workload` at N = `n`, or nullptr.
const bench_row* find_row(const std::vector<bench_row>& rows, const bench_row& like, bench_workload workload,
                          std::size_t n);

}  // namespace fusedga
