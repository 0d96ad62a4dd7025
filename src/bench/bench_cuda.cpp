// ga-bench's CUDA tiers (bench/bench_cuda.hpp). Compiled by the host
// compiler; the CUDA work happens behind cuda_bench_target (src/cuda/).
#include "bench/bench_cuda.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_environment.hpp"
#include "bench/bench_factories.hpp"
#include "bench/bench_options.hpp"
#include "bench/bench_stats.hpp"
#include "bench/bench_target.hpp"
#include "bench/bytes_model.hpp"
#include "bench/cuda_unfused.hpp"
#include "bench/unfused_check.hpp"
#include "bench/timed_row.hpp"
#include "fusedga/config/registry.hpp"
#include "fusedga/core/error.hpp"

namespace fusedga {

std::string cuda_environment_description() { return cuda_device_line(); }

namespace {

template <class T>
bool contains(const std::vector<T>& v, T x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

/// Warm-up calls, then timed calls until min_repeats and min_time_s are reached (event times, seconds).
template <class Once>
std::vector<double> time_cuda(Once once, const repeat_policy& p) {
  for (int i = 0; i < p.warmup; ++i) (void)once();
  std::vector<double> times;
  double sum = 0;
  while (times.size() < p.max_repeats && (times.size() < static_cast<std::size_t>(p.min_repeats) || sum < p.min_time_s)) {
    times.push_back(once());
    sum += times.back();
  }
  return times;
}

/// The GPU unfused tier's eval rows (tier unfused, backend cuda), each checked against the host's scalar
/// evaluation of the same genes; freed afterwards, so the fused engine's largest population fits beside nothing.
template <class Say>
void time_unfused_rows(cuda_unfused_target& t, const bench_plan& plan, const record_layout& layout,
                       bench_report& report, const Say& say) {
  const double tolerance = detail::unfused_tolerance(layout.fitness_bytes);
  for (const std::size_t n : plan.sizes) {
    say(fmt::format("N = {}: timing unfused eval on cuda (Thrust)", n));
    try {
      t.prepare(n);
    } catch (const config_error& e) {
      report.notes.push_back(fmt::format("cuda unfused: N = {} skipped: {}", n, e.what()));
      say(report.notes.back());
      continue;
    }
    const timing_summary s = summarize_times(time_cuda([&] { return t.time_once(); }, plan.repeats));
    bench_row row = timed_row(bench_tier::unfused, bench_workload::eval, backend_kind::cuda, 1, n, s,
                              evaluation_traffic(layout, n));
    say(fmt::format("  {} repeats, median {:.4g} ms, {:.3g} M individuals/s", s.count, row.median_ms,
                    row.individuals_per_s / 1e6));
    report.rows.push_back(std::move(row));
    const double diff = t.difference_from_host();
    if (!(diff <= tolerance))
      throw error(fmt::format("ga-bench: the GPU unfused evaluation disagrees with the host's at N = {}: max relative "
                              "difference {:.3g} > {:.0e}", n, diff, tolerance));
  }
  t.prepare(1);  // gives the largest population's memory back
  report.notes.push_back(
      "cuda unfused rows: the seed code the eager-PyTorch way, one thrust::transform per arithmetic operation into a "
      "fresh device temporary (freed blocks reused, as PyTorch's caching allocator does), kernels enqueued without "
      "synchronization between them; objective and violation checked against the host's scalar evaluation of the "
      "same genes");
}

}  // namespace

bench_plan without_cuda(bench_plan plan) {
  plan.backends.erase(std::remove_if(plan.backends.begin(), plan.backends.end(),
                                     [](const bench_backend& b) { return b.kind == backend_kind::cuda; }),
                      plan.backends.end());
  return plan;
}

bench_report run_bench_with_cuda(const run_config& cfg, bench_plan plan, const bench_progress& progress) {
  const auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  const std::size_t requested = plan.backends.size();
  plan = without_cuda(std::move(plan));
  const bool want_cuda = plan.backends.size() < requested;
  const bool fused = contains(plan.tiers, bench_tier::fused);
  const detail::bench_factories factories = detail::bench_factories_for(cfg);
  if (want_cuda) {
    if (!cuda_built()) throw backend_unavailable("backend cuda: this build has no CUDA backend (built backends: serial, tbb)");
    if (!factories.cuda) throw config_error("backend cuda: " + cfg.problem.builtin + " runs on the CPU backends only");
    if (!fused) throw config_error("--backends cuda times the fused tier; add fused to --tiers");
    const std::string why = cuda_unavailable_reason();
    if (!why.empty()) throw backend_unavailable("backend cuda: no usable GPU: " + why);
  }

  // The CPU part: whatever remains of the plan.
  const auto target = factories.cpu(cfg);
  bench_plan cpu = plan;
  if (cpu.backends.empty()) cpu.tiers.erase(std::remove(cpu.tiers.begin(), cpu.tiers.end(), bench_tier::fused), cpu.tiers.end());
  const bool baselines = contains(cpu.workloads, bench_workload::eval) &&
                         (contains(cpu.tiers, bench_tier::object) || contains(cpu.tiers, bench_tier::unfused));
  bench_report report;
  if (!cpu.tiers.empty() && (baselines || !cpu.backends.empty())) {
    report = run_bench(*target, cpu, progress);
  } else {
    report.dimension = target->dimension();
    report.gene_bytes = target->gene_bytes();
    report.fitness_bytes = target->fitness_bytes();
    report.key_bytes = target->key_bytes();
    report.environment = probe_environment();
    report.warmup = plan.repeats.warmup;
    report.min_repeats = plan.repeats.min_repeats;
    report.min_time_s = plan.repeats.min_time_s;
  }
  if (report.tournament_size == 0) {  // no fused CPU rows: the header's GA figures are what the CUDA target runs
    const ga_options o = bench_ga_options(cfg.ga, plan.sizes.empty() ? 2 : plan.sizes.front());
    report.tournament_size = o.selection.tournament_size;
    report.elitism = o.elitism;
  }
  if (cuda_built()) report.environment.gpu = cuda_environment_description();
  if (!want_cuda) return report;

  // The CUDA rows.
  const std::unique_ptr<cuda_bench_target> gpu = factories.cuda(cfg);
  record_layout layout;
  layout.dimension = report.dimension;
  layout.gene_bytes = report.gene_bytes;
  layout.fitness_bytes = report.fitness_bytes;
  layout.key_bytes = report.key_bytes;
  const std::size_t copy_bytes = std::size_t(512) << 20;
  // The smallest population every algorithm accepts (differential evolution needs 4): the probes run beside it.
  constexpr std::size_t kProbePopulation = 4;
  gpu->prepare(kProbePopulation);
  double bandwidth = 0;
  const auto probe = [&] {
    say("measuring the device's copy bandwidth (cudaMemcpy device to device, 512 MiB)");
    bandwidth = std::max(bandwidth, gpu->copy_gb_per_s(copy_bytes, std::max(plan.copy_trials, 1)));
    say(fmt::format("  {:.1f} GB/s", bandwidth));
  };
  probe();
  const std::size_t first_row = report.rows.size();
  // The GPU unfused tier (Thrust, one transform per operation), beside the fused rows when unfused is asked for.
  std::unique_ptr<cuda_unfused_target> unfused;
#if defined(FUSEDGA_WITH_CUDA)
  if (contains(plan.tiers, bench_tier::unfused) && contains(plan.workloads, bench_workload::eval))
    unfused = detail::make_cuda_unfused_target(cfg);
#endif
  for (const std::size_t n : plan.sizes) {
    say(fmt::format("N = {}: preparing cuda", n));
    try {
      gpu->prepare(n);
    } catch (const config_error& e) {  // does not fit in device memory: the message says how many fit
      report.notes.push_back(fmt::format("cuda: N = {} skipped: {}", n, e.what()));
      say(report.notes.back());
      continue;
    }
    const ga_options o = bench_ga_options(cfg.ga, n);  // what the target runs with
    for (const bench_workload w : plan.workloads) {
      for (const bool transfer : {false, true}) {
        const cuda_workload cw = w == bench_workload::eval
                                     ? (transfer ? cuda_workload::eval_transfer : cuda_workload::eval)
                                     : (transfer ? cuda_workload::generation_transfer : cuda_workload::generation);
        const bench_tier tier = transfer ? bench_tier::fused_transfer : bench_tier::fused;
        say(fmt::format("N = {}: timing {} {} on cuda", n, to_string(tier), to_string(w)));
        const timing_summary s = summarize_times(time_cuda([&] { return gpu->time_once(cw); }, plan.repeats));
        bench_row row = timed_row(
            tier, w, backend_kind::cuda, 1, n, s,
            w == bench_workload::eval
                ? evaluation_traffic(layout, n)
                : generation_traffic(layout, n, o.elitism, o.selection.tournament_size));
        say(fmt::format("  {} repeats, median {:.4g} ms, {:.3g} M individuals/s, {:.3g} GB/s of device traffic", s.count,
                        row.median_ms, row.individuals_per_s / 1e6, row.gb_per_s));
        report.rows.push_back(std::move(row));
      }
    }
  }
  if (unfused) time_unfused_rows(*unfused, plan, layout, report, say);
  gpu->prepare(kProbePopulation);  // frees the largest population first: the probe's 2 x 512 MiB must fit beside it
  probe();          // again after the timings; the best probe is the denominator
  for (std::size_t r = first_row; r < report.rows.size(); ++r) {
    bench_row& row = report.rows[r];
    row.copy_gb_per_s = row.tier == bench_tier::fused ? bandwidth : 0;  // transfer rows are bound by the host link, not device memory
    row.copy_fraction = row.copy_gb_per_s > 0 ? row.gb_per_s / row.copy_gb_per_s : 0;
  }
  report.notes.push_back(fmt::format(
      "cuda rows: timed with CUDA events on the engine's stream (a generation includes its graph launch, the statistics' "
      "copy to the host and the synchronization); %copy is against the device's measured copy bandwidth, {:.1f} GB/s "
      "(cudaMemcpy device to device, read + write counted, best of the probes before and after); fused-transfer rows add "
      "host<->device copies of the population (pinned memory) and have no %copy",
      bandwidth));
  return report;
}

}  // namespace fusedga
