#pragma once
/// @file bench_json.hpp
/// ga-bench reports as JSON (schema `bench_schema_version`, bench_record.hpp).

#include <string>

#include <nlohmann/json.hpp>

#include "fusedga/report/bench_record.hpp"

namespace fusedga {

/**
 * The report as JSON: `schema_version`, `tool`, problem fields, `bytes_model`
 * (text), `environment` (cpu_model, cores, compiler, date_utc,
 * fusedga_version, copy_bandwidth_gb_per_s keyed by thread count,
 * copy_array_bytes), `rows` (the fields of bench_row; times in ms, speedups
 * null where not applicable) and `notes`.
 */
nlohmann::json bench_report_json(const bench_report& report);

/// Write the JSON with `write_file_atomic` (atomic_file.hpp).

}  // namespace fusedga
