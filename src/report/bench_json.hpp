#pragma once
/// @file bench_json.hpp
/// ga-bench reports as JSON (schema `bench_schema_version`, bench_record.hpp).

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/bench_record.hpp"

namespace fusedga {

/**
 * The report as JSON: `schema_version`, `tool`, problem fields, `bytes_model`
 * (text), `flops_per_evaluation` and `flops_basis`, `repeat_policy`
 * (warmup, min_repeats, min_time_s), `jit_compile` ({cold_s, warm_s} or
 * null), `environment` (cpu_model, cores, simd_level, memory_bytes, gpu,
 * compiler, compiler_flags, libraries, date_utc, fusedga_version,
 * copy_bandwidth_gb_per_s and peak_gflop_per_s keyed by thread count,
 * copy_array_bytes), `rows` (bench_row_json each) and `notes`.
 */
nlohmann::json bench_report_json(const bench_report& report);

/// One row as a JSON object with exactly the keys of `bench_row_columns()`: times in ms,
/// speedups null where not applicable.
nlohmann::json bench_row_json(const bench_row& row);

/// The keys of a row in report order: the JSON row fields and the columns of results.csv.
const std::vector<std::string>& bench_row_columns();

/// Write the JSON with `write_file_atomic` (atomic_file.hpp).

}  // namespace fusedga
