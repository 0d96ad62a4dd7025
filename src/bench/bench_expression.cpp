#include "bench/bench_expression.hpp"

#include <stdlib.h>  // mkdtemp

#include <chrono>
#include <filesystem>
#include <optional>
#include <system_error>

#include <fmt/format.h>

#include "bench/bench_config.hpp"
#include "bench/bench_cuda.hpp"
#include "bench/bench_factories.hpp"
#include "bench/bench_target.hpp"
#include "fusedga/config/registry.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/expr/jit.hpp"

namespace fusedga {

namespace {

/// A fresh private directory under the system temp dir, removed with everything in it.
class temp_dir {
 public:
  temp_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "fusedga-bench-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw error("ga-bench: cannot create a temporary JIT cache directory");
    path_ = pattern;
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

template <class Real>
jit_compile_times compile_times(const expr::program& p) {
  const temp_dir cache;
  expr::jit_options o;
  o.cache_dir = cache.path() + "/cache";
  const auto time = [&] {
    const auto start = std::chrono::steady_clock::now();
    expr::jit_compile<Real>(p, o);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  jit_compile_times t;
  t.cold_s = time();
  t.warm_s = time();
  return t;
}

/// Relabels the rows of tier `from` as `to`.
void relabel(std::vector<bench_row>& rows, bench_tier from, bench_tier to) {
  for (auto& r : rows)
    if (r.tier == from) r.tier = to;
}

/// The row of (tier, workload, backend, n) with the most threads: the headline configuration.
const bench_row* find_row(const std::vector<bench_row>& rows, bench_tier tier, bench_workload workload,
                          backend_kind backend, std::size_t n) {
  const bench_row* best = nullptr;
  for (const auto& r : rows)
    if (r.tier == tier && r.workload == workload && r.backend == backend && r.population == n &&
        (!best || r.threads > best->threads))
      best = &r;
  return best;
}

}  // namespace

jit_compile_times measure_jit_compile(const run_config& cfg) {
  if (!cfg.problem.expression) throw error("ga-bench: not an expression problem");
  return cfg.precision == precision_kind::float32 ? compile_times<float>(*cfg.problem.expression)
                                                  : compile_times<double>(*cfg.problem.expression);
}

bench_report run_expression_bench(const run_config& cfg, const bench_plan& plan, const std::string& baseline,
                                  const bench_progress& progress) {
  // The CPU rows' path (the cuda rows always run the GPU JIT: an interpreter there is a config error).
  run_config on_cpu = cfg;
  on_cpu.backend = backend_kind::tbb;
  const expression_plan path = plan_expression(on_cpu);
  const bool jit = path.engine == expression_engine::jit;
  const bench_tier fused_tier = jit ? bench_tier::fused_jit : bench_tier::fused_interp;
  const bench_plan cpu_plan = without_cuda(plan);
  const bool on_gpu = cpu_plan.backends.size() < plan.backends.size();
  if (on_gpu && cfg.problem.engine == expression_engine::interpreter)
    throw config_error("--backends cuda: problem.engine interpreter runs on the CPU only (the GPU runs the GPU JIT)");

  bench_report report = run_bench_with_cuda(cfg, plan, progress);  // CPU rows, then the GPU JIT's cuda rows
  for (auto& r : report.rows) {
    if (r.tier == bench_tier::fused) r.tier = r.backend == backend_kind::cuda ? bench_tier::fused_jit : fused_tier;
    if (r.tier == bench_tier::unfused) r.tier = bench_tier::interpreter;
  }
  report.notes.insert(report.notes.begin(), "evaluation path: " + path.reason);
  if (on_gpu) report.notes.insert(report.notes.begin() + 1, "cuda rows: the GPU JIT (" + plan_expression(cfg).reason + ")");

  bench_plan fused_only = plan;
  fused_only.tiers = {bench_tier::fused};
  if (jit && !cpu_plan.backends.empty()) {  // the same engine with the interpreter, for the break-even point
    run_config interp = cfg;
    interp.problem.engine = expression_engine::interpreter;
    interp.backend = backend_kind::tbb;  // the interpreter runs on the CPU whatever the config's backend
    bench_plan interp_plan = cpu_plan;
    interp_plan.tiers = {bench_tier::fused};
    const auto target = detail::bench_factories_for(interp).cpu(interp);
    bench_report r = run_bench(*target, interp_plan, progress);
    relabel(r.rows, bench_tier::fused, bench_tier::fused_interp);
    report.rows.insert(report.rows.end(), r.rows.begin(), r.rows.end());
  }
  if (!baseline.empty()) {
    run_config b = resolve_bench_config(baseline, {});
    b.precision = cfg.precision;
    b.ga = cfg.ga;  // the same operators, rates and elitism
    const problem_entry entry = entry_for(b);
    if (!b.problem.expression && entry.integer_genes) throw config_error("--baseline " + baseline + ": has integer genes");
    bench_report r = run_bench_with_cuda(b, fused_only, progress);
    relabel(r.rows, bench_tier::fused, bench_tier::builtin);
    relabel(r.rows, bench_tier::fused_transfer, bench_tier::builtin_transfer);
    report.rows.insert(report.rows.end(), r.rows.begin(), r.rows.end());
    report.notes.push_back("builtin rows: the compiled built-in " + baseline + " with the same GA settings");
  }

  std::optional<jit_compile_times> compile;
  if (jit && !cpu_plan.backends.empty()) {
    compile = measure_jit_compile(cfg);
    report.jit_compile_cold_s = compile->cold_s;  // for the report's "what this means" break-even sentence
    report.jit_compile_warm_s = compile->warm_s;
    report.notes.push_back(fmt::format("JIT compile (generate C++, run the compiler, dlopen): cold {:.2f} s with an "
                                       "empty cache, warm {:.1f} ms from the cache",
                                       compile->cold_s, 1e3 * compile->warm_s));
  }
  for (const std::size_t n : plan.sizes)
    for (const backend_kind backend : bench_backends) {
      const bench_tier tier = backend == backend_kind::cuda ? bench_tier::fused_jit : fused_tier;
      const bench_row* jit_gen = find_row(report.rows, tier, bench_workload::generation, backend, n);
      if (!jit_gen) continue;
      if (const bench_row* interp = find_row(report.rows, bench_tier::fused_interp, bench_workload::generation, backend, n);
          compile && interp && interp != jit_gen) {
        const double saved_ms = interp->median_ms - jit_gen->median_ms;
        report.notes.push_back(
            saved_ms > 0
                ? fmt::format("N = {}: the JIT saves {:.3g} ms per generation over the interpreter ({}, {} threads); the "
                              "cold compile pays for itself after {:.0f} generations",
                              n, saved_ms, to_string(backend), jit_gen->threads, std::ceil(1e3 * compile->cold_s / saved_ms))
                : fmt::format("N = {}: the JIT is not faster than the interpreter per generation here ({})", n,
                              to_string(backend)));
      }
      if (const bench_row* builtin = find_row(report.rows, bench_tier::builtin, bench_workload::generation, backend, n))
        report.notes.push_back(fmt::format("N = {}: {} generation / built-in generation = {:.3f} ({}, {} threads)", n,
                                           to_string(tier), jit_gen->median_ms / builtin->median_ms, to_string(backend),
                                           jit_gen->threads));
    }
  return report;
}

}  // namespace fusedga
