#include "report/bench_json.hpp"

#include "bench/bytes_model.hpp"
#include "fusedga/core/error.hpp"

namespace fusedga {

namespace {
nlohmann::json optional_number(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }
}  // namespace

const std::vector<std::string>& bench_row_columns() {
  static const std::vector<std::string> columns{
      "tier",         "workload",      "backend",        "threads",     "population",
      "repeats",      "median_ms",     "min_ms",         "max_ms",      "p10_ms",
      "p90_ms",       "spread",        "noisy",          "individuals_per_s", "bytes",
      "gb_per_s",     "copy_gb_per_s", "copy_fraction",  "gflop_per_s", "arithmetic_intensity",
      "speedup_vs_slowest", "speedup_vs_object", "speedup_vs_unfused"};
  return columns;
}

nlohmann::json bench_row_json(const bench_row& row) {
  return {{"tier", to_string(row.tier)},
          {"workload", to_string(row.workload)},
          {"backend", to_string(row.backend)},
          {"threads", row.threads},
          {"population", row.population},
          {"repeats", row.repeats},
          {"median_ms", row.median_ms},
          {"min_ms", row.min_ms},
          {"max_ms", row.max_ms},
          {"p10_ms", row.p10_ms},
          {"p90_ms", row.p90_ms},
          {"spread", row.spread},
          {"noisy", row.noisy},
          {"individuals_per_s", row.individuals_per_s},
          {"bytes", row.bytes},
          {"gb_per_s", row.gb_per_s},
          {"copy_gb_per_s", row.copy_gb_per_s},
          {"copy_fraction", row.copy_fraction},
          {"gflop_per_s", row.gflop_per_s},
          {"arithmetic_intensity", row.arithmetic_intensity},
          {"speedup_vs_slowest", optional_number(row.speedup_vs_slowest)},
          {"speedup_vs_object", optional_number(row.speedup_vs_object)},
          {"speedup_vs_unfused", optional_number(row.speedup_vs_unfused)}};
}

nlohmann::json bench_report_json(const bench_report& r) {
  using nlohmann::json;
  const auto& e = r.environment;
  json env = {{"cpu_model", e.cpu_model},
              {"cores", e.cores},
              {"simd_level", e.simd_level},
              {"memory_bytes", e.memory_bytes},
              {"gpu", e.gpu},
              {"compiler", e.compiler},
              {"compiler_flags", e.compiler_flags},
              {"libraries", e.libraries},
              {"date_utc", e.date_utc},
              {"fusedga_version", e.fusedga_version},
              {"copy_array_bytes", e.copy_array_bytes}};
  json copy = json::object(), peak = json::object();
  for (const auto& [threads, gbs] : e.copy_gb_per_s) copy[std::to_string(threads)] = gbs;
  for (const auto& [threads, gfs] : e.peak_gflop_per_s) peak[std::to_string(threads)] = gfs;
  env["copy_bandwidth_gb_per_s"] = copy;
  env["peak_gflop_per_s"] = peak;

  json rows = json::array();
  for (const auto& row : r.rows) rows.push_back(bench_row_json(row));
  const json jit = r.jit_compile_cold_s > 0 || r.jit_compile_warm_s > 0
                       ? json{{"cold_s", r.jit_compile_cold_s}, {"warm_s", r.jit_compile_warm_s}}
                       : json(nullptr);
  return {{"schema_version", bench_schema_version},
          {"tool", "ga-bench"},
          {"problem", r.problem},
          {"source", r.source},
          {"precision", r.precision},
          {"dimension", r.dimension},
          {"gene_bytes", r.gene_bytes},
          {"fitness_bytes", r.fitness_bytes},
          {"key_bytes", r.key_bytes},
          {"tournament_size", r.tournament_size},
          {"elitism", r.elitism},
          {"bytes_model", bytes_model_text()},
          {"flops_per_evaluation", r.flops_per_evaluation},
          {"flops_basis", r.flops_basis},
          {"repeat_policy", {{"warmup", r.warmup}, {"min_repeats", r.min_repeats}, {"min_time_s", r.min_time_s}}},
          {"jit_compile", jit},
          {"environment", env},
          {"rows", rows},
          {"notes", r.notes}};
}

}  // namespace fusedga
