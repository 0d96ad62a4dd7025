#include "report/report_csv.hpp"

#include <fmt/format.h>

#include "report/bench_json.hpp"

namespace fusedga {

namespace {

std::string csv_field(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return v.dump();
  if (v.is_number_float()) return fmt::format("{}", v.get<double>());  // shortest round-trip
  const std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string quoted = "\"";
  for (const char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string bench_rows_csv(const bench_report& r) {
  const auto& columns = bench_row_columns();
  std::string out = "schema_version";
  for (const auto& c : columns) out += "," + c;
  out += "\n";
  for (const auto& row : r.rows) {
    const nlohmann::json j = bench_row_json(row);
    out += std::to_string(bench_schema_version);
    for (const auto& c : columns) out += "," + csv_field(j.at(c));
    out += "\n";
  }
  return out;
}

}  // namespace fusedga
