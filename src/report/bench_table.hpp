#pragma once
/// @file bench_table.hpp
/// ga-bench reports as a plain-text table for a terminal.

#include <string>

#include "bench/bench_record.hpp"

namespace fusedga {

/**
 * The report as text: a header (problem, machine, copy bandwidth, the bytes
 * model), one line per row (tier, workload, backend, threads, N, median/min/max
 * ms, M individuals/s, GB/s, % of copy bandwidth, speedups vs the object and
 * unfused tiers), then the notes. Ends with a newline.
 */
std::string format_bench_table(const bench_report& report);

}  // namespace fusedga
