#pragma once
/// @file report_csv.hpp
/// ga-bench rows as CSV (results.csv of a report directory).

#include <string>

#include "bench/bench_record.hpp"

namespace fusedga {

/**
 * The rows of `r` as RFC 4180 CSV: a header line `schema_version` followed
 * by `bench_row_columns()` (bench_json.hpp), then one line per row with the
 * same values as `bench_row_json` — numbers in shortest round-trip form,
 * booleans as true/false, null (a speedup that does not apply) as an empty
 * field; text fields are quoted when they contain a comma, quote or newline.
 * Lines end with "\n".
 */
std::string bench_rows_csv(const bench_report& r);

}  // namespace fusedga
