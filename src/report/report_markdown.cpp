#include "report/report_markdown.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "bench/bytes_model.hpp"
#include "report/report_metrics.hpp"

namespace fusedga {

std::string human_time_ms(double ms) {
  const auto sig = [](double v, const char* unit) {
    if (v >= 100) return fmt::format("{:.0f} {}", v, unit);
    if (v >= 10) return fmt::format("{:.1f} {}", v, unit);
    return fmt::format("{:.2f} {}", v, unit);
  };
  if (ms >= 1000) return sig(ms / 1000, "s");
  if (ms >= 1) return sig(ms, "ms");
  if (ms >= 1e-3) return sig(ms * 1e3, "µs");
  return sig(ms * 1e6, "ns");
}

std::string with_commas(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

namespace {

std::string times(double x) {
  if (x >= 100) return fmt::format("{:.0f}×", x);
  if (x >= 10) return fmt::format("{:.1f}×", x);
  return fmt::format("{:.2f}×", x);
}
std::string times(const std::optional<double>& x) { return x ? times(*x) : std::string("–"); }

/// Individuals (or anything) per second with an SI prefix: "42.1 M".
std::string rate(double per_s) {
  // Thresholds just below the powers of 1000, so 999,999,999.9 reads "1 G", not "1e+03 M".
  if (per_s >= 999.5e6) return fmt::format("{:.3g} G", per_s / 1e9);
  if (per_s >= 999.5e3) return fmt::format("{:.3g} M", per_s / 1e6);
  if (per_s >= 999.5) return fmt::format("{:.3g} k", per_s / 1e3);
  return fmt::format("{:.3g}", per_s);
}

/// A count for prose: whole numbers with thousands separators ("1,024"), others to 3 significant digits.
std::string amount(double v) {
  if (v >= 0 && v < 1e15 && v == std::floor(v)) return with_commas(static_cast<std::size_t>(v));
  return fmt::format("{:.3g}", v);
}

std::string percent(double fraction) { return fmt::format("{:.0f} %", 100 * fraction); }

std::string per_thread_list(const std::map<int, double>& m, const char* unit) {
  std::string out;
  for (const auto& [t, v] : m) out += fmt::format("{}{} thread{}: {:.1f} {}", out.empty() ? "" : ", ", t, t == 1 ? "" : "s", v, unit);
  return out.empty() ? "not measured" : out;
}

/// A Markdown table cell: no pipes or newlines.
std::string cell(std::string s) {
  for (auto& c : s)
    if (c == '|' || c == '\n') c = ' ';
  return s;
}

const char* dagger = "†";

bool is_fused_family(bench_tier tier) {
  return tier == bench_tier::fused || tier == bench_tier::fused_jit || tier == bench_tier::fused_interp;
}

/// The best (at most `threads`) value of a per-thread-count map, 0 when none.
double at_threads(const std::map<int, double>& m, int threads) {
  double best = 0;
  for (const auto& [t, v] : m)
    if (t <= threads) best = std::max(best, v);
  return best;
}

const bench_row* fastest(const std::vector<bench_row>& rows, bench_workload workload, std::size_t n,
                         bool (*keep)(const bench_row&) = nullptr) {
  const bench_row* best = nullptr;
  for (const auto& row : rows)
    if (row.workload == workload && row.population == n && row.median_ms > 0 && (!keep || keep(row)) &&
        (!best || row.median_ms < best->median_ms))
      best = &row;
  return best;
}

const bench_row* slowest(const std::vector<bench_row>& rows, bench_workload workload, std::size_t n) {
  const bench_row* worst = nullptr;
  for (const auto& row : rows)
    if (row.workload == workload && row.population == n && (!worst || row.median_ms > worst->median_ms)) worst = &row;
  return worst;
}

/// The row of tier `tier` on `backend` with exactly `threads` (any when < 0) at (workload, n).
const bench_row* row_of(const std::vector<bench_row>& rows, bench_tier tier, backend_kind backend, int threads,
                        bench_workload workload, std::size_t n) {
  const bench_row* found = nullptr;
  for (const auto& row : rows)
    if (row.tier == tier && row.backend == backend && row.workload == workload && row.population == n &&
        (threads < 0 || row.threads == threads) && (!found || row.threads > found->threads))
      found = &row;
  return found;
}

bool on_cpu(const bench_row& row) { return row.backend != backend_kind::cuda; }
bool on_gpu(const bench_row& row) { return row.backend == backend_kind::cuda; }
bool on_gpu_resident(const bench_row& row) {
  return row.backend == backend_kind::cuda && row.tier != bench_tier::fused_transfer;
}
bool on_gpu_transfer(const bench_row& row) {
  return row.backend == backend_kind::cuda && row.tier == bench_tier::fused_transfer;
}

/// Why a report has no CUDA rows: the environment's "none: reason", else that they were not asked for.
std::string no_gpu_reason(const bench_report& r) {
  const std::string& g = r.environment.gpu;
  if (g.empty()) return "no GPU backend in this build";
  if (g.rfind("none: ", 0) == 0) return g.substr(6);
  return "not requested (add cuda to --backends)";
}

/// The device copy bandwidth of the report's device-resident CUDA rows, 0 when none.
double device_copy_gb_per_s(const bench_report& r) {
  double bw = 0;
  for (const auto& row : r.rows)
    if (on_gpu_resident(row)) bw = std::max(bw, row.copy_gb_per_s);
  return bw;
}

void environment_section(const bench_report& r, const markdown_options& o, std::string& md) {
  const auto& e = r.environment;
  md += "## Environment\n\n| | |\n|---|---|\n";
  md += fmt::format("| CPU | {}, {} logical CPUs |\n", cell(e.cpu_model), e.cores);
  md += fmt::format("| SIMD level of the build | {} |\n", cell(e.simd_level.empty() ? "unknown" : e.simd_level));
  md += fmt::format("| Memory | {} |\n",
                    e.memory_bytes ? fmt::format("{:.1f} GiB", double(e.memory_bytes) / (1ull << 30)) : "unknown");
  md += fmt::format("| GPU | {} |\n", cell(e.gpu.empty() ? "none: no GPU backend in this build" : e.gpu));
  md += fmt::format("| Compiler | {} |\n", cell(e.compiler));
  md += fmt::format("| Build flags | `{}` |\n", cell(e.compiler_flags.empty() ? "unknown" : e.compiler_flags));
  std::string libs;
  for (const auto& [name, version] : e.libraries) libs += fmt::format("{}{} {}", libs.empty() ? "" : ", ", name, version);
  if (!o.plotter.empty()) libs += (libs.empty() ? "" : ", ") + o.plotter;
  md += fmt::format("| Libraries | {} |\n", cell(libs.empty() ? "unknown" : libs));
  md += fmt::format("| Date (UTC) | {} |\n", cell(e.date_utc));
  md += fmt::format("| Copy bandwidth (STREAM copy, measured) | {} |\n", per_thread_list(e.copy_gb_per_s, "GB/s"));
  md += fmt::format("| Peak arithmetic (FMA loop, measured, {}) | {} |\n", r.precision,
                    per_thread_list(e.peak_gflop_per_s, "GFLOP/s"));
  if (const double bw = device_copy_gb_per_s(r); bw > 0)
    md += fmt::format("| GPU copy bandwidth (cudaMemcpy device to device, measured) | {:.1f} GB/s |\n", bw);
  md += "\n";
}

void problem_section(const bench_report& r, std::string& md) {
  md += "## Problem\n\n";
  md += fmt::format(
      "`{}` ({}), precision {}, d = {} genes of {} B, objective and violation {} B each, rank key {} B; "
      "tournament size k = {}, elitism E = {}. ",
      r.problem, r.source, r.precision, r.dimension, r.gene_bytes, r.fitness_bytes, r.key_bytes, r.tournament_size,
      r.elitism);
  if (r.flops_per_evaluation > 0)
    md += fmt::format("About {:.4g} arithmetic operations per evaluation ({}).\n\n", r.flops_per_evaluation, r.flops_basis);
  else
    md += "Arithmetic operations per evaluation: unknown for this problem (no roofline position).\n\n";
  md += std::string("Bytes: ") + bytes_model_text() + "\n\n";
}

void tiers_section(const bench_report& r, std::string& md) {
  md += "## Tiers\n\n";
  std::vector<bench_tier> seen;  // in report order (row_rank's tier order)
  for (const auto& row : r.rows)
    if (std::find(seen.begin(), seen.end(), row.tier) == seen.end()) seen.push_back(row.tier);
  std::sort(seen.begin(), seen.end());
  for (const bench_tier t : seen) {
    const std::string text = tier_explanation(t);
    md += fmt::format("- **{}** — {}.\n", to_string(t), text.empty() ? "(no description)" : text);
  }
  const auto has = [&](bench_tier t) { return std::find(seen.begin(), seen.end(), t) != seen.end(); };
  const bool gpu = std::any_of(r.rows.begin(), r.rows.end(), on_gpu);
  if (!gpu)
    md += fmt::format("- **fused CUDA float / double** (evaluation with and without host↔device transfer) — not run: "
                      "{}.\n",
                      no_gpu_reason(r));
  else
    md += fmt::format("- **fused CUDA** rows here are in {0}; the other precision is a second run with `--precision "
                      "{1}`, compared with `ga-bench --compare`.\n",
                      r.precision, r.precision == "float" ? "double" : "float");
  if (!has(bench_tier::unfused) && !has(bench_tier::interpreter))
    md += "- **unfused** — not run: only the seed problems and expression problems have an unfused (NumPy-style) "
          "evaluator.\n";
  if (!has(bench_tier::fused_jit) && !has(bench_tier::fused_interp))
    md += "- **JIT-compiled expression** — not applicable: this is a compiled built-in problem; expression problems "
          "(configs/expr-*.yaml) get a fused-jit tier and its compile time.\n";
  md += "\n";
}

void method_section(const bench_report& r, std::string& md) {
  md += "## Method\n\n";
  md += fmt::format(
      "Every row: {} untimed warm-up call{}, then calls timed one by one (std::chrono::steady_clock) until at least {} "
      "calls and {:.2g} s; the median is reported with the minimum and maximum. A row whose spread (p90 − p10) / median "
      "exceeds {:.0f} % is marked {}. All rows come from one process and one run (same build, same data, the copy "
      "bandwidth and peak probed before and after the timings, the best kept), so the ratios compare like with like. "
      "Speedup vs the slowest = the slowest median of the same workload and N / this median; vs unfused = the unfused "
      "(or interpreter) evaluation at the same N / this median. GB/s is the bytes model over the median; % of copy "
      "divides by the copy bandwidth measured with up to the row's thread count. GFLOP/s and flop/byte count the "
      "evaluation's arithmetic only (evaluation rows).\n\n",
      r.warmup, r.warmup == 1 ? "" : "s", r.min_repeats, r.min_time_s, 100 * noisy_spread_limit, dagger);
}

void workload_section(const bench_report& r, bench_workload workload, std::string& md) {
  const auto configs = configurations(r.rows, workload);
  if (configs.empty()) return;
  const auto sizes = population_sizes(r.rows, workload);
  const bool eval = workload == bench_workload::eval;
  md += eval ? "## Evaluation only\n\n" : "## Full generation\n\n";
  md += eval ? "Objective, constraints, total violation and rank key of the whole population.\n\n"
             : "Selection, crossover, mutation, repair, evaluation, elitism and statistics: one generation.\n\n";

  md += "Time per call (median):\n\n| configuration |";
  for (const auto n : sizes) md += fmt::format(" N = {} |", with_commas(n));
  md += "\n|---|";
  for (std::size_t i = 0; i < sizes.size(); ++i) md += "---:|";
  md += "\n";
  bool any_noisy = false;
  for (const bench_row* c : configs) {
    md += fmt::format("| {} |", cell(row_label(*c)));
    for (const auto n : sizes) {
      const bench_row* row = find_row(r.rows, *c, workload, n);
      md += row ? fmt::format(" {}{} |", human_time_ms(row->median_ms), row->noisy ? dagger : "") : " – |";
      any_noisy = any_noisy || (row && row->noisy);
    }
    md += "\n";
  }
  md += "\n";

  md += "| N | configuration | median | min – max | vs slowest | vs unfused | individuals/s | GB/s | % of copy | GFLOP/s |\n";
  md += "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto n : sizes)
    for (const bench_row* c : configs)
      if (const bench_row* row = find_row(r.rows, *c, workload, n))
        md += fmt::format("| {} | {} | {}{} | {} – {} | {} | {} | {} | {:.3g} | {} | {} |\n", with_commas(n),
                          cell(row_label(*row)), human_time_ms(row->median_ms), row->noisy ? dagger : "",
                          human_time_ms(row->min_ms), human_time_ms(row->max_ms), times(row->speedup_vs_slowest),
                          times(row->speedup_vs_unfused), rate(row->individuals_per_s), row->gb_per_s,
                          row->copy_gb_per_s > 0 ? percent(row->copy_fraction) : "–",
                          row->gflop_per_s > 0 ? fmt::format("{:.3g}", row->gflop_per_s) : "–");
  md += "\n";
  const bool above_copy = std::any_of(r.rows.begin(), r.rows.end(),
                                      [&](const bench_row& row) { return row.workload == workload && row.copy_fraction > 1; });
  if (above_copy)
    md += fmt::format("% of copy above 100 %: a pass that mostly reads streams faster than a copy (whose writes cost "
                      "an extra, uncounted read for ownership), and a population small enough to stay in the CPU "
                      "caches is served faster than the main memory the probe measures ({} MiB arrays).\n\n",
                      r.environment.copy_array_bytes >> 20);
  if (any_noisy)
    md += fmt::format("{} noisy: (p90 − p10) / median above {:.0f} % — the machine was busy or the call is too short "
                      "for a steady timing; read its ratios with care.\n\n",
                      dagger, 100 * noisy_spread_limit);
}

/// The first N of `sizes` from which the fastest `gpu` evaluation beats the fastest CPU one, and stays ahead.
std::optional<std::size_t> gpu_wins_from(const bench_report& r, const std::vector<std::size_t>& sizes,
                                         bool (*gpu)(const bench_row&)) {
  std::optional<std::size_t> from;
  for (const auto m : sizes) {
    const bench_row* g = fastest(r.rows, bench_workload::eval, m, gpu);
    const bench_row* c = fastest(r.rows, bench_workload::eval, m, on_cpu);
    if (!g || !c) continue;
    if (g->median_ms < c->median_ms) {
      if (!from) from = m;
    } else {
      from.reset();
    }
  }
  return from;
}

/// Where the GPU wins, with and without transfers, and what it reaches at the largest size.
void gpu_sentences(const bench_report& r, const std::vector<std::size_t>& sizes, std::vector<std::string>& s) {
  if (sizes.empty()) return;
  const std::size_t n = sizes.back();
  const bench_row* g = fastest(r.rows, bench_workload::eval, n, on_gpu_resident);
  const bench_row* c = fastest(r.rows, bench_workload::eval, n, on_cpu);
  const auto from = gpu_wins_from(r, sizes, on_gpu_resident);
  if (g && c)
    s.push_back(fmt::format(
        "{} At N = {} the GPU evaluates the device-resident population in {} ({} the best CPU configuration, {}){}.",
        from ? fmt::format("The GPU starts to win at N = {}: from there its evaluation is faster than the best CPU "
                           "configuration.",
                           with_commas(*from))
             : std::string("The GPU does not beat the best CPU configuration's evaluation at the largest sizes measured."),
        with_commas(n), human_time_ms(g->median_ms), times(c->median_ms / g->median_ms), row_label(*c),
        g->copy_gb_per_s > 0 ? fmt::format(" and moves {} of the device's copy bandwidth", percent(g->copy_fraction))
                             : ""));
  if (std::any_of(r.rows.begin(), r.rows.end(), on_gpu_transfer)) {
    const auto from_t = gpu_wins_from(r, sizes, on_gpu_transfer);
    const bench_row* t = fastest(r.rows, bench_workload::eval, n, on_gpu_transfer);
    s.push_back(from_t ? fmt::format("Copying the population to the device and back on every call (fused-transfer) "
                                     "still wins from N = {}{}.",
                                     with_commas(*from_t),
                                     t ? fmt::format(" ({} per call at N = {})", human_time_ms(t->median_ms), with_commas(n))
                                       : "")
                       : std::string("With the population copied to the device and back on every call "
                                     "(fused-transfer), the GPU does not beat the CPU: the host link, not the GPU, "
                                     "sets the pace — keep the population on the device for the whole run."));
  }
  const bench_row* gg = fastest(r.rows, bench_workload::generation, n, on_gpu_resident);
  const bench_row* cg = fastest(r.rows, bench_workload::generation, n, on_cpu);
  if (gg && cg)
    s.push_back(fmt::format("A full generation on the GPU at N = {} takes {}, {} the best CPU generation ({}).",
                            with_commas(n), human_time_ms(gg->median_ms), times(cg->median_ms / gg->median_ms),
                            row_label(*cg)));
}

}  // namespace

std::string what_this_means(const bench_report& r) {
  std::vector<std::string> s;  // sentences
  const auto& env = r.environment;
  const auto eval_sizes = population_sizes(r.rows, bench_workload::eval);
  if (!eval_sizes.empty()) {
    const std::size_t n = eval_sizes.back();
    const bench_row* best = fastest(r.rows, bench_workload::eval, n, on_cpu);
    const bench_row* worst = slowest(r.rows, bench_workload::eval, n);
    if (best && worst && best != worst) {
      std::string t = fmt::format("At N = {}, the fastest evaluation is **{}** at {} per call ({} individuals/s), "
                                  "{} faster than the slowest ({})",
                                  with_commas(n), row_label(*best), human_time_ms(best->median_ms),
                                  rate(best->individuals_per_s), times(worst->median_ms / best->median_ms),
                                  row_label(*worst));
      if (best->speedup_vs_unfused && !is_unfused_tier(worst->tier))
        t += fmt::format(" and {} faster than the unfused tier", times(*best->speedup_vs_unfused));
      s.push_back(t + ".");
    }
    if (best) {
      const double bw = best->copy_gb_per_s;
      const double peak = at_threads(env.peak_gflop_per_s, best->threads);
      const double bytes_per = double(best->bytes) / double(n);
      if (best->arithmetic_intensity > 0 && bw > 0 && peak > 0) {
        const double ridge = peak / bw;
        const double ai = best->arithmetic_intensity;
        if (ai < ridge) {
          std::string t = fmt::format(
              "Evaluation does about {} operations per {} bytes moved ({:.2g} flop/byte), below this "
              "machine's ridge point of {:.2g} flop/byte (peak {:.1f} GFLOP/s ÷ copy {:.1f} GB/s at {} thread{}): it "
              "is **memory-bound**, so the attainable rate is the copy bandwidth, and the fastest tier reaches {} of it",
              amount(r.flops_per_evaluation), amount(bytes_per), ai, ridge, peak, bw, best->threads, best->threads == 1 ? "" : "s",
              percent(best->copy_fraction));
          // Bytes model of an evaluation: reads d genes, writes objective, violation and rank key.
          const double read = double(r.dimension) * double(r.gene_bytes);
          const double read_share = read / (read + 2.0 * double(r.fitness_bytes) + double(r.key_bytes));
          t += best->copy_fraction > 1.05
                   ? (read_share >= 0.75
                          ? fmt::format(" — more than copying moves: this evaluation mostly reads ({} of its bytes), "
                                        "and reading streams faster than copying, whose writes cost an extra, "
                                        "uncounted read for ownership. It runs at memory speed, and fusing passes "
                                        "(fewer bytes moved) is what speeds it up, not faster arithmetic.",
                                        percent(read_share))
                          : std::string(" — more than the copy probe measured, so part of the data stayed in cache "
                                        "or the probe ran on a busy machine. It runs at memory speed, and fusing "
                                        "passes (fewer bytes moved) is what speeds it up, not faster arithmetic."))
               : best->copy_fraction >= 0.5
                   ? " — close to what the memory system delivers, which is why fusing passes (fewer bytes moved) is "
                     "what speeds it up, not faster arithmetic."
                   : fmt::format(" — the rest of the gap is instruction work (the arithmetic, math functions, "
                                 "the rank key, loop overhead) or latency, not memory: {:.3g} GFLOP/s is {} of peak.",
                                 best->gflop_per_s, percent(best->gflop_per_s / peak));
          s.push_back(t);
        } else {
          s.push_back(fmt::format(
              "Evaluation does about {:.2g} flop/byte, above this machine's ridge point of {:.2g} flop/byte (peak "
              "{:.1f} GFLOP/s ÷ copy {:.1f} GB/s): it is **compute-bound**; the fastest tier reaches {:.3g} GFLOP/s, "
              "{} of the measured peak, and moves {} of the copy bandwidth.",
              ai, ridge, peak, bw, best->gflop_per_s, percent(best->gflop_per_s / peak), percent(best->copy_fraction)));
        }
      } else if (bw > 0) {
        s.push_back(fmt::format(
            "The arithmetic per evaluation of this problem is not counted, so there is no roofline position; the "
            "fastest tier moves {} of the copy bandwidth, so it is {}.",
            percent(best->copy_fraction),
            best->copy_fraction >= 0.5 ? "**memory-bound**" : "limited by its arithmetic or latency more than by memory"));
      }
    }
    // Fusion alone: one thread, fused against unfused.
    const bench_row* unfused = nullptr;
    for (const auto& row : r.rows)
      if (row.workload == bench_workload::eval && row.population == n && is_unfused_tier(row.tier) &&
          row.backend != backend_kind::cuda)
        unfused = &row;
    const bench_row* fused1 = nullptr;
    for (const bench_tier tier : {bench_tier::fused, bench_tier::fused_jit})
      for (const backend_kind backend : {backend_kind::serial, backend_kind::tbb})
        if (!fused1) fused1 = row_of(r.rows, tier, backend, 1, bench_workload::eval, n);
    if (unfused && fused1) {
      const double x = unfused->median_ms / fused1->median_ms;
      s.push_back(x >= 1 ? fmt::format("Fusion alone (one thread, {} against {}) is worth {}: the unfused tier makes a "
                                       "pass over memory per operation and writes a temporary each time, so it moves "
                                       "many times the {} bytes per individual that one fused pass needs.",
                                       row_label(*fused1), to_string(unfused->tier), times(x), amount(double(fused1->bytes) / double(n)))
                         : fmt::format("On one thread {} is not faster than {} here ({} its speed).", row_label(*fused1),
                                       to_string(unfused->tier), times(x)));
    }
    // Fusion on the GPU: fused CUDA against the Thrust tier (one transform and one temporary per operation).
    const bench_row* unfused_gpu = row_of(r.rows, bench_tier::unfused, backend_kind::cuda, -1, bench_workload::eval, n);
    const bench_row* fused_gpu = row_of(r.rows, bench_tier::fused, backend_kind::cuda, -1, bench_workload::eval, n);
    if (unfused_gpu && fused_gpu)
      s.push_back(fmt::format("On the GPU, {} against {} (one thrust::transform and one device temporary per "
                              "operation, the eager-PyTorch way) is {}.",
                              row_label(*fused_gpu), row_label(*unfused_gpu),
                              fused_gpu->median_ms <= unfused_gpu->median_ms
                                  ? times(unfused_gpu->median_ms / fused_gpu->median_ms) + " faster"
                                  : times(fused_gpu->median_ms / unfused_gpu->median_ms) + " slower"));
    // Threads: the most threads of the fused family against one thread of the same tier.
    const bench_row* many = nullptr;
    for (const auto& row : r.rows)
      if (row.workload == bench_workload::eval && row.population == n && row.backend == backend_kind::tbb &&
          is_fused_family(row.tier) &&
          (!many || row.threads > many->threads))
        many = &row;
    if (many && many->threads > 1) {
      const bench_row* one = row_of(r.rows, many->tier, backend_kind::tbb, 1, bench_workload::eval, n);
      if (!one) one = row_of(r.rows, many->tier, backend_kind::serial, -1, bench_workload::eval, n);
      if (one) {
        const double x = one->median_ms / many->median_ms;
        const std::string why =
            x < 0.75 * many->threads && many->copy_fraction >= 0.5
                ? "; the memory bandwidth, not the core count, is the limit"
                : (at_threads(env.copy_gb_per_s, many->threads) < 1.2 * at_threads(env.copy_gb_per_s, 1) &&
                           x < 0.75 * many->threads
                       ? "; the measured copy bandwidth hardly grows with threads on this machine"
                       : "");
        s.push_back(x >= 1.05 ? fmt::format("{} threads evaluate {} faster than one ({} parallel efficiency){}.",
                                            many->threads, times(x), percent(x / many->threads), why)
                              : fmt::format("{} threads evaluate no faster than one ({} the speed of {}){}.",
                                            many->threads, times(x), row_label(*one), why));
      }
      // From which size the threads pay off.
      std::optional<std::size_t> from;
      for (const auto m : eval_sizes) {
        const bench_row* p = row_of(r.rows, many->tier, backend_kind::tbb, many->threads, bench_workload::eval, m);
        const bench_row* q = row_of(r.rows, many->tier, backend_kind::serial, -1, bench_workload::eval, m);
        if (p && q && p->median_ms < q->median_ms) {
          from = m;
          break;
        }
      }
      if (from && *from != eval_sizes.front())
        s.push_back(fmt::format("Below N = {} the parallel tier loses to the serial one: with so few individuals, "
                                "waking threads costs more than the work.",
                                with_commas(*from)));
    }
  }
  // A generation against an evaluation.
  const auto gen_sizes = population_sizes(r.rows, bench_workload::generation);
  if (!gen_sizes.empty()) {
    const std::size_t n = gen_sizes.back();
    if (const bench_row* g = fastest(r.rows, bench_workload::generation, n, on_cpu)) {
      std::string t = fmt::format("A full generation at N = {} takes {} with **{}** ({} individuals/s)", with_commas(n),
                                  human_time_ms(g->median_ms), row_label(*g), rate(g->individuals_per_s));
      if (const bench_row* e = find_row(r.rows, *g, bench_workload::eval, n))
        t += fmt::format(", {} the time of evaluating the population with the same configuration: {}", times(g->median_ms / e->median_ms),
                         g->median_ms > 3 * e->median_ms
                             ? "selection, crossover, mutation and their random numbers, not the fitness function, "
                               "dominate a generation"
                             : "evaluation is a large share of a generation");
      s.push_back(t + ".");
    }
  }
  // The GPU.
  const bool gpu = std::any_of(r.rows.begin(), r.rows.end(), on_gpu);
  if (!gpu) {
    s.push_back(fmt::format("No CUDA rows were measured here: {}. Where a GPU starts to win therefore cannot be said "
                            "from this run; run the same command on a machine with a GPU and a CUDA build and compare "
                            "the two results.json files with `ga-bench --compare`.",
                            no_gpu_reason(r)));
  } else {
    gpu_sentences(r, eval_sizes, s);
  }
  // The JIT.
  const bool expression = std::any_of(r.rows.begin(), r.rows.end(), [](const bench_row& row) {
    return row.tier == bench_tier::fused_jit || row.tier == bench_tier::fused_interp;
  });
  if (expression && r.jit_compile_cold_s > 0 && !gen_sizes.empty()) {
    const std::size_t n = gen_sizes.back();
    const bench_row* jit = nullptr;
    for (const auto& row : r.rows)
      if (row.tier == bench_tier::fused_jit && row.workload == bench_workload::generation && row.population == n &&
          (!jit || row.threads > jit->threads))
        jit = &row;
    const bench_row* interp = jit ? row_of(r.rows, bench_tier::fused_interp, jit->backend, jit->threads,
                                                  bench_workload::generation, n) : nullptr;
    if (jit && interp) {
      const double saved = interp->median_ms - jit->median_ms;
      s.push_back(saved > 0
                      ? fmt::format("The JIT compile takes {:.2g} s with an empty cache ({} from the cache); at N = {} "
                                    "it saves {} per generation over the interpreter, so it pays off after {:.0f} "
                                    "generations ({:.0f} with a warm cache).",
                                    r.jit_compile_cold_s, human_time_ms(1e3 * r.jit_compile_warm_s), with_commas(n),
                                    human_time_ms(saved), std::ceil(1e3 * r.jit_compile_cold_s / saved),
                                    std::ceil(1e3 * r.jit_compile_warm_s / saved))
                      : fmt::format("The JIT compile takes {:.2g} s, and at N = {} the JIT-compiled generation is not "
                                    "faster than the interpreter's, so it does not pay off here.",
                                    r.jit_compile_cold_s, with_commas(n)));
    }
  } else if (expression) {
    s.push_back("The JIT compile times and break-even point are in the notes.");
  }
  std::string out;
  for (const auto& t : s) out += (out.empty() ? "" : " ") + t;
  return out;
}

std::string format_report_markdown(const bench_report& r, const markdown_options& o) {
  std::string md = fmt::format("# ga-bench report: {}\n\n", r.problem.empty() ? "(unnamed problem)" : r.problem);
  if (!o.command.empty())
    md += fmt::format("Produced by `{}` (FusedGA {}). Raw numbers: [results.csv](results.csv), "
                      "[results.json](results.json).\n\n",
                      o.command, r.environment.fusedga_version);
  environment_section(r, o, md);
  problem_section(r, md);
  tiers_section(r, md);
  method_section(r, md);
  workload_section(r, bench_workload::eval, md);
  workload_section(r, bench_workload::generation, md);
  if (r.rows.empty()) md += "No rows were measured (see the notes).\n\n";

  md += "## What this means\n\n" + what_this_means(r) + "\n\n";

  md += "## Plots\n\n";
  static const std::map<std::string, std::string> captions{
      {"time", "Time per call against population size (log–log), per configuration"},
      {"speedup", "Speedup over the slowest configuration at the largest size"},
      {"roofline", "Roofline: achieved GFLOP/s against arithmetic intensity, under the measured bandwidth and peak"}};
  for (const auto& p : o.plots) {
    const auto c = captions.find(p);
    const std::string caption = c == captions.end() ? p : c->second;
    md += fmt::format("{}:\n\n![{}]({}.svg)\n\n([PNG]({}.png))\n\n", caption, caption, p, p);
  }
  for (const auto& n : o.plot_notices) md += "*" + n + "*\n\n";
  if (!o.plots.empty()) md += "Redraw with `gnuplot plots.gp` in this directory (data in time.dat, speedup.dat, roofline.dat).\n\n";

  if (!r.notes.empty()) {
    md += "## Notes\n\n";
    for (const auto& n : r.notes) md += "- " + n + "\n";
    md += "\n";
  }
  return md;
}

}  // namespace fusedga
