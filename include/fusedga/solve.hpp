#pragma once
/// @file solve.hpp
/// `fusedga::solve`: run a GA on a problem and return the best individual.
/// Above the backends (it names backend::tbb as the default), so the engine
/// below never includes a backend.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>

#include "fusedga/backends/serial.hpp"
#include "fusedga/backends/tbb.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/engine/checkpoint.hpp"
#include "fusedga/engine/engine.hpp"
#include "fusedga/engine/generation_stats.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/engine/restart.hpp"
#include "fusedga/engine/result.hpp"
#include "fusedga/engine/target.hpp"
#include "fusedga/islands/any_transport.hpp"
#include "fusedga/islands/solve_islands.hpp"
#include "fusedga/islands/transport.hpp"

namespace fusedga {

namespace detail {

/// The run counters of `solve` that a checkpoint carries besides the engine's state.
struct solve_state {
  int restart = 0;                 // k: the start running
  int start_generations = 0;       // its engine's generation limit
  int generation0 = 0;             // run generations / evaluations when it started
  std::uint64_t evaluations0 = 0;
  int generations = 0, improved_at = 0;
  std::uint64_t evaluations = 0;
  bool have_best = false, best_here = false;
  double elapsed_s = 0;
};

template <class Key>
void write_solve_state(checkpoint_writer& w, const solve_state& s, Key best_key, const Result& r) {
  w.value("run.restart", s.restart);
  w.value("run.start_generations", s.start_generations);
  w.value("run.generation0", s.generation0);
  w.value("run.evaluations0", s.evaluations0);
  w.value("run.generations", s.generations);
  w.value("run.improved_at", s.improved_at);
  w.value("run.evaluations", s.evaluations);
  w.value("run.have_best", static_cast<std::uint8_t>(s.have_best));
  w.value("run.best_here", static_cast<std::uint8_t>(s.best_here));
  w.value("run.elapsed_s", s.elapsed_s);
  w.value("run.best_key", best_key);
  w.value("run.objective", r.objective);
  w.value("run.violation", r.violation);
  w.vector("run.best_genes", r.best_genes);
  w.value("run.not_a_number", r.not_a_number);
  write_history(w, "run.history", r.history);
}

template <class Key>
solve_state read_solve_state(checkpoint_reader& in, Key& best_key, Result& r, std::size_t dimension) {
  solve_state s;
  s.restart = in.value<int>("run.restart");
  s.start_generations = in.value<int>("run.start_generations");
  s.generation0 = in.value<int>("run.generation0");
  s.evaluations0 = in.value<std::uint64_t>("run.evaluations0");
  s.generations = in.value<int>("run.generations");
  s.improved_at = in.value<int>("run.improved_at");
  s.evaluations = in.value<std::uint64_t>("run.evaluations");
  s.have_best = in.value<std::uint8_t>("run.have_best") != 0;
  s.best_here = in.value<std::uint8_t>("run.best_here") != 0;
  s.elapsed_s = in.value<double>("run.elapsed_s");
  best_key = in.value<Key>("run.best_key");
  r.objective = in.value<double>("run.objective");
  r.violation = in.value<double>("run.violation");
  r.best_genes = in.vector<double>("run.best_genes", dimension);
  r.not_a_number = in.value<std::uint64_t>("run.not_a_number");
  r.history = read_history(in, "run.history");
  if (s.restart < 0 || s.start_generations < 0 || s.generation0 < 0 || s.generation0 > s.generations)
    in.fail("has run counters that do not fit together");
  return s;
}

/// Islands of at most this many individuals run side by side (run_islands). Below it a pass is short enough for
/// a fork and join of all threads to cost a good part of it (up to 30% at 1,562 individuals on 2 threads; at
/// 6,250, I = 16 of 10^5, 3-14% over one population while the limit was 4,096, 4-19% under it side by side);
/// above it, islands side by side each bring their own working set into the shared caches and ran 5-20% slower
/// at 25,000 (docs/performance.md, "Measured: islands in one process").
inline constexpr std::size_t side_by_side_island_limit = 8192;

/// The island model on `backend`. On TBB, a rank with at least as many islands as threads, each of at most
/// side_by_side_island_limit individuals, runs them side by side, an island per thread on the serial engine: the
/// same result bitwise, without a fork and join of all threads per island and pass. `resume`: as solve_islands.
template <class Problem, class Backend, class Transport>
Result run_islands(const Problem& problem, const ga_options& options, const Backend& backend, Transport& transport,
                   checkpoint_reader* resume) {
  if constexpr (std::is_same_v<Backend, backend::tbb>) {
    const int count = options.islands.count, ranks = transport.ranks();
    if (ranks >= 1 && count >= ranks &&
        islands::island_population(options.population, count, 0) <= side_by_side_island_limit) {  // island 0: largest
      int first = 0, last = 0;
      islands::rank_islands(count, ranks, transport.rank(), first, last);
      tbb_loop loop(backend);
      if (last - first >= loop.concurrency())
        return islands::solve_islands(problem, options, backend::serial{}, transport,
                                      [&loop](std::size_t n, const std::function<void(std::size_t)>& f) {
                                        loop.for_each_index(n, f);
                                      },
                                      resume);
    }
  }
  return islands::solve_islands(problem, options, backend, transport, {}, resume);
}

template <class Problem, class Backend>
Result solve_run(const Problem& problem, const ga_options& options, const Backend& backend,
                 std::istream* resume_stream, const std::string& resume_source) {
  using fitness = fitness_t<Problem>;
  using gene = gene_t<Problem>;
  if (options.islands.count < 1) islands::validate_islands(options);  // throws: names ga.islands.count
  if (options.islands.count > 1 || options.islands.transport) {
    std::optional<checkpoint_reader> resume;  // read (and its checksum checked) once, by every rank
    if (resume_stream) resume.emplace(*resume_stream, resume_source);
    checkpoint_reader* from = resume ? &*resume : nullptr;
    if (options.islands.transport) return run_islands(problem, options, backend, *options.islands.transport, from);
    islands::local_transport one_process;
    return run_islands(problem, options, backend, one_process, from);
  }
  const auto start = std::chrono::steady_clock::now();
  double elapsed0 = 0;  // run time before a resume
  const auto elapsed = [&] {
    return elapsed0 + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // Across restarts the best is kept by the run's final order: the penalty's, else Deb's feasibility rules.
  const constraint_rule final_rule =
      options.constraints.rule == constraint_rule::penalty ? constraint_rule::penalty : constraint_rule::feasibility_rules;
  const auto rank = [&](fitness objective, fitness violation) {
    return make_rank_key(objective, violation, sense_of<Problem>(), final_rule,
                         static_cast<fitness>(options.constraints.penalty_weight));
  };
  Result r;
  r.reason = stop_reason::generations;
  rank_key_t<fitness> best_key = 0;
  solve_state st;  // generations, evaluations, improved_at, have_best: over the whole run

  const checkpoint_options& ck = options.checkpoint;
  // An object, not a pointer that may be null: GCC's -Wnonnull then sees no null `this` in the resume path.
  std::optional<checkpoint_reader> resume;
  if (resume_stream) resume.emplace(*resume_stream, resume_source);
  checkpoint_header header;
  if (ck.write || resume) {
    const Bounds<gene> bounds = problem.bounds();
    header = make_checkpoint_header<Problem, gene, fitness>(problem, bounds, options);
  }
  solve_state resumed;
  if (resume) {
    check_same_run(*resume, read_header(*resume).lines, header.lines);
    resumed = read_solve_state(*resume, best_key, r, static_cast<std::size_t>(problem.dimension()));
    st = resumed;
    elapsed0 = resumed.elapsed_s;
  }
  double last_checkpoint_s = elapsed0;

  for (int k = resumed.restart;; ++k) {
    const bool resuming = resume && k == resumed.restart;
    ga_options o = restart_options_for(options, k);
    const std::uint64_t children = children_per_generation(o);
    const int generation0 = resuming ? resumed.generation0 : st.generations;
    const std::uint64_t evaluations0 = resuming ? resumed.evaluations0 : st.evaluations;
    // This start's generation limit: what is left of the run's, cut to what the budget pays for.
    long long limit = options.generations - generation0;
    bool budget_limited = false;
    if (options.stop.evaluations) {
      const std::uint64_t left = *options.stop.evaluations - std::min(*options.stop.evaluations, evaluations0);
      if (left < o.population) {  // not even the fresh population's evaluation fits
        if (k == 0) validate(o, problem.dimension(), std::is_floating_point_v<gene>);  // throws: names it
        r.reason = stop_reason::evaluations;
        break;
      }
      const auto affordable = static_cast<long long>((left - o.population) / children);
      if (affordable < limit) limit = affordable, budget_limited = true;
    }
    if (k > 0 && limit <= 0) {  // no generation left for a fresh population
      r.reason = budget_limited ? stop_reason::evaluations : stop_reason::generations;
      break;
    }
    // A resumed start keeps the limit it was built with (it sets the ε schedule); the loop obeys today's.
    o.generations = resuming ? resumed.start_generations : static_cast<int>(limit);
    engine<Problem, Backend> e(problem, o, backend);
    r.restarts = k;
    st.restart = k;
    st.start_generations = o.generations;
    st.generation0 = generation0;
    st.evaluations0 = evaluations0;
    st.best_here = resuming && resumed.best_here;
    const auto record = [&] {
      generation_stats g = e.stats();
      g.generation = st.generations = generation0 + e.generation();
      g.evaluations = st.evaluations = evaluations0 + e.evaluations();
      // the run's time from the engine's reading at the generation's end (elapsed(), without a clock read)
      g.elapsed_s += elapsed0 + std::chrono::duration<double>(e.started_at() - start).count();
      const auto key = rank(e.best_objective(), e.best_violation());
      if (!st.have_best || key < best_key) {
        st.have_best = true;
        best_key = key;
        r.objective = static_cast<double>(e.best_objective());
        r.violation = static_cast<double>(e.best_violation());
        st.best_here = true;  // its genes are copied once, when this start ends (a device copy per improvement would cost)
        st.improved_at = st.generations;
      }
      r.history.push_back(g);
      if (options.on_generation) options.on_generation(g);
    };
    const auto stop_now = [&]() -> bool {
      if (options.interrupt && options.interrupt->load()) return r.reason = stop_reason::interrupted, true;
      if (options.stop.target &&
          reached(sense_of<Problem>(), static_cast<fitness>(r.objective), static_cast<fitness>(r.violation),
                  *options.stop.target))
        return r.reason = stop_reason::target, true;
      if (options.stop.stall_generations && st.generations - st.improved_at >= *options.stop.stall_generations)
        return r.reason = stop_reason::stall, true;
      if (options.stop.time_limit_s && elapsed() >= *options.stop.time_limit_s)
        return r.reason = stop_reason::time_limit, true;
      return false;
    };
    const auto restart_due = [&] {
      return ::fusedga::detail::restart_due(options.restarts, e.generations_without_progress(), e.stats());
    };
    const auto write_checkpoint = [&] {
      std::ostringstream out(std::ios::binary);
      checkpoint_writer w(out);
      write_header(w, header);
      st.elapsed_s = elapsed();
      write_solve_state(w, st, best_key, r);
      e.save(w);
      w.finish();
      ck.write(out.str());
      last_checkpoint_s = elapsed();
    };
    const auto checkpoint_due = [&] {
      return ck.write && ((ck.every_generations > 0 && e.generation() > 0 && st.generations % ck.every_generations == 0) ||
                          (ck.every_seconds > 0 && elapsed() - last_checkpoint_s >= ck.every_seconds));
    };
    if (resuming) {
      e.load(*resume);
      if (!resume->at_end()) resume->fail("has records after the run state (another format version?)");
    } else {
      e.initialize();
      record();
    }
    bool stopped = stop_now();
    while (!stopped && e.generation() < limit && !restart_due()) {
      // The gradient repair's evaluations are known only after its generation: a generation runs with it while
      // the budget pays for its worst case, then without it while the budget pays for its children.
      bool repair = true;
      if (options.stop.evaluations) {
        const std::uint64_t budget = *options.stop.evaluations;
        const std::uint64_t left = budget - std::min(budget, st.evaluations);
        if (left < children) {
          r.reason = stop_reason::evaluations;
          stopped = true;
          break;
        }
        repair = left - children >= e.repair_bound();
      }
      e.step(repair);
      record();
      stopped = stop_now();
      if (!stopped && checkpoint_due()) write_checkpoint();
    }
    const bool ends = stopped || !restart_due() || e.generation() >= limit;
    if (ends && ck.write) write_checkpoint();  // the last state: resumable with a higher limit, or after an interrupt
    if (st.best_here) r.best_genes.assign(e.best_genes().begin(), e.best_genes().end());
    r.not_a_number += e.not_a_number();
    if (stopped) break;
    if (ends) {  // the start used its whole limit
      r.reason = budget_limited ? stop_reason::evaluations : stop_reason::generations;
      break;
    }
  }
  r.variable_names = variable_names(problem);  // after the generations: not part of any row's time
  r.integer_variables = integer_variables(problem);
  r.feasible = r.violation == 0 && r.finite();  // an infinite or NaN objective or gene is never feasible
  r.generations = st.generations;
  r.evaluations = st.evaluations;
  r.wall_time_s = elapsed();
  return r;
}

}  // namespace detail

/**
 * Runs a GA on `problem` and returns the best individual ever seen (by Deb's
 * feasibility rules, or the penalty order).
 *
 * Each generation is one fused offspring pass (tournament → crossover →
 * mutation → repair → evaluation → write) over fixed tiles of 64 children,
 * run by `backend`. The run stops at `options.generations` (counted over all
 * restarts), when `options.stop.evaluations` would be exceeded by the next
 * generation, or earlier by `options.stop` or `options.interrupt`. With
 * `options.restarts`, a stagnating population is replaced by a fresh, larger
 * one (restart_options); `options.on_generation` sees every generation's
 * statistics on the calling thread, with generation, evaluation and time
 * counted from the start of the run. With `options.checkpoint.write`, the
 * run state is handed to it as checkpoints (checkpoint_options).
 *
 * Reproducible: the same problem, options and seed give bitwise identical
 * results on the serial backend and the TBB backend at any thread count.
 *
 * @throws config_error when options do not fit the problem (validate.hpp).
 * @throws config_error when the run does not fit in memory, checked before allocating (host memory:
 *         engine/memory_estimate.hpp; device memory on backend::cuda), naming what fits.
 * Exceptions thrown by the problem's members, `on_generation` and `checkpoint.write` propagate as thrown (an
 * island run's: solve_islands).
 *
 * Thread safety: each call owns its run; calls from several threads at once are safe (each on its own problem
 * and options objects, or shared ones that no one modifies). On backend::tbb the problem's members run
 * concurrently on worker threads (core/problem_traits.hpp).
 *
 * **Example**
 * @code
 * fusedga::ga_options o;
 * o.population = 10000;
 * auto r = fusedga::solve(MyProblem{}, o, fusedga::backend::tbb{});
 * @endcode
 */
template <class Problem, class Backend = backend::tbb>
Result solve(const Problem& problem, const ga_options& options, const Backend& backend = Backend{}) {
  check_problem<Problem>();
  if constexpr (detail::has_problem_basics_v<Problem>)
    return detail::solve_run(problem, options, backend, nullptr, std::string());
  else
    return Result{};  // not compiled into a program: check_problem failed above
}

/**
 * Resumes the run whose checkpoint is read from `checkpoint` (written by a run of `solve` with
 * `options.checkpoint.write`) and continues it to its end. The result (and every history row) is bitwise
 * the one the run would have given uninterrupted, wall-clock fields aside, on any backend whose operators
 * are bitwise equal to the writer's. `options` must shape the same trajectory (checkpoint.hpp:
 * trajectory_options_text); its generation limit, stopping rules, callbacks and checkpoint settings
 * may differ. The result's history includes the rows before the checkpoint. Island-model runs
 * (`options.islands`) resume alike, over any rank count of `options.islands.transport`
 * (islands/island_checkpoint.hpp).
 *
 * @throws checkpoint_error (a config_error) when the stream is not a readable checkpoint of this FusedGA's
 *         format, is corrupt, or is of another problem, other options, precision or dimensions (the message
 *         names each field that differs).
 * Everything `solve` throws.
 */
template <class Problem, class Backend = backend::tbb>
Result solve(const Problem& problem, const ga_options& options, const Backend& backend, std::istream& checkpoint,
             const std::string& source = "checkpoint") {
  check_problem<Problem>();
  if constexpr (detail::has_problem_basics_v<Problem>)
    return detail::solve_run(problem, options, backend, &checkpoint, source);
  else
    return Result{};  // not compiled into a program: check_problem failed above
}

}  // namespace fusedga
