#include "report/compare_reports.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/bench_record.hpp"
#include "fusedga/core/error.hpp"
#include "report/report_markdown.hpp"

namespace fusedga {

namespace {

using nlohmann::json;

template <class T>
T field(const json& obj, const char* key, const std::string& where) {
  const auto it = obj.find(key);
  if (it == obj.end()) throw config_error(fmt::format("{}: missing key '{}'", where, key));
  try {
    if constexpr (std::is_same_v<T, std::string>) {
      if (!it->is_string()) throw config_error("");
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!it->is_boolean()) throw config_error("");
    } else if constexpr (std::is_integral_v<T>) {
      if (!it->is_number_integer()) throw config_error("");
    } else {
      if (!it->is_number()) throw config_error("");
    }
    return it->get<T>();
  } catch (const std::exception&) {
    const char* expected = std::is_same_v<T, std::string> ? "a string"
                           : std::is_same_v<T, bool>      ? "true or false"
                           : std::is_integral_v<T>        ? "an integer"
                                                          : "a number";
    throw config_error(fmt::format("{}: '{}' is {}, expected {}", where, key, it->type_name(), expected));
  }
}

std::string key_text(const saved_row& r) {
  return fmt::format("{} {} {} x{} N={}", to_string(r.tier), to_string(r.workload), to_string(r.backend), r.threads,
                     r.population);
}

bool same_key(const saved_row& x, const saved_row& y) {
  return x.tier == y.tier && x.workload == y.workload && x.backend == y.backend && x.threads == y.threads &&
         x.population == y.population;
}

}  // namespace

saved_report load_saved_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw config_error("--compare " + path + ": cannot open the file");
  std::stringstream text;
  text << in.rdbuf();
  json j;
  try {
    j = json::parse(text.str());
  } catch (const json::parse_error& e) {
    throw config_error(fmt::format("--compare {}: not valid JSON (byte {}): expected a ga-bench report (--json or "
                                   "results.json)",
                                   path, e.byte));
  }
  const std::string where = "--compare " + path;
  if (!j.is_object() || !j.contains("schema_version") || j.value("tool", std::string()) != "ga-bench")
    throw config_error(where + ": not a ga-bench report (expected an object with \"tool\": \"ga-bench\" and "
                               "\"schema_version\")");
  saved_report r;
  r.path = path;
  r.schema_version = field<int>(j, "schema_version", where);
  if (r.schema_version < oldest_comparable_schema || r.schema_version > bench_schema_version)
    throw config_error(fmt::format("{}: schema_version {} is not supported (this ga-bench reads {} to {})", where,
                                   r.schema_version, oldest_comparable_schema, bench_schema_version));
  r.problem = field<std::string>(j, "problem", where);
  r.precision = field<std::string>(j, "precision", where);
  if (j.contains("environment") && j["environment"].is_object()) {
    r.cpu_model = j["environment"].value("cpu_model", std::string());
    r.date_utc = j["environment"].value("date_utc", std::string());
  }
  if (!j.contains("rows") || !j["rows"].is_array()) throw config_error(where + ": 'rows' is missing or not an array");
  std::size_t i = 0;
  for (const auto& row : j["rows"]) {
    const std::string at = fmt::format("{}: rows[{}]", where, i++);
    if (!row.is_object()) throw config_error(at + ": expected an object");
    saved_row s;
    s.tier = parse_bench_tier(field<std::string>(row, "tier", at), at + ": tier");
    s.workload = parse_bench_workload(field<std::string>(row, "workload", at), at + ": workload");
    s.backend = parse_bench_backend(field<std::string>(row, "backend", at), at + ": backend");
    s.threads = field<int>(row, "threads", at);
    s.population = field<std::size_t>(row, "population", at);
    s.median_ms = field<double>(row, "median_ms", at);
    if (!(s.median_ms > 0) || !std::isfinite(s.median_ms))
      throw config_error(fmt::format("{}: median_ms is {}, expected a positive time", at, s.median_ms));
    if (row.contains("noisy")) s.noisy = field<bool>(row, "noisy", at);
    r.rows.push_back(std::move(s));
  }
  return r;
}

comparison compare_reports(const saved_report& a, const saved_report& b) {
  comparison c;
  std::vector<bool> used(b.rows.size(), false);
  for (const auto& x : a.rows) {
    bool found = false;
    for (std::size_t k = 0; k < b.rows.size() && !found; ++k)
      if (!used[k] && same_key(x, b.rows[k])) {
        used[k] = true;
        found = true;
        c.matched.push_back({x, b.rows[k], b.rows[k].median_ms / x.median_ms, x.median_ms / b.rows[k].median_ms});
      }
    if (!found) c.only_a.push_back(x);
  }
  for (std::size_t k = 0; k < b.rows.size(); ++k)
    if (!used[k]) c.only_b.push_back(b.rows[k]);
  return c;
}

std::string format_comparison(const saved_report& a, const saved_report& b, const comparison& c) {
  std::string out;
  const auto describe = [](const char* name, const saved_report& r) {
    return fmt::format("{}: {} ({}, {}, {}, schema {})\n", name, r.path, r.problem, r.precision,
                       r.cpu_model.empty() ? "unknown CPU" : r.cpu_model, r.schema_version) +
           (r.date_utc.empty() ? "" : fmt::format("   measured {}\n", r.date_utc));
  };
  out += describe("A", a) + describe("B", b);
  if (a.problem != b.problem) out += fmt::format("warning: different problems ({} vs {})\n", a.problem, b.problem);
  if (a.precision != b.precision) out += fmt::format("warning: different precisions ({} vs {})\n", a.precision, b.precision);
  out += "\n";
  const auto t = [](const saved_row& r) { return human_time_ms(r.median_ms) + (r.noisy ? "†" : " "); };
  // "µs" and "†" are two or three bytes but one column each: pad the time columns by hand.
  const auto pad = [](const std::string& s, std::size_t width) {
    std::size_t cols = 0;
    for (const unsigned char ch : s) cols += (ch & 0xC0) != 0x80;
    return std::string(cols < width ? width - cols : 0, ' ') + s;
  };
  out += fmt::format("{:<14} {:<10} {:<7} {:>4} {:>10} {:>12} {:>12} {:>8} {:>9}\n", "tier", "workload", "backend", "thr",
                     "N", "A median", "B median", "B/A", "A/B");
  double log_sum = 0;
  bool any_noisy = false;
  for (const auto& m : c.matched) {
    out += fmt::format("{:<14} {:<10} {:<7} {:>4} {:>10} {} {} {:>8.3f} {:>8.2f}x\n", to_string(m.a.tier),
                       to_string(m.a.workload), to_string(m.a.backend), m.a.threads, m.a.population, pad(t(m.a), 12), pad(t(m.b), 12), m.ratio, m.speedup);
    log_sum += std::log(m.speedup);
    any_noisy = any_noisy || m.a.noisy || m.b.noisy;
  }
  if (c.matched.empty()) out += "(no matching rows)\n";
  else {
    const double mean = std::exp(log_sum / double(c.matched.size()));
    // "equal" where the printed ratio rounds to 1.000: neither side is faster to the digits shown
    const char* verdict = std::fabs(mean - 1) < 0.0005 ? "equal" : mean > 1 ? "B is faster" : "B is slower";
    out += fmt::format("\n{} matched rows; geometric mean of A/B: {:.3f}x ({})\n", c.matched.size(), mean, verdict);
  }
  if (any_noisy)
    out += fmt::format("† flagged noisy in its run: (p90 − p10) / median above {:.0f} %\n", 100 * noisy_spread_limit);
  const auto unmatched = [&](const char* side, const std::vector<saved_row>& rows) {
    if (rows.empty()) return;
    out += fmt::format("\nonly in {} ({} row{}):\n", side, rows.size(), rows.size() == 1 ? "" : "s");
    for (const auto& r : rows) out += "  " + key_text(r) + "  " + human_time_ms(r.median_ms) + "\n";
  };
  unmatched("A", c.only_a);
  unmatched("B", c.only_b);
  return out;
}

}  // namespace fusedga
