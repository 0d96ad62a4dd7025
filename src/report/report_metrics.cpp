#include "report/report_metrics.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

namespace fusedga {

bool is_unfused_tier(bench_tier tier) { return tier == bench_tier::unfused || tier == bench_tier::interpreter; }

void derive_row_metrics(bench_report& r) {
  std::map<std::pair<bench_workload, std::size_t>, double> slowest;  // (workload, N) -> slowest median
  std::map<std::size_t, double> object, unfused, unfused_gpu;     // N -> eval median (GPU: the Thrust tier)
  for (const auto& row : r.rows) {
    if (row.median_ms <= 0) continue;
    double& s = slowest[{row.workload, row.population}];
    s = std::max(s, row.median_ms);
    if (row.workload != bench_workload::eval) continue;
    if (row.tier == bench_tier::object) object[row.population] = row.median_ms;
    if (is_unfused_tier(row.tier)) (row.backend == backend_kind::cuda ? unfused_gpu : unfused)[row.population] = row.median_ms;
  }
  const auto ratio = [](const std::map<std::size_t, double>& base, const bench_row& row) -> std::optional<double> {
    const auto it = base.find(row.population);
    if (it == base.end() || row.median_ms <= 0) return std::nullopt;
    return it->second / row.median_ms;
  };
  for (auto& row : r.rows) {
    const bool eval = row.workload == bench_workload::eval;
    row.speedup_vs_object = eval ? ratio(object, row) : std::nullopt;
    // CUDA rows against the GPU unfused tier where it was timed (what fusion buys on the GPU), else the CPU's.
    const bool gpu_base = row.backend == backend_kind::cuda && unfused_gpu.count(row.population);
    row.speedup_vs_unfused = eval ? ratio(gpu_base ? unfused_gpu : unfused, row) : std::nullopt;
    row.speedup_vs_slowest = std::nullopt;
    if (row.median_ms > 0) row.speedup_vs_slowest = slowest[{row.workload, row.population}] / row.median_ms;
    const bool percentiles = row.p90_ms > 0;  // rows built without them (older code, hand-made) use the extremes
    const double width = percentiles ? row.p90_ms - row.p10_ms : row.max_ms - row.min_ms;
    row.spread = row.median_ms > 0 ? width / row.median_ms : 0;
    row.noisy = row.spread > noisy_spread_limit;
    row.gflop_per_s = 0;
    row.arithmetic_intensity = 0;
    if (eval && r.flops_per_evaluation > 0 && row.median_ms > 0 && row.bytes > 0) {
      const double flops = r.flops_per_evaluation * static_cast<double>(row.population);
      row.gflop_per_s = flops / (row.median_ms * 1e-3) / 1e9;
      row.arithmetic_intensity = flops / static_cast<double>(row.bytes);
    }
  }
}

std::string row_label(const bench_row& row, bool ascii) {
  if (row.tier == bench_tier::unfused && row.backend == backend_kind::cuda) return "unfused CUDA";
  if (row.tier == bench_tier::object || is_unfused_tier(row.tier)) return to_string(row.tier);
  std::string backend = row.backend == backend_kind::tbb    ? "TBB"
                        : row.backend == backend_kind::cuda ? "CUDA"
                                                            : to_string(row.backend);
  if (row.backend == backend_kind::tbb) backend += fmt::format(ascii ? " x{}" : " ×{}", row.threads);
  return std::string(to_string(row.tier)) + " " + backend;
}

int row_rank(const bench_row& row) {
  // Baselines, then the fused family (bench_tier's declaration order); within a tier serial before TBB by thread
  // count, then CUDA.
  const int tier = static_cast<int>(row.tier);
  const int backend = row.backend == backend_kind::serial ? 0 : row.backend == backend_kind::tbb ? 1 : 2;
  return tier * 1000000 + backend * 100000 + std::min(row.threads, 99999);
}

std::vector<const bench_row*> configurations(const std::vector<bench_row>& rows, bench_workload workload) {
  std::vector<const bench_row*> out;
  for (const auto& row : rows) {
    if (row.workload != workload) continue;
    const bool seen = std::any_of(out.begin(), out.end(), [&](const bench_row* o) {
      return o->tier == row.tier && o->backend == row.backend && o->threads == row.threads;
    });
    if (!seen) out.push_back(&row);
  }
  std::stable_sort(out.begin(), out.end(), [](const bench_row* a, const bench_row* b) { return row_rank(*a) < row_rank(*b); });
  return out;
}

std::string tier_explanation(bench_tier tier) {
  switch (tier) {
    case bench_tier::object:
      return "object-per-individual scalar code: a heap-allocated std::vector of genes and a virtual call per individual "
             "(the DEAP/OpenGA way), one thread";
    case bench_tier::unfused:
      return "unfused vectorized: one full pass over the population per arithmetic operation, each writing a fresh "
             "temporary array (the NumPy way), one thread; on CUDA one thrust::transform per operation into a fresh "
             "device temporary (the eager-PyTorch way)";
    case bench_tier::interpreter:
      return "unfused vectorized for an expression problem: the expression interpreter over the whole population, one "
             "pass and one temporary per AST node, one thread";
    case bench_tier::fused:
      return "fused: the engine's passes, objective, constraints and violation computed in one SIMD pass with no "
             "temporaries (serial, oneTBB with the given thread count, or CUDA with the population resident on the GPU)";
    case bench_tier::fused_transfer:
      return "fused CUDA with the population copied host→device before and device→host after every call (pinned "
             "memory): what a caller whose population lives on the host pays";
    case bench_tier::fused_jit:
      return "fused with the JIT-compiled expression problem: generated C++ compiled at run time, inside the engine's "
             "fused passes (compile time reported separately)";
    case bench_tier::fused_interp:
      return "fused engine passes with the expression interpreter evaluating each tile (no compiler needed)";
    case bench_tier::builtin:
      return "the compiled built-in problem with the same GA settings, for the JIT/built-in ratio";
    case bench_tier::builtin_transfer: return {};
  }
  return {};
}

std::vector<std::size_t> population_sizes(const std::vector<bench_row>& rows, std::optional<bench_workload> workload) {
  std::vector<std::size_t> out;
  for (const auto& row : rows)
    if (!workload || row.workload == *workload) out.push_back(row.population);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const bench_row* find_row(const std::vector<bench_row>& rows, const bench_row& like, bench_workload workload,
                          std::size_t n) {
  for (const auto& row : rows)
    if (row.workload == workload && row.population == n && row.tier == like.tier && row.backend == like.backend &&
        row.threads == like.threads)
      return &row;
  return nullptr;
}

}  // namespace fusedga
