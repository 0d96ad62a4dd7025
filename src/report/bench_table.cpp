#include "report/bench_table.hpp"

#include <sstream>

#include <fmt/format.h>

#include "bench/bytes_model.hpp"

namespace fusedga {

namespace {

/// Milliseconds with about four significant digits.
std::string ms(double v) {
  if (v >= 1000) return fmt::format("{:.0f}", v);
  if (v >= 100) return fmt::format("{:.1f}", v);
  if (v >= 10) return fmt::format("{:.2f}", v);
  if (v >= 1) return fmt::format("{:.3f}", v);
  if (v >= 0.01) return fmt::format("{:.4f}", v);
  return fmt::format("{:.6f}", v);
}

std::string speedup(const std::optional<double>& s) {
  if (!s) return "-";
  if (*s >= 100) return fmt::format("{:.0f}x", *s);
  if (*s >= 10) return fmt::format("{:.1f}x", *s);
  return fmt::format("{:.2f}x", *s);
}

/// Greedy word wrap at `width` columns, each line prefixed by `indent`.
std::string wrap(const std::string& text, std::size_t width, const std::string& indent) {
  std::istringstream words(text);
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace

std::string format_bench_table(const bench_report& r) {
  std::string out;
  out += fmt::format("ga-bench: {} ({}), precision {}, d = {}, gene {} B, fitness {} B, key {} B, tournament k = {}, elitism {}\n",
                     r.problem, r.source, r.precision, r.dimension, r.gene_bytes, r.fitness_bytes, r.key_bytes,
                     r.tournament_size, r.elitism);
  const auto& env = r.environment;
  out += fmt::format("machine: {}, {} logical CPUs, {}, {}\n", env.cpu_model, env.cores, env.compiler, env.date_utc);
  std::string copy;
  for (const auto& [threads, gbs] : env.copy_gb_per_s)
    copy += fmt::format("{}{} thread{} {:.1f} GB/s", copy.empty() ? "" : ", ", threads, threads == 1 ? "" : "s", gbs);
  out += fmt::format(
      "copy bandwidth (STREAM copy, 2 x {} MiB arrays, best trial before and after the timings, read + write "
      "counted): {}; %copy uses the best at up to the row's thread count\n",
      env.copy_array_bytes >> 20, copy.empty() ? "not measured" : copy);
  if (!env.peak_gflop_per_s.empty()) {
    std::string peak;
    for (const auto& [threads, gfs] : env.peak_gflop_per_s)
      peak += fmt::format("{}{} thread{} {:.1f} GFLOP/s", peak.empty() ? "" : ", ", threads, threads == 1 ? "" : "s", gfs);
    out += fmt::format("peak arithmetic (FMA loop, {}): {}\n", r.precision, peak);
  }
  out += wrap(bytes_model_text(), 110, "");
  out += fmt::format("times are per call: median (min, max) over the repeats after one warm-up call; * = noisy, "
                     "(p90 - p10) / median above {:.0f}%\n\n",
                     100 * noisy_spread_limit);

  out += fmt::format("{:<12} {:<10} {:<7} {:>3} {:>10} {:>11} {:>10} {:>10} {:>10} {:>7} {:>6} {:>9} {:>9}\n", "tier",
                     "workload", "backend", "thr", "N", "median ms", "min ms", "max ms", "M ind/s", "GB/s", "%copy",
                     "vs object", "vs unfused");
  std::size_t last_n = 0;
  for (const auto& row : r.rows) {
    if (last_n != 0 && row.population != last_n) out += "\n";
    last_n = row.population;
    out += fmt::format("{:<12} {:<10} {:<7} {:>3} {:>10} {:>11} {:>10} {:>10} {:>10.3f} {:>7.2f} {:>5.1f}% {:>9} {:>9}\n",
                       to_string(row.tier), to_string(row.workload), to_string(row.backend), row.threads, row.population, ms(row.median_ms) + (row.noisy ? "*" : ""),
                       ms(row.min_ms), ms(row.max_ms), row.individuals_per_s / 1e6, row.gb_per_s,
                       100 * row.copy_fraction, speedup(row.speedup_vs_object), speedup(row.speedup_vs_unfused));
  }
  if (r.rows.empty()) out += "(no rows)\n";
  if (!r.notes.empty()) {
    out += "\nnotes:\n";
    for (const auto& n : r.notes) out += wrap(n, 108, "  ").replace(0, 2, "- ");
  }
  return out;
}

}  // namespace fusedga
