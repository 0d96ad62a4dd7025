#pragma once
/// @file cpu_executor.hpp
/// The CPU executor (engine/executor.hpp's requirements) behind backend::serial
/// and backend::tbb, which differ only in the `Loop` that runs `f(t)` for every
/// tile t: the tile passes of engine/passes.hpp over host populations.
///
/// Population-batch problems (`evaluate_population`, problem_traits.hpp) take
/// the second evaluation path: the fused pass without evaluation, ONE
/// evaluate_population call on the calling thread over the rows it wrote, then
/// one fused tile pass of violations, rank keys, handler keys and summaries
/// (rank_values_tile; DE: de_select_tile) over the same tile ranges, so the run
/// is bitwise the per-individual one for any thread count.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusedga/core/bounds.hpp"
#include "fusedga/core/population.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/engine/checkpoint_stream.hpp"
#include "fusedga/engine/executor.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/de_pass.hpp"
#include "fusedga/engine/memory_estimate.hpp"
#include "fusedga/backends/pass_scratch.hpp"
#include "fusedga/engine/passes.hpp"
#include "fusedga/engine/shade_state.hpp"
#include "fusedga/engine/survival.hpp"
#include "fusedga/engine/rekey.hpp"
#include "fusedga/engine/tile_summary.hpp"

namespace fusedga::detail {

/// Smallest DE population whose archive update and pbest set run as two tasks (cpu_executor::de_generation).
inline constexpr std::size_t kSideBySideMinPopulation = 4096;

/**
 * Two host populations, the per-tile summaries and the elite list of one run;
 * `Loop` (serial_loop, tbb_loop) is constructed from the backend tag and offers
 * `for_each_index(n, f)` (returns when every f(i), or f(i, worker slot), returned) and `concurrency()`.
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
  static constexpr bool population_batch = has_population_evaluation<Problem>::value;

  template <class Backend>
  cpu_executor(const Problem&, const kernel_params<Problem>& kp, const Bounds<gene>& bounds, const Backend& backend)
      : loop_(backend), bounds_(bounds), kp_(kp), scratch_(kp), repair_rate_(kp.gradient_repair.rate) {
    kp_.bounds = bounds_.view();
    const int d = kp.dimension;
    // Before allocating: a run that cannot fit is a clear error, not std::bad_alloc or the OOM killer.
    const std::size_t m = static_cast<std::size_t>(inequality_count(kp.problem));
    const std::size_t p = static_cast<std::size_t>(equality_count(kp.problem));
    const std::size_t batch_row =
        population_batch ? (m + p) * sizeof(fitness) + (kp.algorithm == algorithm_kind::de ? 2 * sizeof(double) : 0)
                         : 0;
    check_host_memory({kp.population, d, sizeof(gene), sizeof(fitness), sizeof(key), kp.elitism, 0, batch_row});
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
    scratch_.reserve(loop_.concurrency());
    if (kp.algorithm == algorithm_kind::de) {
      de_ = de_state<gene, key>(kp.de, kp.population, d, eval_tiles());
    } else if (kp.survival == survival_kind::plus) {
      parent_order_.resize(kp.population);
      child_order_.resize(kp.population);
      parent_keys_.resize(kp.population);
    }
    if constexpr (population_batch) {  // one row of constraint values per individual, written by each call
      batch_g_.resize(kp.population * m);
      batch_h_.resize(kp.population * p);
      if (kp.algorithm == algorithm_kind::de) {
        batch_F_.resize(kp.population);
        batch_CR_.resize(kp.population);
      }
    }
  }

  cpu_executor(const cpu_executor&) = delete;
  cpu_executor& operator=(const cpu_executor&) = delete;

  summary_type initialize() {
    pbest_ready_ = false;
    const auto sink = summary();
    const auto kp = kp_;
    const auto pop = src_;
    if constexpr (population_batch) {
      loop_.for_each_index(eval_tiles(), [&](std::size_t t) { init_genes_tile(kp, pop, t); });
      rank_population(pop);
    } else {
      for_each_tile(eval_tiles(), kp, [&](const auto& k, std::size_t t) { init_tile(k, pop, t, sink); });
    }
    return finish_generation(src_, eval_tiles(), 0);
  }

  void evaluate() {
    pbest_ready_ = false;
    const auto sink = summary();
    const auto kp = kp_;
    const auto pop = src_;
    if constexpr (population_batch)
      rank_population(pop);
    else
      for_each_tile(eval_tiles(), kp, [&](const auto& k, std::size_t t) { evaluate_tile(k, pop, t, sink); });
  }

  summary_type next_generation(std::uint32_t generation) {
    if (kp_.algorithm == algorithm_kind::de) return de_generation(generation);
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
    for_each_tile(offspring_tiles(), kp,
                  [&](const auto& k, std::size_t t) { offspring_tile(k, src, dst, generation, t, sink); });
    if constexpr (population_batch) {  // the children [E, N): one call, then ranked per offspring tile
      const population_values<fitness> values = evaluate_rows(dst, kp_.elitism, kp_.population - kp_.elitism);
      loop_.for_each_index(offspring_tiles(), [&](std::size_t t) {
        std::size_t begin, end;
        offspring_range(kp, t, begin, end);
        rank_values_tile(kp, dst, begin, end, values, t, sink);
      });
    }
    if (kp_.survival == survival_kind::plus) {  // the best N of parents and children, in place in src
      // The children's repair evaluations, counted before the parents' summary reuses the tile totals.
      std::uint64_t repairs = 0;
      for (std::size_t t = 0; t < offspring_tiles(); ++t) repairs += totals_[t].repair_evaluations;
      plus_survival(src_, dst_, parent_order_.data(), child_order_.data(), parent_keys_.data());
      loop_.for_each_index(eval_tiles(), [&](std::size_t t) { summarize_tile(src, t, sink); });
      summary_type s = finish_generation(src_, eval_tiles(), 0);
      s.repair_evaluations = repairs;
      return s;
    }
    const summary_type s = finish_generation(dst_, offspring_tiles(), elites_.size());
    std::swap(src_, dst_);
    return s;
  }

  /// The DE run state (SHADE memories, archive), e.g. for tests and checkpoints; empty unless the run is DE.
  const de_state<gene, key>& de() const { return de_; }

  /// Holds the gradient repair off (false) or restores the run's rate (true) for the next generations.
  void allow_repair(bool on) { kp_.gradient_repair.rate = on ? repair_rate_ : 0; }

  /// Dynamic constraint handlers: the handler's new parameters, the current population's keys recomputed with
  /// them (re-key pass, tile-parallel) and its summary and elites afresh.
  summary_type rekey(const handler_state<fitness>& h) {
    kp_.handler = h;
    pbest_ready_ = false;
    const auto sink = summary();
    const auto kp = kp_;
    const auto pop = src_;
    loop_.for_each_index(eval_tiles(), [&](std::size_t t) { rekey_tile(kp, pop, t, sink); });
    return finish_generation(src_, eval_tiles(), 0);
  }

  /// Checkpoints (engine/checkpoint.hpp): the current population (N rows), the elites the last summary chose,
  /// the kept best genes, the dynamic handler's parameters and DE's adaptive state (memories, archive).
  void save_state(checkpoint_writer& w) const {
    const std::size_t n = kp_.population, d = static_cast<std::size_t>(kp_.dimension);
    w.array("population.genes", src_.genes, n * d);
    w.array("population.objective", src_.objective, n);
    w.array("population.violation", src_.violation, n);
    w.array("population.rank_key", src_.rank_key, n);
    std::vector<key> elite_keys(elites_.size());
    std::vector<std::uint32_t> elite_slots(elites_.size());
    for (std::size_t k = 0; k < elites_.size(); ++k) elite_keys[k] = elites_[k].key, elite_slots[k] = elites_[k].slot;
    w.vector("elites.rank_key", elite_keys);
    w.vector("elites.slot", elite_slots);
    w.vector("best.genes", best_);
    w.value("handler", kp_.handler);
    w.vector("de.memory_F", de_.memory_F);
    w.vector("de.memory_CR", de_.memory_CR);
    w.value("de.next_memory", de_.next_memory);
    w.value("de.archive_size", de_.archive_size);
    w.array("de.archive", de_.archive.data(), static_cast<std::size_t>(de_.archive_size) * d);
  }
  /// Restores what save_state wrote, for a run of the same N, d and options. @throws checkpoint_error.
  void load_state(checkpoint_reader& r) {
    pbest_ready_ = false;
    const std::size_t n = kp_.population, d = static_cast<std::size_t>(kp_.dimension);
    r.array("population.genes", src_.genes, n * d);
    r.array("population.objective", src_.objective, n);
    r.array("population.violation", src_.violation, n);
    r.array("population.rank_key", src_.rank_key, n);
    std::vector<key> elite_keys(elites_.size());
    std::vector<std::uint32_t> elite_slots(elites_.size());
    r.array("elites.rank_key", elite_keys.data(), elite_keys.size());
    r.array("elites.slot", elite_slots.data(), elite_slots.size());
    for (std::size_t k = 0; k < elites_.size(); ++k) {
      if (elite_slots[k] >= n) r.fail("has an elite slot outside the population");
      elites_[k] = {elite_keys[k], elite_slots[k]};
    }
    r.array("best.genes", best_.data(), best_.size());
    kp_.handler = r.value<handler_state<fitness>>("handler");
    r.array("de.memory_F", de_.memory_F.data(), de_.memory_F.size());
    r.array("de.memory_CR", de_.memory_CR.data(), de_.memory_CR.size());
    de_.next_memory = r.value<int>("de.next_memory");
    de_.archive_size = r.value<std::uint32_t>("de.archive_size");
    if (de_.archive_size * d > de_.archive.size() ||
        (!de_.memory_F.empty() && (de_.next_memory < 0 || de_.next_memory >= static_cast<int>(de_.memory_F.size()))))
      r.fail("has DE state that does not fit these options");
    r.array("de.archive", de_.archive.data(), static_cast<std::size_t>(de_.archive_size) * d);
  }

  /// Copies the current population's N objectives and violations to `objective` and `violation`.
  void fetch_fitness(fitness* objective, fitness* violation) const {
    std::copy_n(src_.objective, kp_.population, objective);
    std::copy_n(src_.violation, kp_.population, violation);
  }

  /// Islands (islands/solve_islands.hpp): the current population's N rank keys.
  void fetch_keys(key* out) const { std::copy_n(src_.rank_key, kp_.population, out); }
  /// Islands: rows `slots[0, count)` of the current population — genes (count × d, row-major), objective, violation.
  void read_rows(std::size_t count, const std::uint32_t* slots, gene* genes, fitness* objective,
                 fitness* violation) const {
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    for (std::size_t k = 0; k < count; ++k) {
      std::copy_n(src_.row(slots[k]), d, genes + k * d);
      objective[k] = src_.objective[slots[k]];
      violation[k] = src_.violation[slots[k]];
    }
  }
  /// Islands: the rank key of (objective, violation) under the run's current order (rule and handler).
  key key_of(fitness objective, fitness violation) const { return rank_key_of(kp_, objective, violation); }
  /// Islands: rows `slots[0, count)` of the current population overwritten (genes count × d, objective,
  /// violation, as read_rows gives them), then every key recomputed under the current order, the summary and
  /// the elites afresh (the re-key pass).
  summary_type replace_rows(std::size_t count, const std::uint32_t* slots, const gene* genes,
                            const fitness* objective, const fitness* violation) {
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    for (std::size_t k = 0; k < count; ++k) {
      std::copy_n(genes + k * d, d, src_.row(slots[k]));
      src_.objective[slots[k]] = objective[k];
      src_.violation[slots[k]] = violation[k];
    }
    return rekey(kp_.handler);
  }

  void keep_best(std::uint32_t slot) { std::copy_n(src_.row(slot), best_.size(), best_.begin()); }
  void fetch_best(gene* out) const { std::copy(best_.begin(), best_.end(), out); }
  view_type current() const { return src_; }
  int concurrency() const { return loop_.concurrency(); }

 private:
  std::size_t eval_tiles() const { return (kp_.population + kTileSlots - 1) / kTileSlots; }
  std::size_t offspring_tiles() const { return (kp_.pairs() + kTilePairs - 1) / kTilePairs; }
  summary_sink<key> summary() { return {totals_.data(), candidates_.data(), capacity_}; }

  // Runs f(kp with the running worker's scratch, t) for every tile t < n. The scratch grows here, before the
  // loop, only if the loop's concurrency grew since the executor was built (threads = 0 in a larger arena).
  template <class F>
  void for_each_tile(std::size_t n, const kernel_params<Problem>& kp, F&& f) {
    scratch_.reserve(loop_.concurrency());
    loop_.for_each_index(n, [&](std::size_t t, int slot) {
      kernel_params<Problem> k = kp;
      k.scratch = scratch_.slot(slot);
      f(k, t);
    });
  }

  // Population-batch problems: the one evaluate_population call over rows [first, first + n) of `pop`, on the
  // calling thread (it may throw: nothing after it runs). Returns where it wrote the constraint values.
  population_values<fitness> evaluate_rows(const view_type& pop, std::size_t first, std::size_t n) {
    if constexpr (population_batch)
      kp_.problem.evaluate_population(pop.row(first), n, pop.objective + first, batch_g_.data(), batch_h_.data());
    return {batch_g_.data(), batch_h_.data(), inequality_count(kp_.problem), equality_count(kp_.problem), first};
  }

  // Population-batch problems: the whole of `pop` evaluated by one call, then ranked per evaluation tile.
  void rank_population(const view_type& pop) {
    const auto sink = summary();
    const auto kp = kp_;
    const population_values<fitness> values = evaluate_rows(pop, 0, kp_.population);
    loop_.for_each_index(eval_tiles(), [&](std::size_t t) {
      std::size_t begin, end;
      tile_range(t, pop.size, begin, end);
      rank_values_tile(kp, pop, begin, end, values, t, sink);
    });
  }

  // One DE generation: pbest set, fused trial pass src → dst with one-to-one selection, archive and memories.
  summary_type de_generation(std::uint32_t generation) {
    if constexpr (std::is_floating_point_v<gene>) {
      if (!pbest_ready_) de_.rank_best(src_.rank_key, kp_.population);
      const auto sink = summary();
      const auto kp = kp_;
      const auto src = src_;
      const auto dst = dst_;
      const auto state = de_.view();
      if constexpr (population_batch) {  // trials, one call over the N trial rows, selection
        double* F = batch_F_.data();
        double* CR = batch_CR_.data();
        for_each_tile(eval_tiles(), kp,
                      [&](const auto& k, std::size_t t) { de_trial_tile(k, state, src, dst, generation, t, F, CR); });
        const population_values<fitness> values = evaluate_rows(dst, 0, kp_.population);
        for_each_tile(eval_tiles(), kp, [&](const auto& k, std::size_t t) {
          de_select_tile(k, state, src, dst, generation, values, F, CR, t, sink);
        });
      } else {
        for_each_tile(eval_tiles(), kp,
                      [&](const auto& k, std::size_t t) { de_tile(k, state, src, dst, generation, t, sink); });
      }
      // The archive update (rows of the parents, src) and the next generation's pbest set (keys of dst, the next
      // src) touch disjoint state, so they run side by side: both are sequential, and one after the other they
      // were 0.3 ms of a 2.5 ms generation at N = 10⁵ on two threads. Not for small populations, where both
      // take less than waking a worker: at N = 50 on TBB that hand-off cost more than the rest of a generation.
      const auto archive_and_pbest = [&](std::size_t task) {
        if (task == 0)
          de_.after_pass(kp_.de, src_);
        else
          de_.rank_best(dst_.rank_key, kp_.population);
      };
      if (kp_.population >= kSideBySideMinPopulation) {
        loop_.for_each_index(2, archive_and_pbest);
      } else {
        archive_and_pbest(0);
        archive_and_pbest(1);
      }
      pbest_ready_ = true;
      const summary_type s = finish_generation(dst_, eval_tiles(), 0);
      std::swap(src_, dst_);
      return s;
    } else {
      (void)generation;
      return summary_type{};  // unreachable: validate rejects DE for integer genes
    }
  }

  // Combines tile summaries (in tile order) with the elites in slots [0, elite_slots): statistics, best, next elites.
  summary_type finish_generation(const view_type& pop, std::size_t tiles, std::size_t elite_slots) {
    summary_type s;
    double sum = 0;
    std::uint64_t feasible = 0, nan = 0, repairs = 0;
    for (std::size_t t = 0; t < tiles; ++t) {
      sum += totals_[t].objective_sum;
      feasible += totals_[t].feasible;
      nan += totals_[t].not_a_number;
      repairs += totals_[t].repair_evaluations;
    }
    std::size_t n_cand = tiles * capacity_;
    for (std::size_t k = 0; k < elite_slots; ++k) {
      if (is_nan_key(pop.rank_key[k])) {
        ++nan;
      } else {
        sum += static_cast<double>(pop.objective[k]);
        feasible += pop.violation[k] == fitness(0) ? 1 : 0;
      }
      candidates_[n_cand++] = {pop.rank_key[k], static_cast<std::uint32_t>(k)};
    }
    const std::size_t keep = std::max<std::size_t>(elites_.size(), 1);
    std::partial_sort(candidates_.begin(), candidates_.begin() + static_cast<std::ptrdiff_t>(keep),
                      candidates_.begin() + static_cast<std::ptrdiff_t>(n_cand));
    std::copy_n(candidates_.begin(), elites_.size(), elites_.begin());
    s.objective_sum = sum;
    s.feasible = feasible;
    s.not_a_number = nan;
    s.repair_evaluations = repairs;
    s.best = candidates_[0];
    s.best_objective = pop.objective[s.best.slot];
    s.best_violation = pop.violation[s.best.slot];
    return s;
  }

  Loop loop_;
  Bounds<gene> bounds_;
  kernel_params<Problem> kp_{};
  pass_scratch<Problem> scratch_;  // each worker slot's, for the tile passes (for_each_tile)
  double repair_rate_ = 0;         // the run's gradient repair rate (allow_repair)
  population<gene, fitness> a_, b_;
  view_type src_{}, dst_{};
  std::size_t capacity_ = 1;
  std::vector<tile_totals> totals_;
  std::vector<candidate<key>> candidates_;
  std::vector<candidate<key>> elites_;
  std::vector<gene> best_;
  de_state<gene, key> de_;                                   // algorithm de
  bool pbest_ready_ = false;  // de_.best is the current population's pbest set (ranked after the last DE pass);
                              // cleared by whatever else writes the population or its keys
  std::vector<candidate<key>> parent_order_, child_order_;  // plus survival scratch
  std::vector<key> parent_keys_;
  std::vector<fitness> batch_g_, batch_h_;  // population-batch problems: N × m and N × p constraint values
  std::vector<double> batch_F_, batch_CR_;  // population-batch DE: each target's F and CR, trial → selection pass
};

}  // namespace fusedga::detail
