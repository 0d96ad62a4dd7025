#include "fusedga/report/bench_json.hpp"

#include "fusedga/core/error.hpp"
#include "fusedga/report/bytes_model.hpp"

namespace fusedga {

namespace {
nlohmann::json optional_number(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }
}  // namespace

nlohmann::json bench_report_json(const bench_report& r) {
  using nlohmann::json;
  json env = {{"cpu_model", r.environment.cpu_model},
              {"cores", r.environment.cores},
              {"compiler", r.environment.compiler},
              {"date_utc", r.environment.date_utc},
              {"fusedga_version", r.environment.fusedga_version},
              {"copy_array_bytes", r.environment.copy_array_bytes}};
  json copy = json::object();
  for (const auto& [threads, gbs] : r.environment.copy_gb_per_s) copy[std::to_string(threads)] = gbs;
  env["copy_bandwidth_gb_per_s"] = copy;

  json rows = json::array();
  for (const auto& row : r.rows) {
    rows.push_back({{"tier", row.tier},
                    {"workload", row.workload},
                    {"backend", row.backend},
                    {"threads", row.threads},
                    {"population", row.population},
                    {"repeats", row.repeats},
                    {"median_ms", row.median_ms},
                    {"min_ms", row.min_ms},
                    {"max_ms", row.max_ms},
                    {"individuals_per_s", row.individuals_per_s},
                    {"bytes", row.bytes},
                    {"gb_per_s", row.gb_per_s},
                    {"copy_gb_per_s", row.copy_gb_per_s},
                    {"copy_fraction", row.copy_fraction},
                    {"speedup_vs_object", optional_number(row.speedup_vs_object)},
                    {"speedup_vs_unfused", optional_number(row.speedup_vs_unfused)}});
  }
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
          {"environment", env},
          {"rows", rows},
          {"notes", r.notes}};
}

}  // namespace fusedga
