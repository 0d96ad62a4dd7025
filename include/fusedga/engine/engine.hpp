#pragma once
/// @file engine.hpp
/// `fusedga::engine`: one GA run — its run state (generation, evaluations,
/// history, best-so-far, stall counts, timing), written once for every backend,
/// driving the backend's executor (executor.hpp), which owns the populations
/// and runs the passes. `solve` drives it; `ga-bench` and tests call it step by step.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "fusedga/core/bounds.hpp"
#include "fusedga/core/check_constraint_counts.hpp"
#include "fusedga/core/constraint_key.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/engine/checkpoint.hpp"
#include "fusedga/engine/constraint_handler.hpp"
#include "fusedga/engine/executor.hpp"
#include "fusedga/engine/generation_stats.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/engine/restart.hpp"
#include "fusedga/engine/validate.hpp"
#include "fusedga/islands/migration.hpp"

namespace fusedga {

/**
 * The state of one GA run of `Problem` on `Backend` (any backend whose header
 * specializes `executor_for`: backend::serial, backend::tbb, backend::cuda).
 *
 * Memory is allocated once in the constructor: the executor's two populations
 * (double buffering) of (N+1)·d genes plus three arrays of N+1 — in host memory,
 * or device memory for backend::cuda — its per-tile summaries (O(N/64)), and
 * the history (generations+1 rows, at most 2^16 of them up front). `step()`
 * performs no heap allocation, except that a history longer than 2^16 rows
 * grows by doubling. Not thread-safe: one thread drives an engine; the
 * executor parallelizes each pass internally and every call completes its
 * work before returning (on a GPU: one graph launch and one synchronization
 * per generation; only the summary's few numbers cross to the host).
 *
 * @throws config_error from the constructor when options do not fit the problem
 *         (or the populations do not fit: in host memory, memory_estimate.hpp; on a GPU, in device memory), or when the problem's
 *         `inequalities`/`equalities` write other indices than its declared counts (check_constraint_counts).
 * @throws backend_unavailable from the constructor when the backend cannot run here (no usable GPU).
 */
template <class Problem, class Backend>
class engine {
 public:
  using executor_type = executor_t<Problem, Backend>;
  using gene = gene_t<Problem>;
  using fitness = fitness_t<Problem>;
  using key = rank_key_t<fitness>;
  using view_type = population_view<gene, fitness>;
  using summary_type = generation_summary<key, fitness>;
  static_assert(detail::check_executor<executor_type>());

  engine(const Problem& problem, const ga_options& options, const Backend& backend)
      : exec_(make_executor(problem, options, backend)) {
    n_ = options.population;
    children_ = detail::children_per_generation(options);
    repair_bound_ = detail::max_repair_evaluations(problem, options);
    best_genes_.resize(static_cast<std::size_t>(problem.dimension()));
    history_limit_ = static_cast<std::size_t>(options.generations) + 1;
    history_.reserve(std::min<std::size_t>(history_limit_, std::size_t(1) << 16));
    rule_ = options.constraints.rule;
    progress_tolerance_ = options.restarts.convergence_tolerance.value_or(0);
    if (dynamic_rule(rule_)) {
      const constraint_options& c = options.constraints;
      epsilon_control_ = c.epsilon_control * static_cast<double>(options.generations);
      epsilon_cp_ = c.epsilon_cp;
      epsilon_theta_ = c.epsilon_theta;
      host_objective_.resize(n_);
      host_violation_.resize(n_);
      scratch_.reserve(n_);
    }
  }

  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  /// Creates and evaluates the initial population (generation 0). O(N·d).
  void initialize() {
    start_ = std::chrono::steady_clock::now();
    generation_ = 0;
    evaluations_ = n_;
    improved_at_ = 0;
    progressed_at_ = 0;
    have_best_ = false;
    not_a_number_ = 0;
    history_.clear();
    summary_type s = exec_.initialize();
    if (dynamic_rule(rule_)) {
      fitness_fresh_ = false;
      fetch_fitness();
      if (rule_ == constraint_rule::epsilon)
        epsilon0_ = static_cast<double>(detail::initial_epsilon(host_violation_.data(), n_, epsilon_theta_, scratch_));
      handler_ = handler_at(0);
      s = best_by_feasibility_rules(exec_.rekey(handler_));
    }
    absorb(s);
  }

  /// Re-evaluates the current population in place (the evaluation-only workload of ga-bench). O(N·d).
  void evaluate_population() { exec_.evaluate(); }

  /**
   * Runs one generation: elites copied, fused offspring pass, summary, buffers swapped. No allocation. With
   * `repair` false the gradient repair is held off for this generation (solve does so where its worst case,
   * `repair_bound()`, could pass stop.evaluations).
   */
  void step(bool repair = true) {
    if (repair_bound_ > 0 && repair != repair_on_) {
      exec_.allow_repair(repair);
      repair_on_ = repair;
    }
    ++generation_;
    if (dynamic_rule(rule_)) {
      const handler_state<fitness> h = handler_at(generation_);
      if (!(h == handler_)) {
        handler_ = h;
        exec_.rekey(handler_);  // elites re-chosen under this generation's order
      }
    }
    summary_type s = exec_.next_generation(static_cast<std::uint32_t>(generation_));
    evaluations_ += children_ + s.repair_evaluations;
    if (dynamic_rule(rule_)) {
      fitness_fresh_ = false;
      s = best_by_feasibility_rules(s);
    }
    absorb(s);
  }

  /**
   * Copies the current population to host memory (device executors only):
   * `genes` N·d values (row-major), `objective`, `violation` and `rank_key` N
   * values each (a null pointer skips that array).
   */
  void download(gene* genes, fitness* objective, fitness* violation, key* rank_key) const {
    exec_.download(genes, objective, violation, rank_key);
  }

  /**
   * Replaces the current population with a host one of the same N and d (device
   * executors only), as stored by a CPU engine, then recomputes statistics,
   * elites and best-so-far from it (the best-so-far starts afresh; the generation
   * counter is kept). With `evaluate`, objective/violation/key are computed by
   * the executor instead (those three pointers may then be null).
   */
  void upload(const gene* genes, const fitness* objective, const fitness* violation, const key* rank_key,
              bool evaluate = false) {
    have_best_ = false;
    absorb(exec_.upload(genes, objective, violation, rank_key, evaluate, static_cast<std::uint32_t>(generation_) + 1));
  }

  /**
   * Writes the run state (generation, evaluations, best-so-far, stall count, history, the dynamic constraint
   * handler's state) and the executor's (populations, elites, adaptive operator state) as checkpoint records
   * (checkpoint_stream.hpp). Loading them into an engine of the same problem and options continues the
   * run as if it had not stopped: every later `step` is bitwise the same. The caller writes the header
   * (checkpoint.hpp) that says which problem and options those are.
   * @throws config_error when the backend's executor cannot save its state.
   */
  void save(detail::checkpoint_writer& w) const {
    if constexpr (detail::has_state_io<executor_type>::value) {
      w.value("engine.generation", generation_);
      w.value("engine.evaluations", evaluations_);
      w.value("engine.improved_at", improved_at_);
      w.value("engine.progressed_at", progressed_at_);
      w.value("engine.progress_objective", progress_objective_);
      w.value("engine.progress_violation", progress_violation_);
      w.value("engine.have_best", static_cast<std::uint8_t>(have_best_));
      w.value("engine.best_key", best_key_);
      w.value("engine.best_objective", best_objective_);
      w.value("engine.best_violation", best_violation_);
      w.value("engine.not_a_number", not_a_number_);
      w.value("engine.elapsed_s", elapsed_s());
      w.value("engine.handler", handler_);
      w.value("engine.epsilon0", epsilon0_);
      detail::write_history(w, "engine.history", history_);
      detail::write_history(w, "engine.last", std::vector<generation_stats>{last_});
      exec_.save_state(w);
    } else {
      (void)w;
      throw config_error("checkpoints: this backend cannot save its state yet");
    }
  }

  /// Restores what `save` wrote (see there), replacing `initialize`. @throws checkpoint_error for a
  /// record that does not fit this engine.
  void load(detail::checkpoint_reader& r) {
    if constexpr (detail::has_state_io<executor_type>::value) {
      generation_ = r.value<int>("engine.generation");
      evaluations_ = r.value<std::uint64_t>("engine.evaluations");
      improved_at_ = r.value<int>("engine.improved_at");
      progressed_at_ = r.value<int>("engine.progressed_at");
      progress_objective_ = r.value<fitness>("engine.progress_objective");
      progress_violation_ = r.value<fitness>("engine.progress_violation");
      have_best_ = r.value<std::uint8_t>("engine.have_best") != 0;
      best_key_ = r.value<key>("engine.best_key");
      best_objective_ = r.value<fitness>("engine.best_objective");
      best_violation_ = r.value<fitness>("engine.best_violation");
      not_a_number_ = r.value<std::uint64_t>("engine.not_a_number");
      start_ = std::chrono::steady_clock::now() -
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(r.value<double>("engine.elapsed_s")));
      handler_ = r.value<handler_state<fitness>>("engine.handler");
      epsilon0_ = r.value<double>("engine.epsilon0");
      history_ = detail::read_history(r, "engine.history");
      const std::vector<generation_stats> last = detail::read_history(r, "engine.last");
      if (last.size() != 1 || generation_ < 0) r.fail("has an engine state that does not fit");
      last_ = last[0];
      exec_.load_state(r);
      if constexpr (detail::has_resume<executor_type>::value)
        exec_.resume(static_cast<std::uint32_t>(generation_) + 1, have_best_, best_key_, best_objective_,
                     best_violation_);
      fitness_fresh_ = false;
      best_dirty_ = true;
    } else {
      (void)r;
      throw config_error("checkpoints: this backend cannot load a state yet");
    }
  }

  /**
   * Islands (islands/solve_islands.hpp): the `k` best of the current population under this run's order
   * (ties: lower slot), best first — genes (k × d, row-major), objective and violation (k each) in host
   * memory. k <= population. O(N log k) plus a copy of N keys (from the device on backend::cuda).
   */
  void emigrants(std::size_t k, gene* genes, fitness* objective, fitness* violation) const {
    std::vector<key> keys(n_);
    exec_.fetch_keys(keys.data());
    const std::vector<std::uint32_t> slots = islands::best_slots(keys.data(), n_, k);
    exec_.read_rows(slots.size(), slots.data(), genes, objective, violation);
  }

  /**
   * Islands: `count` immigrants (genes count × d row-major, objective, violation, as `emigrants` gives
   * them) ranked under this run's current order replace at most `limit` of the worst residents by
   * best-replace-worst (islands/migration.hpp); then keys, summary, elites and best-so-far are recomputed
   * (no history row is added: the generation's row was recorded before migration). Returns how many
   * replaced a resident.
   */
  std::size_t immigrate(std::size_t count, const gene* genes, const fitness* objective, const fitness* violation,
                        std::size_t limit) {
    std::vector<key> incoming(count), residents(n_);
    for (std::size_t k = 0; k < count; ++k) incoming[k] = exec_.key_of(objective[k], violation[k]);
    exec_.fetch_keys(residents.data());
    const std::vector<islands::replacement> r =
        islands::best_replace_worst(incoming.data(), count, residents.data(), n_, limit);
    if (r.empty()) return 0;
    const std::size_t d = best_genes_.size();
    std::vector<std::uint32_t> slots(r.size());
    std::vector<gene> g(r.size() * d);
    std::vector<fitness> o(r.size()), v(r.size());
    for (std::size_t j = 0; j < r.size(); ++j) {
      slots[j] = r[j].slot;
      std::copy_n(genes + static_cast<std::size_t>(r[j].immigrant) * d, d, g.begin() + static_cast<std::ptrdiff_t>(j * d));
      o[j] = objective[r[j].immigrant];
      v[j] = violation[r[j].immigrant];
    }
    summary_type s = exec_.replace_rows(r.size(), slots.data(), g.data(), o.data(), v.data());
    if (dynamic_rule(rule_)) {
      fitness_fresh_ = false;
      s = best_by_feasibility_rules(s);
    }
    update_best(s);
    return r.size();
  }

  /// Statistics of the current population.
  const generation_stats& stats() const { return last_; }
  /// One row per generation, generation 0 first; holds at most options.generations + 1 rows
  /// (steps beyond that, e.g. in benchmarks, update `stats()` only, so `step` never allocates).
  const std::vector<generation_stats>& history() const { return history_; }
  /// The current population, in the executor's memory (device memory for backend::cuda); valid until the next `step`.
  view_type current() const { return exec_.current(); }
  int generation() const { return generation_; }
  std::uint64_t evaluations() const { return evaluations_; }
  /// Evaluations the gradient repair can add to a generation, at most (detail::max_repair_evaluations; 0 without
  /// repair), beyond its detail::children_per_generation.
  std::uint64_t repair_bound() const { return repair_bound_; }
  /// Host threads of the passes (0 when the work runs on a GPU).
  int threads() const { return exec_.concurrency(); }
  /// Best individual seen so far under the run's ranking (copied from the executor when it changed).
  const std::vector<gene>& best_genes() const {
    if (best_dirty_) {
      exec_.fetch_best(best_genes_.data());
      best_dirty_ = false;
    }
    return best_genes_;
  }
  /// The dynamic constraint handler's parameters of the current generation (zero for the static rules).
  const handler_state<fitness>& constraint_state() const { return handler_; }
  fitness best_objective() const { return best_objective_; }
  fitness best_violation() const { return best_violation_; }
  /// Sum over the generations so far (generation 0 included) of each population's NaN individuals
  /// (generation_stats::not_a_number).
  std::uint64_t not_a_number() const { return not_a_number_; }
  /// Generations since the best-so-far last improved (`stop.stall_generations` counts these).
  int stalled_generations() const { return generation_ - improved_at_; }
  /**
   * Generations since the best-so-far last made progress (restart_due counts these, engine/restart.hpp):
   * became feasible, lowered its violation, or, feasible, improved its objective by more than
   * restarts.convergence_tolerance · max(1, |objective at the last progress|) — CMA-ES's TolFun over the
   * best values of a window of generations (Hansen, "The CMA evolution strategy: a tutorial", 2016, B.3).
   * Without convergence_tolerance every improvement is progress (= stalled_generations()). Improvements
   * too small to count do not hold a converged start back (docs/quality.md, "A stall rule that ignores
   * improvements below the tolerance").
   */
  int generations_without_progress() const { return generation_ - progressed_at_; }
  double elapsed_s() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  /// The time elapsed_s() and stats().elapsed_s count from: set by initialize(), moved back by load() by the
  /// saved run's time. A caller with its own clock adds its offset to stats().elapsed_s instead of reading the
  /// clock again (solve: the clock's reads were 2–3 % of rc31's short runs, half of them solve's).
  std::chrono::steady_clock::time_point started_at() const { return start_; }
  /// The backend's executor (backend-specific calls, e.g. the CUDA stream for event timing).
  executor_type& executor() { return exec_; }
  const executor_type& executor() const { return exec_; }

 private:
  static executor_type make_executor(const Problem& problem, const ga_options& options, const Backend& backend) {
    check_problem<Problem>();
    const int d = problem.dimension();
    validate(options, d, std::is_floating_point_v<gene>);
    if constexpr (detail::has_population_evaluation<Problem>::value) validate_population_evaluation(options);
    Bounds<gene> bounds = problem.bounds();
    bounds.validate(d);
    check_constraint_counts(problem, "given to fusedga::engine");
    return executor_type(problem, detail::make_kernel_params(problem, options, d), bounds, backend);
  }

  // Dynamic constraint handlers (constraint_handler.hpp) ---------------------------------------------------

  void fetch_fitness() {
    if (fitness_fresh_) return;
    exec_.fetch_fitness(host_objective_.data(), host_violation_.data());
    fitness_fresh_ = true;
  }

  // The handler's parameters for generation g: ε(g), or the self-adaptive penalty from the current population.
  handler_state<fitness> handler_at(int g) {
    handler_state<fitness> h{};
    if (rule_ == constraint_rule::epsilon) {
      h.epsilon = static_cast<fitness>(detail::epsilon_at(epsilon0_, g, epsilon_control_, epsilon_cp_));
    } else {
      fetch_fitness();
      h = detail::self_adaptive_state(host_objective_.data(), host_violation_.data(), n_, sense_of<Problem>());
    }
    return h;
  }

  // Under a dynamic handler the summary's best is the best of this generation's order (an ε-feasible or
  // penalized one). The run's best-so-far is kept by feasibility rules, as the result reports it: while the
  // order differs from them (ε > 0, self-adaptive penalty), the best by feasibility rules is found on the host.
  summary_type best_by_feasibility_rules(summary_type s) {
    const Sense sense = sense_of<Problem>();
    if (rule_ == constraint_rule::self_adaptive_penalty || handler_.epsilon > fitness(0)) {
      fetch_fitness();
      std::uint32_t slot = 0;
      key best = ~key(0);
      for (std::size_t i = 0; i < n_; ++i) {
        const key k = make_rank_key(host_objective_[i], host_violation_[i], sense, constraint_rule::feasibility_rules,
                                    fitness(0));
        if (k < best || i == 0) {
          best = k;
          slot = static_cast<std::uint32_t>(i);
        }
      }
      s.best = {best, slot};
      s.best_objective = host_objective_[slot];
      s.best_violation = host_violation_[slot];
    } else {
      s.best.key = make_rank_key(s.best_objective, s.best_violation, sense, constraint_rule::feasibility_rules,
                                 fitness(0));
    }
    return s;
  }

  // The run state's update from the summary of the population just made current.
  void absorb(const summary_type& s) {
    update_best(s);
    generation_stats g;
    g.generation = generation_;
    g.best_objective = static_cast<double>(s.best_objective);
    g.best_violation = static_cast<double>(s.best_violation);
    // NaN individuals are left out of the mean (NaN when all are NaN) and counted instead.
    g.mean_objective = s.objective_sum / static_cast<double>(n_ - s.not_a_number);
    g.feasible_fraction = static_cast<double>(s.feasible) / static_cast<double>(n_);
    g.evaluations = evaluations_;
    g.elapsed_s = elapsed_s();
    g.not_a_number = s.not_a_number;
    not_a_number_ += s.not_a_number;
    last_ = g;
    if (history_.size() < history_limit_) history_.push_back(g);
  }

  // The best-so-far from the summary of the population just made current (or changed by migration).
  void update_best(const summary_type& s) {
    if (!have_best_ || s.best.key < best_key_) {
      const bool first = !have_best_;
      have_best_ = true;
      best_key_ = s.best.key;
      best_objective_ = s.best_objective;
      best_violation_ = s.best_violation;
      exec_.keep_best(s.best.slot);
      best_dirty_ = true;
      improved_at_ = generation_;
      if (first || detail::made_progress(sense_of<Problem>(), progress_tolerance_, progress_objective_,
                                         progress_violation_, best_objective_, best_violation_)) {
        progressed_at_ = generation_;
        progress_objective_ = best_objective_;
        progress_violation_ = best_violation_;
      }
    }
  }

  executor_type exec_;
  std::size_t n_ = 0;
  std::uint64_t children_ = 0;
  std::uint64_t repair_bound_ = 0;  // detail::max_repair_evaluations
  bool repair_on_ = true;           // whether the executor's repair is on (step's `repair`)
  mutable std::vector<gene> best_genes_;
  mutable bool best_dirty_ = false;
  std::vector<generation_stats> history_;
  std::size_t history_limit_ = 1;
  generation_stats last_{};
  bool have_best_ = false;
  key best_key_ = 0;
  fitness best_objective_ = 0, best_violation_ = 0;
  int generation_ = 0, improved_at_ = 0;
  int progressed_at_ = 0;                                    // generations_without_progress
  fitness progress_objective_ = 0, progress_violation_ = 0;  // the best-so-far at the last progress
  double progress_tolerance_ = 0;
  std::uint64_t evaluations_ = 0;
  std::uint64_t not_a_number_ = 0;
  constraint_rule rule_ = constraint_rule::feasibility_rules;
  handler_state<fitness> handler_{};
  double epsilon0_ = 0, epsilon_control_ = 0, epsilon_cp_ = 0, epsilon_theta_ = 0;
  std::vector<fitness> host_objective_, host_violation_, scratch_;  // dynamic handlers only
  bool fitness_fresh_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace fusedga
