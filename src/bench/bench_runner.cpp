#include "bench/bench_runner.hpp"

#include <algorithm>
#include <chrono>
#include <set>

#include <fmt/format.h>

#include "bench/bench_environment.hpp"
#include "bench/bench_stats.hpp"
#include "bench/bytes_model.hpp"
#include "bench/roofline_peak.hpp"
#include "bench/stream_copy.hpp"
#include "bench/timed_row.hpp"
#include "bench/unfused_check.hpp"
#include "fusedga/core/error.hpp"

namespace fusedga {

namespace {

template <class T>
bool contains(const std::vector<T>& v, T x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

std::string human_bytes(double b) {
  if (b >= 1e9) return fmt::format("{:.1f} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.1f} MB", b / 1e6);
  return fmt::format("{:.0f} kB", b / 1e3);
}

void check_plan(const bench_plan& plan) {
  if (plan.sizes.empty()) throw config_error("ga-bench: no population sizes given");
  for (const std::size_t n : plan.sizes)
    if (n < 2 || n >= (std::size_t(1) << 31))
      throw config_error("ga-bench: population size " + std::to_string(n) + " is outside [2, 2147483647]");
  if (plan.tiers.empty()) throw config_error("ga-bench: no tiers selected");
  if (plan.workloads.empty()) throw config_error("ga-bench: no workloads selected");
  if (contains(plan.tiers, bench_tier::fused) && plan.backends.empty())
    throw config_error("ga-bench: no backends selected for the fused tier");
  for (const auto& b : plan.backends) {
    if (b.kind != backend_kind::serial && b.kind != backend_kind::tbb)
      throw config_error(std::string("ga-bench: backend ") + to_string(b.kind) + " cannot be benchmarked in this build");
    if (b.threads < 1) throw config_error("ga-bench: thread counts must be >= 1");
  }
  if (plan.repeats.min_repeats < 1) throw config_error("ga-bench: --repeats must be >= 1");
  if (plan.repeats.min_time_s < 0) throw config_error("ga-bench: --min-time must be >= 0");
}

class runner {
 public:
  runner(bench_target& target, const bench_plan& plan, const bench_progress& progress)
      : target_(target), plan_(plan), progress_(progress) {
    layout_.dimension = target.dimension();
    layout_.gene_bytes = target.gene_bytes();
    layout_.fitness_bytes = target.fitness_bytes();
    layout_.key_bytes = target.key_bytes();
  }

  bench_report run() {
    check_plan(plan_);
    report_.dimension = layout_.dimension;
    report_.gene_bytes = layout_.gene_bytes;
    report_.fitness_bytes = layout_.fitness_bytes;
    report_.key_bytes = layout_.key_bytes;
    report_.environment = probe_environment();
    report_.warmup = plan_.repeats.warmup;
    report_.min_repeats = plan_.repeats.min_repeats;
    report_.min_time_s = plan_.repeats.min_time_s;
    measure_copy_bandwidths();
    memory_limit_ = plan_.memory_limit_bytes ? plan_.memory_limit_bytes : available_memory_bytes() / 10 * 9;
    if (!contains(plan_.workloads, bench_workload::eval) &&
        (contains(plan_.tiers, bench_tier::object) || contains(plan_.tiers, bench_tier::unfused)))
      report_.notes.push_back("object and unfused tiers time evaluation only; skipped (workload eval not selected)");
    if (contains(plan_.tiers, bench_tier::unfused) && !target_.has_unfused())
      report_.notes.push_back("unfused tier: this problem has no unfused (NumPy-style) evaluator; only the seed problems do");
    for (const std::size_t n : plan_.sizes) run_size(n);
    // Probe again after the timings: bandwidth on a shared machine drifts, and the
    // best probe is the honest (conservative) denominator for every row.
    measure_copy_bandwidths();
    for (auto& row : report_.rows) set_copy_fraction(row);
    add_speedups();
    return std::move(report_);
  }

 private:
  void say(const std::string& line) const {
    if (progress_) progress_(line);
  }

  bool baseline_tiers_wanted() const {
    return contains(plan_.workloads, bench_workload::eval) &&
           (contains(plan_.tiers, bench_tier::object) ||
            (contains(plan_.tiers, bench_tier::unfused) && target_.has_unfused()));
  }

  /// Copy bandwidth and peak FLOP/s at every thread count used (kept: the best of all probes).
  void measure_copy_bandwidths() {
    std::set<int> threads;
    if (baseline_tiers_wanted()) threads.insert(1);
    if (contains(plan_.tiers, bench_tier::fused))
      for (const auto& b : plan_.backends) threads.insert(b.kind == backend_kind::serial ? 1 : b.threads);
    for (const int t : threads) {
      say(fmt::format("measuring copy bandwidth with {} thread{}", t, t == 1 ? "" : "s"));
      const copy_bandwidth c = measure_copy_bandwidth(t, plan_.copy_array_bytes, plan_.copy_trials);
      double& best = report_.environment.copy_gb_per_s[t];
      best = std::max(best, c.gb_per_s);
      report_.environment.copy_array_bytes = c.array_bytes;
      say(fmt::format("  {:.1f} GB/s", c.gb_per_s));
      if (plan_.peak_trials > 0) {  // the roofline's flat roof, in the fitness precision
        const peak_flops p = measure_peak_flops(t, layout_.fitness_bytes == 4, plan_.peak_trials);
        double& peak = report_.environment.peak_gflop_per_s[t];
        peak = std::max(peak, p.gflop_per_s);
        say(fmt::format("  peak {:.1f} GFLOP/s ({})", p.gflop_per_s, p.kernel));
      }
    }
  }

  void run_size(std::size_t n) {
    const std::uint64_t engine_bytes = engine_memory_bytes(layout_, n);
    if (memory_limit_ && engine_bytes > memory_limit_) {
      report_.notes.push_back(fmt::format("N = {} skipped: its two populations need {} but only {} may be allocated",
                                          n, human_bytes(double(engine_bytes)), human_bytes(double(memory_limit_))));
      say(report_.notes.back());
      return;
    }
    const bool fused = contains(plan_.tiers, bench_tier::fused);
    bool first = true;
    const std::vector<bench_backend> backends =
        fused ? plan_.backends : std::vector<bench_backend>{bench_backend{backend_kind::serial, 1}};
    for (const auto& b : backends) {
      say(fmt::format("N = {}: preparing {} ({} thread{})", n, to_string(b.kind), b.threads, b.threads == 1 ? "" : "s"));
      const auto t0 = std::chrono::steady_clock::now();
      target_.prepare(n, b.kind, b.kind == backend_kind::serial ? 1 : b.threads);
      say(fmt::format("  prepared in {:.2f} s (two populations of {}, initialized and evaluated)",
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                      human_bytes(double(engine_bytes) / 2)));
      report_.tournament_size = target_.tournament_size();
      report_.elitism = target_.elitism();
      if (first) {
        run_baselines(n, engine_bytes);
        first = false;
      }
      if (!fused) break;
      const int threads = b.kind == backend_kind::serial ? 1 : b.threads;
      if (contains(plan_.workloads, bench_workload::eval))
        time_row(bench_tier::fused, bench_workload::eval, b.kind, threads, n, [this] { target_.evaluate_fused(); });
      if (contains(plan_.workloads, bench_workload::generation))
        time_row(bench_tier::fused, bench_workload::generation, b.kind, threads, n, [this] { target_.generation(); });
    }
  }

  void run_baselines(std::size_t n, std::uint64_t engine_bytes) {
    if (!contains(plan_.workloads, bench_workload::eval)) return;
    const std::uint64_t values = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(layout_.dimension);
    if (contains(plan_.tiers, bench_tier::object)) {
      const std::uint64_t bytes = object_tier_memory_bytes(layout_, n);
      if (values > plan_.object_max_gene_values) {
        report_.notes.push_back(fmt::format(
            "object tier skipped at N = {}: N*d = {:.3g} gene values is above its cap of {:.3g} ({} of std::vector rows; "
            "too slow to repeat)",
            n, double(values), double(plan_.object_max_gene_values), human_bytes(double(bytes))));
        say(report_.notes.back());
      } else if (memory_limit_ && engine_bytes + bytes > memory_limit_) {
        report_.notes.push_back(fmt::format("object tier skipped at N = {}: its rows need {} more than fit in memory", n,
                                            human_bytes(double(bytes))));
        say(report_.notes.back());
      } else {
        say(fmt::format("N = {}: building {} object rows", n, n));
        target_.prepare_objects();
        time_row(bench_tier::object, bench_workload::eval, backend_kind::serial, 1, n, [this] { target_.evaluate_objects(); });
        target_.release_objects();
      }
    }
    if (contains(plan_.tiers, bench_tier::unfused) && target_.has_unfused()) {
      if (values > plan_.unfused_max_gene_values) {
        report_.notes.push_back(fmt::format("unfused tier skipped at N = {}: N*d = {:.3g} gene values is above its cap of {:.3g}",
                                            n, double(values), double(plan_.unfused_max_gene_values)));
        say(report_.notes.back());
        return;
      }
      // About 32 live arrays of N values at most (unfused_seed.hpp), 8 bytes each.
      const std::uint64_t temporaries = 32ull * 8ull * n;
      if (memory_limit_ && engine_bytes + temporaries > memory_limit_) {
        report_.notes.push_back(fmt::format("unfused tier skipped at N = {}: its temporaries need about {} more than fit in memory",
                                            n, human_bytes(double(temporaries))));
        say(report_.notes.back());
        return;
      }
      time_row(bench_tier::unfused, bench_workload::eval, backend_kind::serial, 1, n, [this] { target_.evaluate_unfused(); });
      const double diff = target_.unfused_difference();
      const double tolerance = detail::unfused_tolerance(layout_.fitness_bytes);
      if (!(diff <= tolerance))
        throw error(fmt::format("ga-bench: the unfused evaluation disagrees with the fused one at N = {}: "
                                "max relative difference {:.3g} > {:.0e}", n, diff, tolerance));
      report_.notes.push_back(fmt::format("N = {}: unfused objective and violation match the fused evaluation "
                                          "(max relative difference {:.2g}, tolerance {:.0e})", n, diff, tolerance));
    }
  }

  template <class Work>
  void time_row(bench_tier tier, bench_workload workload, backend_kind backend, int threads, std::size_t n, Work work) {
    say(fmt::format("N = {}: timing {} {} on {} x{}", n, to_string(tier), to_string(workload), to_string(backend), threads));
    const timing_summary s = summarize_times(time_repeats(work, plan_.repeats));
    bench_row row = timed_row(tier, workload, backend, threads, n, s,
                              workload == bench_workload::eval
                                  ? evaluation_traffic(layout_, n)
                                  : generation_traffic(layout_, n, target_.elitism(), target_.tournament_size()));
    set_copy_fraction(row);
    say(fmt::format("  {} repeats, median {:.4g} ms, {:.3g} M individuals/s, {:.3g} GB/s ({:.0f}% of copy)", s.count,
                    row.median_ms, row.individuals_per_s / 1e6, row.gb_per_s, 100 * row.copy_fraction));
    report_.rows.push_back(std::move(row));
  }

  /// The copy bandwidth attainable with up to row.threads threads (the best probe at any
  /// thread count <= row.threads), and the row's fraction of it.
  void set_copy_fraction(bench_row& row) const {
    row.copy_gb_per_s = 0;
    for (const auto& [t, gbs] : report_.environment.copy_gb_per_s)
      if (t <= row.threads) row.copy_gb_per_s = std::max(row.copy_gb_per_s, gbs);
    row.copy_fraction = row.copy_gb_per_s > 0 ? row.gb_per_s / row.copy_gb_per_s : 0;
  }

  void add_speedups() {
    for (auto& row : report_.rows) {
      if (row.workload != bench_workload::eval) continue;
      for (const auto& base : report_.rows) {
        if (base.workload != bench_workload::eval || base.population != row.population || base.median_ms <= 0) continue;
        if (base.tier == bench_tier::object) row.speedup_vs_object = base.median_ms / row.median_ms;
        if (base.tier == bench_tier::unfused) row.speedup_vs_unfused = base.median_ms / row.median_ms;
      }
    }
  }

  bench_target& target_;
  const bench_plan& plan_;
  const bench_progress& progress_;
  record_layout layout_;
  bench_report report_;
  std::uint64_t memory_limit_ = 0;
};

}  // namespace

bench_report run_bench(bench_target& target, const bench_plan& plan, const bench_progress& progress) {
  return runner(target, plan, progress).run();
}

}  // namespace fusedga
