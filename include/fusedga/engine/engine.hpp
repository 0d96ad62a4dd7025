#pragma once
/// @file engine.hpp
/// `fusedga::engine`: the GA state of one run — two population buffers, the
/// per-tile summaries and the best-so-far — and its passes. `solve` drives
/// it; `ga-bench` and tests call its passes one by one.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusedga/backends/serial.hpp"
#include "fusedga/backends/tbb.hpp"
#include "fusedga/core/bounds.hpp"
#include "fusedga/core/population.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/engine/generation_stats.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/engine/passes.hpp"
#include "fusedga/engine/tile_summary.hpp"
#include "fusedga/engine/validate.hpp"

namespace fusedga {

/**
 * The state and passes of one GA run of `Problem` on `Backend`.
 *
 * Memory is allocated once in the constructor: two populations (double
 * buffering) of (N+1)·d genes plus three arrays of N+1, the per-tile
 * summaries (O(N/64)) and the history (generations+1 rows, at most 2^16 of
 * them up front). `step()` performs no heap allocation, except that a history
 * longer than 2^16 rows grows by doubling (once per doubling). Not thread-safe: one thread drives an engine; the
 * backend parallelizes each pass internally and every pass synchronizes
 * before returning.
 *
 * @throws config_error from the constructor when options do not fit the problem.
 */
template <class Problem, class Backend>
class engine {
 public:
  using gene = gene_t<Problem>;
  using fitness = fitness_t<Problem>;
  using key = rank_key_t<fitness>;
  using view_type = population_view<gene, fitness>;

  engine(const Problem& problem, const ga_options& options, const Backend& backend)
      : exec_(detail::make_executor(backend)), bounds_(problem.bounds()) {
    check_problem<Problem>();
    const int d = problem.dimension();
    validate(options, d, std::is_floating_point_v<gene>);
    bounds_.validate(d);
    kp_ = make_params(problem, options, d);
    kp_.bounds = {bounds_.lower.data(), bounds_.upper.data()};
    a_ = population<gene, fitness>(options.population, d);
    b_ = population<gene, fitness>(options.population, d);
    src_ = a_.view();
    dst_ = b_.view();
    const std::size_t tiles = eval_tiles();
    // each tile offers its best min(E, its slots) as elite candidates: exact for any E
    capacity_ = std::min<std::size_t>(std::max<std::size_t>(options.elitism, 1), 2 * detail::kTilePairs);
    totals_.resize(tiles);
    candidates_.resize(tiles * capacity_ + options.elitism);
    elites_.resize(options.elitism);
    best_genes_.resize(static_cast<std::size_t>(d));
    history_limit_ = static_cast<std::size_t>(options.generations) + 1;
    history_.reserve(std::min<std::size_t>(history_limit_, std::size_t(1) << 16));
  }

  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  /// Creates and evaluates the initial population (generation 0). O(N·d).
  void initialize() {
    start_ = std::chrono::steady_clock::now();
    generation_ = 0;
    evaluations_ = kp_.population;
    have_best_ = false;
    history_.clear();
    const auto sink = summary();
    const auto kp = kp_;
    const auto pop = src_;
    exec_.for_each_index(eval_tiles(), [&](std::size_t t) { detail::init_tile(kp, pop, t, sink); });
    finish_generation(src_, eval_tiles(), 0);
  }

  /// Re-evaluates the current population in place (the evaluation-only workload of ga-bench). O(N·d).
  void evaluate_population() {
    const auto sink = summary();
    const auto kp = kp_;
    const auto pop = src_;
    exec_.for_each_index(eval_tiles(), [&](std::size_t t) { detail::evaluate_tile(kp, pop, t, sink); });
  }

  /// Runs one generation: elites copied, offspring pass, statistics, buffers swapped. No allocation.
  void step() {
    ++generation_;
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
    const auto gen = static_cast<std::uint32_t>(generation_);
    exec_.for_each_index(offspring_tiles(),
                         [&](std::size_t t) { detail::offspring_tile(kp, src, dst, gen, t, sink); });
    evaluations_ += kp_.children();
    finish_generation(dst_, offspring_tiles(), elites_.size());
    std::swap(src_, dst_);
  }

  /// Statistics of the current population.
  const generation_stats& stats() const { return last_; }
  /// One row per generation, generation 0 first; holds at most options.generations + 1 rows
  /// (steps beyond that, e.g. in benchmarks, update `stats()` only, so `step` never allocates).
  const std::vector<generation_stats>& history() const { return history_; }
  /// The current population (valid until the next `step`).
  view_type current() const { return src_; }
  int generation() const { return generation_; }
  std::uint64_t evaluations() const { return evaluations_; }
  int threads() const { return exec_.concurrency(); }
  /// Best individual seen so far under the run's ranking.
  const std::vector<gene>& best_genes() const { return best_genes_; }
  fitness best_objective() const { return best_objective_; }
  fitness best_violation() const { return best_violation_; }
  /// Generations since the best-so-far last improved.
  int stalled_generations() const { return generation_ - improved_at_; }
  double elapsed_s() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  using executor = decltype(detail::make_executor(std::declval<const Backend&>()));

  static detail::kernel_params<Problem> make_params(const Problem& p, const ga_options& o, int d) {
    return detail::make_kernel_params(p, o, d);
  }

  std::size_t eval_tiles() const { return (kp_.population + detail::kTileSlots - 1) / detail::kTileSlots; }
  std::size_t offspring_tiles() const { return (kp_.pairs() + detail::kTilePairs - 1) / detail::kTilePairs; }
  detail::summary_sink<key> summary() { return {totals_.data(), candidates_.data(), capacity_}; }

  // Combines tile summaries (in tile order) with the elites in slots [0, elites),
  // picks the next elites and the best, updates best-so-far and the history.
  void finish_generation(const view_type& pop, std::size_t tiles, std::size_t elite_slots) {
    double sum = 0;
    std::uint64_t feasible = 0;
    for (std::size_t t = 0; t < tiles; ++t) {
      sum += totals_[t].objective_sum;
      feasible += totals_[t].feasible;
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
    const std::size_t best = candidates_[0].slot;
    if (!have_best_ || candidates_[0].key < best_key_) {
      have_best_ = true;
      best_key_ = candidates_[0].key;
      best_objective_ = pop.objective[best];
      best_violation_ = pop.violation[best];
      std::copy_n(pop.row(best), best_genes_.size(), best_genes_.begin());
      improved_at_ = generation_;
    }
    generation_stats s;
    s.generation = generation_;
    s.best_objective = static_cast<double>(pop.objective[best]);
    s.best_violation = static_cast<double>(pop.violation[best]);
    s.mean_objective = sum / static_cast<double>(kp_.population);
    s.feasible_fraction = static_cast<double>(feasible) / static_cast<double>(kp_.population);
    s.evaluations = evaluations_;
    s.elapsed_s = elapsed_s();
    last_ = s;
    if (history_.size() < history_limit_) history_.push_back(s);
  }

  executor exec_;
  Bounds<gene> bounds_;
  detail::kernel_params<Problem> kp_{};
  population<gene, fitness> a_, b_;
  view_type src_{}, dst_{};
  std::size_t capacity_ = 1;
  std::vector<detail::tile_totals> totals_;
  std::vector<detail::ranked_slot<key>> candidates_;
  std::vector<detail::ranked_slot<key>> elites_;
  std::vector<gene> best_genes_;
  std::vector<generation_stats> history_;
  std::size_t history_limit_ = 1;
  generation_stats last_{};
  bool have_best_ = false;
  key best_key_ = 0;
  fitness best_objective_ = 0, best_violation_ = 0;
  int generation_ = 0, improved_at_ = 0;
  std::uint64_t evaluations_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace fusedga
