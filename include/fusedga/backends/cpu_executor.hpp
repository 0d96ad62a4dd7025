#pragma once
/// @file cpu_executor.hpp
/// The CPU executor (engine/executor.hpp's requirements) behind backend::serial
/// and backend::tbb, which differ only in the `Loop` that runs `f(t)` for every
/// tile t: the tile passes of engine/passes.hpp over host populations.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "fusedga/core/bounds.hpp"
#include "fusedga/core/population.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/engine/executor.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/passes.hpp"
#include "fusedga/engine/tile_summary.hpp"

namespace fusedga::detail {

/**
 * Two host populations, the per-tile summaries and the elite list of one run;
 * `Loop` (serial_loop, tbb_loop) is constructed from the backend tag and offers
 * `for_each_index(n, f)` (returns when every f(i) returned) and `concurrency()`.
 * Each tile summarizes itself (tile_summary.hpp); `finish_generation` combines
 * them in tile order, so results are bitwise equal for every thread count.
 */
template <class Problem, class Loop>
class cpu_executor {
 public:
  using gene = gene_t<Problem>;
  using fitness = fitness_t<Problem>;
  using key = rank_key_t<fitness>;
  using view_type = population_view<gene, fitness>;
  using summary_type = generation_summary<key, fitness>;

  template <class Backend>
  cpu_executor(const Problem&, const kernel_params<Problem>& kp, const Bounds<gene>& bounds, const Backend& backend)
      : loop_(backend), bounds_(bounds), kp_(kp) {
    kp_.bounds = {bounds_.lower.data(), bounds_.upper.data()};
    const int d = kp.dimension;
    a_ = population<gene, fitness>(kp.population, d);
    b_ = population<gene, fitness>(kp.population, d);
    src_ = a_.view();
    dst_ = b_.view();
    // each tile offers its best min(E, its slots) as elite candidates: exact for any E
    capacity_ = std::min<std::size_t>(std::max<std::size_t>(kp.elitism, 1), 2 * kTilePairs);
    totals_.resize(eval_tiles());
    candidates_.resize(eval_tiles() * capacity_ + kp.elitism);
    elites_.resize(kp.elitism);
    best_.resize(static_cast<std::size_t>(d));
  }

  cpu_executor(const cpu_executor&) = delete;
  cpu_executor& operator=(const cpu_executor&) = delete;

  summary_type initialize() {
    const auto sink = summary();
    const auto kp = kp_;
    const auto pop = src_;
    loop_.for_each_index(eval_tiles(), [&](std::size_t t) { init_tile(kp, pop, t, sink); });
    return finish_generation(src_, eval_tiles(), 0);
  }

  void evaluate() {
    const auto sink = summary();
    const auto kp = kp_;
    const auto pop = src_;
    loop_.for_each_index(eval_tiles(), [&](std::size_t t) { evaluate_tile(kp, pop, t, sink); });
  }

  summary_type next_generation(std::uint32_t generation) {
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    for (std::size_t k = 0; k < elites_.size(); ++k) {
      const std::size_t s = elites_[k].slot;
      std::memcpy(dst_.row(k), src_.row(s), d * sizeof(gene));
      dst_.objective[k] = src_.objective[s];
      dst_.violation[k] = src_.violation[s];
      dst_.rank_key[k] = src_.rank_key[s];
    }
    const auto sink = summary();
    const auto kp = kp_;
    const auto src = src_;
    const auto dst = dst_;
    loop_.for_each_index(offspring_tiles(), [&](std::size_t t) { offspring_tile(kp, src, dst, generation, t, sink); });
    const summary_type s = finish_generation(dst_, offspring_tiles(), elites_.size());
    std::swap(src_, dst_);
    return s;
  }

  void keep_best(std::uint32_t slot) { std::copy_n(src_.row(slot), best_.size(), best_.begin()); }
  void fetch_best(gene* out) const { std::copy(best_.begin(), best_.end(), out); }
  view_type current() const { return src_; }
  int concurrency() const { return loop_.concurrency(); }

 private:
  std::size_t eval_tiles() const { return (kp_.population + kTileSlots - 1) / kTileSlots; }
  std::size_t offspring_tiles() const { return (kp_.pairs() + kTilePairs - 1) / kTilePairs; }
  summary_sink<key> summary() { return {totals_.data(), candidates_.data(), capacity_}; }

  // Combines tile summaries (in tile order) with the elites in slots [0, elite_slots): statistics, best, next elites.
  summary_type finish_generation(const view_type& pop, std::size_t tiles, std::size_t elite_slots) {
    summary_type s;
    double sum = 0;
    std::uint64_t feasible = 0, repairs = 0;
    for (std::size_t t = 0; t < tiles; ++t) {
      sum += totals_[t].objective_sum;
      feasible += totals_[t].feasible;
      repairs += totals_[t].repair_evaluations;
    }
    std::size_t n_cand = tiles * capacity_;
    for (std::size_t k = 0; k < elite_slots; ++k) {
      sum += static_cast<double>(pop.objective[k]);
      feasible += pop.violation[k] == fitness(0) ? 1 : 0;
      candidates_[n_cand++] = {pop.rank_key[k], static_cast<std::uint32_t>(k)};
    }
    const std::size_t keep = std::max<std::size_t>(elites_.size(), 1);
    std::partial_sort(candidates_.begin(), candidates_.begin() + static_cast<std::ptrdiff_t>(keep),
                      candidates_.begin() + static_cast<std::ptrdiff_t>(n_cand));
    std::copy_n(candidates_.begin(), elites_.size(), elites_.begin());
    s.objective_sum = sum;
    s.feasible = feasible;
    s.repair_evaluations = repairs;
    s.best = candidates_[0];
    s.best_objective = pop.objective[s.best.slot];
    s.best_violation = pop.violation[s.best.slot];
    return s;
  }

  Loop loop_;
  Bounds<gene> bounds_;
  kernel_params<Problem> kp_{};
  population<gene, fitness> a_, b_;
  view_type src_{}, dst_{};
  std::size_t capacity_ = 1;
  std::vector<tile_totals> totals_;
  std::vector<candidate<key>> candidates_;
  std::vector<candidate<key>> elites_;
  std::vector<gene> best_;
};

}  // namespace fusedga::detail
