#pragma once
/// @file solve_islands.hpp
/// The island model (engine/options.hpp island_options): I sub-populations, each an `engine` of its own
/// (its own slice of N, seed and — heterogeneous islands — settings), evolve apart in synchronous epochs of
/// M generations; after each epoch every island sends its K best to the islands its topology names and
/// each receiver replaces its worst (islands/migration.hpp). The islands are spread over the ranks of a
/// Transport (islands/transport.hpp: one process, or MPI ranks); each rank runs its islands one after
/// another, every pass over all of the backend's threads (or its GPU), or, given an island_runner, side by
/// side: each island's generations on one thread (solve.hpp's run_islands does so on TBB when a rank has at least
/// as many islands as threads and they are small, where a fork and join per island and pass costs most).
///
/// Epochs are the run's clock: after each one the ranks all-gather every island's rows, best-so-far and
/// counters, so every rank builds the same archipelago history and takes the same stopping decision — and, with
/// `ga.restarts`, the same restarts: after each migration, each island whose current start is due to end
/// (restart_due: stalled, and converged if asked) starts afresh (restart_options_for: its own seed, its population
/// grown), in island order while the evaluation budget pays for the fresh population, keeping its best-so-far; a fresh
/// start takes no immigrants for its first `stall_generations` generations.
/// `stop.target`, `stop.stall_generations`, `stop.time_limit_s` and `interrupt` are checked there, at
/// the end of an epoch; the generation limit and `stop.evaluations` cut the last epoch exactly.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "fusedga/core/error.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/core/rank_key.hpp"
#include "fusedga/engine/checkpoint.hpp"
#include "fusedga/engine/engine.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/engine/restart.hpp"
#include "fusedga/engine/result.hpp"
#include "fusedga/engine/target.hpp"
#include "fusedga/islands/island_checkpoint.hpp"
#include "fusedga/islands/island_options.hpp"
#include "fusedga/islands/migration.hpp"
#include "fusedga/islands/transport.hpp"

namespace fusedga::islands {

namespace detail {

/// Appends / reads trivially copyable values to / from a byte buffer (the all_gather records and migrant packets).
struct byte_writer {
  std::vector<std::byte> bytes;
  template <class T>
  void put_n(const T* v, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t at = bytes.size();
    bytes.resize(at + n * sizeof(T));
    if (n) std::memcpy(bytes.data() + at, v, n * sizeof(T));
  }
  template <class T>
  void put(const T& v) { put_n(&v, 1); }
};

struct byte_reader {
  const std::vector<std::byte>& bytes;
  std::size_t at = 0;
  template <class T>
  void get_n(T* v, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (at + n * sizeof(T) > bytes.size()) throw std::runtime_error("islands: a record from another rank is short");
    if (n) std::memcpy(v, bytes.data() + at, n * sizeof(T));
    at += n * sizeof(T);
  }
  template <class T>
  T get() {
    T v;
    get_n(&v, 1);
    return v;
  }
};

/// One island's part of an epoch's all_gather record.
struct island_record {
  int island = 0;
  std::uint64_t evaluations = 0, not_a_number = 0, immigrants = 0;
  long long improved_at = 0;
  bool restart_due = false;  ///< its current start ends at this epoch (restart_options, engine/restart.hpp)
  double best_objective = 0, best_violation = 0;
  std::vector<generation_stats> rows;  ///< its history rows since the last gather
  std::vector<double> best_genes;      ///< d values
};

/// What went wrong on a rank, carried to every rank by all_gather.
struct rank_failure {
  bool failed = false;
  bool config = false;  ///< a config_error (the run's settings), else another exception
  std::string what;
  std::exception_ptr thrown;  ///< the exception itself (this rank's only): rethrown here as it was
};

}  // namespace detail

/// Runs `f(k)` for k in [0, n), side by side (each call touches island k's engine only): solve.hpp's TBB loop.
using island_runner = std::function<void(std::size_t n, const std::function<void(std::size_t)>& f)>;

/**
 * Runs the island model of `options.islands` on `problem` over `transport`'s ranks (each running its block
 * of islands, rank_islands) and returns the archipelago's result on every rank: the best individual of all
 * islands (Deb's feasibility rules, or the penalty order), one history row per generation combining the
 * islands (best over islands, mean and feasible fraction over all individuals, evaluations summed, the
 * slowest island's time), and `Result::islands` with each island's best, counters and own rows.
 *
 * Deterministic: for a fixed island count, the result is bitwise the same for any thread count and any
 * rank count (wall-clock fields aside). `options.on_generation` is called on every rank with the archipelago's
 * rows, M at a time after each epoch. With `side_by_side`, a rank's islands are initialized and run their
 * generations through it, each island's engine on `backend` (the serial one, so one thread per island); the
 * result is the same bitwise, as every backend's engine gives the same generations.
 *
 * Checkpoints (`options.checkpoint`, island_checkpoint.hpp): due ones are written at the end of an epoch, after its
 * migration, and the last when the run ends; the decision is taken from the epoch's gathered records, so every
 * rank takes it alike. Every rank saves its islands' engines and all-gathers them (each rank holds the whole
 * archipelago's state for a moment); rank 0 alone calls `checkpoint.write`, which every rank must set alike. With
 * `resume` (its reader past nothing yet), the run continues from that checkpoint, written by any rank count,
 * bitwise as it would have gone on uninterrupted.
 *
 * @throws config_error as validate_islands, and an island's own config_error prefixed with "island i: ".
 * @throws checkpoint_error (a config_error) when `resume` is not a checkpoint of this run (naming what differs),
 *         or checkpoints are asked of a backend whose engine cannot save its state.
 * An exception from `checkpoint.write` on rank 0 ends the run on every rank at the next epoch's gather; from the
 * last checkpoint, it propagates on rank 0.
 * Any exception on one rank (an island's problem throwing, memory) ends the run on every rank at the end of
 * that epoch. A config_error stays one, its message prefixed with the rank and island. Any other exception
 * propagates as it was thrown on the rank where it happened (in one process: the caller gets its own type, as
 * without islands), and as std::runtime_error with the rank's and island's prefix on the others.
 */
template <class Problem, class Backend, class Transport>
Result solve_islands(const Problem& problem, const ga_options& options, const Backend& backend, Transport& transport,
                     const island_runner& side_by_side = {}, ::fusedga::detail::checkpoint_reader* resume = nullptr) {
  using fitness = fitness_t<Problem>;
  using gene = gene_t<Problem>;
  using engine_type = engine<Problem, Backend>;
  const auto start = std::chrono::steady_clock::now();
  double elapsed0 = 0;  // run time before a resume
  const auto elapsed = [&] {
    return elapsed0 + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  validate_islands(options);
  const int I = options.islands.count, R = transport.ranks(), me = transport.rank();
  if (I < R)
    throw config_error("ga.islands.count: " + std::to_string(I) + " islands cannot be spread over " + std::to_string(R) +
                       " MPI ranks: give at least as many islands as ranks");
  int first, last;
  rank_islands(I, R, me, first, last);
  const std::size_t d = static_cast<std::size_t>(problem.dimension());
  const std::size_t K = options.islands.migration.size;
  const int M = options.islands.migration.every;
  const Sense sense = sense_of<Problem>();
  const constraint_rule final_rule =
      options.constraints.rule == constraint_rule::penalty ? constraint_rule::penalty : constraint_rule::feasibility_rules;
  const auto rank = [&](double objective, double violation) {
    return make_rank_key(static_cast<fitness>(objective), static_cast<fitness>(violation), sense, final_rule,
                         static_cast<fitness>(options.constraints.penalty_weight));
  };

  // Every rank knows every island's start, size and children per generation (the budget is the archipelago's).
  const bool restarting = options.restarts.stall_generations.has_value();
  std::vector<ga_options> io(static_cast<std::size_t>(I));
  const auto start_options = [&](int i, int k) {  // island i's k-th start (k = 0: the island as configured)
    ga_options o = io[static_cast<std::size_t>(i)];
    o.restarts = options.restarts;
    o = ::fusedga::detail::restart_options_for(o, k);
    o.restarts = restart_options{};
    return o;
  };
  for (int i = 0; i < I; ++i) io[i] = island_options_for(options, i);
  std::vector<int> restarts(static_cast<std::size_t>(I), 0);
  std::vector<std::size_t> population(static_cast<std::size_t>(I));  // each island's current start's
  std::uint64_t children = 0, repair_bound = 0;  // per generation of the archipelago; repair: its worst case
  const auto size_islands = [&] {
    children = repair_bound = 0;
    for (int i = 0; i < I; ++i) {
      const ga_options o = start_options(i, restarts[static_cast<std::size_t>(i)]);
      population[static_cast<std::size_t>(i)] = o.population;
      children += ::fusedga::detail::children_per_generation(o);
      repair_bound += ::fusedga::detail::max_repair_evaluations(problem, o);
    }
  };
  size_islands();
  long long limit = options.generations;
  bool budget_limited = false;
  if (options.stop.evaluations) {
    if (*options.stop.evaluations < options.population)
      throw config_error("stop.evaluations: " + std::to_string(*options.stop.evaluations) +
                         " does not pay for the initial populations (" + std::to_string(options.population) + ")");
    const auto affordable = static_cast<long long>((*options.stop.evaluations - options.population) / children);
    if (affordable < limit) limit = affordable, budget_limited = true;
  }

  // Checkpoints: the header every rank checks a resume against, and the state they resume from.
  const checkpoint_options& ck = options.checkpoint;
  ::fusedga::detail::checkpoint_header header;
  archipelago_state resumed;
  if (ck.write || resume) {
    if constexpr (!::fusedga::detail::has_state_io<typename engine_type::executor_type>::value)
      throw checkpoint_error("checkpoints: this backend cannot save an island's state yet");
    header = ::fusedga::detail::make_checkpoint_header<Problem, gene, fitness>(problem, problem.bounds(), options);
    header.lines += island_trajectory_text(options);
  }
  if (resume) {
    ::fusedga::detail::check_same_run(*resume, ::fusedga::detail::read_header(*resume).lines, header.lines);
    resumed = read_archipelago(*resume, I, d, restarting);
    elapsed0 = resumed.elapsed_s;
    for (int i = 0; i < I && restarting; ++i) restarts[static_cast<std::size_t>(i)] = resumed.starts[i].restart;
    size_islands();
  }
  // A resumed run keeps the limit its engines were built with (it sets the ε schedule); the loop, and a start
  // after a restart, obey today's (as solve's restarts do).
  const int engine_generations = resume ? resumed.engine_generations : static_cast<int>(limit);

  const std::size_t L = static_cast<std::size_t>(last - first);
  std::vector<std::unique_ptr<engine_type>> eng(L);
  std::vector<island_start> start_of(L);  // each local island's current start and its earlier starts' best
  std::vector<std::vector<generation_stats>> rows(L);  // each local island's rows since the last gather
  std::vector<std::uint64_t> accepted(L, 0);
  detail::rank_failure failure;
  // Keeps local island k's exception for the next gather (one that is no std::exception propagates).
  const auto keep = [&](std::size_t k, const std::exception_ptr& e) {
    const std::string island = "island " + std::to_string(first + static_cast<int>(k)) + ": ";
    try {
      std::rethrow_exception(e);
    } catch (const config_error& x) {
      failure = {true, true, island + x.what(), nullptr};
    } catch (const std::exception& x) {
      failure = {true, false, island + x.what(), e};
    }
  };
  // Runs `f(k)` for each local island k in order, up to the first exception.
  const auto each_island = [&](auto&& f) {
    for (std::size_t k = 0; k < L && !failure.failed; ++k) {
      try {
        f(static_cast<int>(k));
      } catch (...) {
        keep(k, std::current_exception());
      }
    }
  };
  // Initialization and generations touch island k's engine only: side by side when given a runner. Every
  // island runs; the lowest one that threw is kept, as one after another would have.
  const auto each_island_apart = [&](auto&& f) {
    if (!side_by_side) return each_island(f);
    if (failure.failed) return;
    std::vector<std::exception_ptr> thrown(L);
    side_by_side(L, [&](std::size_t k) {
      try {
        f(static_cast<int>(k));
      } catch (...) {
        thrown[k] = std::current_exception();
      }
    });
    for (std::size_t k = 0; k < L && !failure.failed; ++k)
      if (thrown[k]) keep(k, thrown[k]);
  };
  // Island k's statistics row, counted over its starts.
  const auto row_of = [&](int k) {
    const island_start& s0 = start_of[static_cast<std::size_t>(k)];
    generation_stats x = eng[static_cast<std::size_t>(k)]->stats();
    x.generation += static_cast<int>(s0.generation0);
    x.evaluations += s0.evaluations0;
    x.elapsed_s += s0.elapsed0;
    return x;
  };
  each_island_apart([&](int k) {
    const std::size_t i = static_cast<std::size_t>(first + k);
    island_start& s0 = start_of[static_cast<std::size_t>(k)];
    if (resume && restarting)
      s0 = resumed.starts[i];
    else
      s0.engine_generations = engine_generations;
    ga_options o = start_options(static_cast<int>(i), s0.restart);
    o.generations = s0.engine_generations;
    auto e = std::make_unique<engine_type>(problem, o, backend);
    if (resume) {
      const std::vector<char>& bytes = resumed.engine_states[i];
      std::istringstream in(std::string(bytes.begin(), bytes.end()), std::ios::binary);
      ::fusedga::detail::checkpoint_reader state(in, resume->source() + " (island " + std::to_string(i) + ")");
      e->load(state);
      if (!state.at_end()) state.fail("has records after the engine's state (another format version?)");
      accepted[static_cast<std::size_t>(k)] = resumed.immigrants[i];
    } else {
      e->initialize();
      // The island's rows count from the run's start, set-up included, not from its engine's clock (which starts
      // in initialize): else generation 0's row left out the other islands' set-up and time to target looked
      // shorter than the run.
      s0.elapsed0 = elapsed() - e->elapsed_s();
    }
    eng[static_cast<std::size_t>(k)] = std::move(e);
    if (!resume) rows[static_cast<std::size_t>(k)].push_back(row_of(k));
  });
  // Island k's best over its starts: {objective, violation, the run's generation it was reached, its genes}.
  struct island_best {
    double objective, violation;
    long long improved_at;
    const std::vector<double>* kept;  // an earlier start's genes, else null: the engine's
  };
  const auto best_of = [&](int k) {
    const engine_type& e = *eng[static_cast<std::size_t>(k)];
    const island_start& s0 = start_of[static_cast<std::size_t>(k)];
    const island_best now{static_cast<double>(e.best_objective()), static_cast<double>(e.best_violation()),
                          s0.generation0 + e.generation() - e.stalled_generations(), nullptr};
    if (s0.have_best && !(rank(now.objective, now.violation) < rank(s0.objective, s0.violation)))
      return island_best{s0.objective, s0.violation, s0.improved_at, &s0.genes};
    return now;
  };

  Result r;
  r.reason = stop_reason::generations;
  r.islands.resize(static_cast<std::size_t>(I));
  for (int i = 0; i < I; ++i) {
    r.islands[i].island = i;
    r.islands[i].rank = owner_rank(I, R, i);
    if (resume) r.islands[i].history = std::move(resumed.island_history[i]);
  }
  if (resume) r.history = std::move(resumed.history);
  std::vector<detail::island_record> latest(static_cast<std::size_t>(I));
  long long g = resume ? resumed.generation : 0;
  std::uint64_t evaluations = 0;
  double run_clock = 0;  // the slowest rank's elapsed time at the last gather: the same on every rank

  // The epoch's collective: every rank's failure, interrupt, time and islands to every rank.
  const auto gather = [&] {
    detail::byte_writer w;
    w.put(static_cast<std::uint8_t>(failure.failed));
    w.put(static_cast<std::uint8_t>(failure.config));
    w.put(static_cast<std::uint8_t>(options.interrupt && options.interrupt->load()));
    w.put(elapsed());
    w.put(static_cast<std::uint64_t>(failure.what.size()));
    w.put_n(failure.what.data(), failure.what.size());
    if (!failure.failed) {
      for (int k = 0; k < last - first; ++k) {
        const engine_type& e = *eng[static_cast<std::size_t>(k)];
        std::vector<generation_stats>& h = rows[static_cast<std::size_t>(k)];
        const island_start& s0 = start_of[static_cast<std::size_t>(k)];
        const island_best b = best_of(k);
        w.put(first + k);
        w.put(s0.evaluations0 + e.evaluations());
        w.put(s0.not_a_number0 + e.not_a_number());
        w.put(accepted[k]);
        w.put(b.improved_at);
        w.put(static_cast<std::uint8_t>(
            ::fusedga::detail::restart_due(options.restarts, e.generations_without_progress(), e.stats())));
        w.put(b.objective);
        w.put(b.violation);
        w.put(static_cast<std::uint64_t>(h.size()));
        w.put_n(h.data(), h.size());
        h.clear();
        if (b.kept) {
          w.put_n(b.kept->data(), d);
        } else {
          const std::vector<gene>& genes = e.best_genes();
          for (std::size_t j = 0; j < d; ++j) w.put(static_cast<double>(genes[j]));
        }
      }
    }
    const std::vector<std::vector<std::byte>> all = transport.all_gather(w.bytes);
    bool interrupted = false;
    double slowest = 0;
    // This rank's own exception first, even when a lower rank failed in the same epoch (the others throw the
    // first failed rank's message).
    if (failure.failed && failure.thrown) std::rethrow_exception(failure.thrown);
    for (int q = 0; q < R; ++q) {
      detail::byte_reader in{all[static_cast<std::size_t>(q)]};
      const bool failed = in.get<std::uint8_t>() != 0;
      const bool config = in.get<std::uint8_t>() != 0;
      interrupted |= in.get<std::uint8_t>() != 0;
      slowest = std::max(slowest, in.get<double>());
      std::string what(in.get<std::uint64_t>(), '\0');
      in.get_n(what.data(), what.size());
      if (failed) {  // every other rank throws the first failed rank's error
        const std::string msg = (R > 1 ? "rank " + std::to_string(q) + ": " : std::string()) + what;
        if (config) throw config_error(msg);
        throw std::runtime_error(msg);
      }
      int f2, l2;
      rank_islands(I, R, q, f2, l2);
      for (int i = f2; i < l2; ++i) {
        detail::island_record& rec = latest[static_cast<std::size_t>(i)];
        rec.island = in.get<int>();
        rec.evaluations = in.get<std::uint64_t>();
        rec.not_a_number = in.get<std::uint64_t>();
        rec.immigrants = in.get<std::uint64_t>();
        rec.improved_at = in.get<long long>();
        rec.restart_due = in.get<std::uint8_t>() != 0;
        rec.best_objective = in.get<double>();
        rec.best_violation = in.get<double>();
        rec.rows.resize(in.get<std::uint64_t>());
        in.get_n(rec.rows.data(), rec.rows.size());
        rec.best_genes.resize(d);
        in.get_n(rec.best_genes.data(), d);
        if (rec.island != i) throw std::runtime_error("islands: rank " + std::to_string(q) + " sent another island");
      }
    }
    run_clock = slowest;
    // The archipelago's rows of the generations this epoch ran, combined in island order.
    const std::size_t new_rows = latest[0].rows.size();
    evaluations = 0;
    for (const auto& rec : latest) evaluations += rec.evaluations;
    for (std::size_t t = 0; t < new_rows; ++t) {
      generation_stats s;
      std::uint64_t rankable = 0, feasible_n = 0, evals = 0;
      double sum = 0;
      bool first_island = true;
      for (int i = 0; i < I; ++i) {
        const generation_stats& x = latest[static_cast<std::size_t>(i)].rows[t];
        const std::uint64_t n_i = population[static_cast<std::size_t>(i)];
        if (first_island || rank(x.best_objective, x.best_violation) < rank(s.best_objective, s.best_violation)) {
          s.best_objective = x.best_objective;
          s.best_violation = x.best_violation;
        }
        first_island = false;
        const std::uint64_t ok = n_i - x.not_a_number;
        if (ok > 0) sum += x.mean_objective * static_cast<double>(ok), rankable += ok;
        feasible_n += static_cast<std::uint64_t>(x.feasible_fraction * static_cast<double>(n_i) + 0.5);
        evals += x.evaluations;
        s.not_a_number += x.not_a_number;
        s.elapsed_s = std::max(s.elapsed_s, x.elapsed_s);
        s.generation = x.generation;
        r.islands[i].history.push_back(x);
      }
      s.mean_objective = sum / static_cast<double>(rankable);
      std::uint64_t n = 0;
      for (std::size_t n_i : population) n += n_i;
      s.feasible_fraction = static_cast<double>(feasible_n) / static_cast<double>(n);
      s.evaluations = evals;
      r.history.push_back(s);
      if (options.on_generation) options.on_generation(s);
    }
    // The best-so-far: the best island's; it last improved when the first island reached it.
    int best = 0;
    for (int i = 1; i < I; ++i) {
      const auto& a = latest[static_cast<std::size_t>(i)];
      const auto& b = latest[static_cast<std::size_t>(best)];
      const auto ka = rank(a.best_objective, a.best_violation), kb = rank(b.best_objective, b.best_violation);
      if (ka < kb || (ka == kb && a.improved_at < b.improved_at)) best = i;
    }
    const detail::island_record& b = latest[static_cast<std::size_t>(best)];
    r.objective = b.best_objective;
    r.violation = b.best_violation;
    r.best_genes = b.best_genes;
    // Stopping rules, decided alike on every rank from the same records.
    if (interrupted) return r.reason = stop_reason::interrupted, true;
    if (options.stop.target && ::fusedga::detail::reached(sense, static_cast<fitness>(r.objective),
                                                          static_cast<fitness>(r.violation), *options.stop.target))
      return r.reason = stop_reason::target, true;
    if (options.stop.stall_generations && g - b.improved_at >= *options.stop.stall_generations)
      return r.reason = stop_reason::stall, true;
    if (options.stop.time_limit_s && slowest >= *options.stop.time_limit_s)
      return r.reason = stop_reason::time_limit, true;
    return false;
  };

  // Migration after an epoch (islands/migration.hpp) in two halves around the epoch's gather, so that no rank
  // exchanges migrants with a rank that failed: every island packs its emigrants and lists what it expects ...
  const std::size_t row_bytes = d * sizeof(gene) + 2 * sizeof(fitness);
  std::vector<packet> outgoing, incoming;
  const auto send_migrants = [&](std::uint32_t epoch) {
    const migration_topology topo = options.islands.migration.topology;
    outgoing.clear();
    incoming.clear();
    each_island([&](int k) {
      const int i = first + k;
      std::vector<gene> genes(K * d);
      std::vector<fitness> obj(K), vio(K);
      eng[static_cast<std::size_t>(k)]->emigrants(K, genes.data(), obj.data(), vio.data());
      detail::byte_writer w;
      w.put_n(genes.data(), genes.size());
      w.put_n(obj.data(), K);
      w.put_n(vio.data(), K);
      for (int to : destinations(topo, I, i, options.seed, epoch)) outgoing.push_back({i, to, w.bytes});
      for (int from : sources(topo, I, i, options.seed, epoch))
        incoming.push_back({from, i, std::vector<std::byte>(K * row_bytes)});
    });
  };
  // ... then, when the gather found every rank well and the run going on, they exchange and receive.
  const auto receive_migrants = [&] {
    transport.exchange(outgoing, incoming);
    each_island([&](int k) {
      const int i = first + k;
      // A restarted island takes no immigrants in its first stall_generations: they would pull the fresh start
      // back to where the archipelago stalled (docs/islands.md, "Restarts on islands": 80 % -> 100 % on Lunacek).
      const island_start& s0 = start_of[static_cast<std::size_t>(k)];
      if (s0.restart > 0 && g - s0.generation0 < *options.restarts.stall_generations) return;
      std::vector<gene> genes;
      std::vector<fitness> obj, vio;
      for (const packet& p : incoming) {  // in order of source island
        if (p.to != i) continue;
        detail::byte_reader in{p.bytes};
        const std::size_t at_g = genes.size(), at_f = obj.size();
        genes.resize(at_g + K * d);
        obj.resize(at_f + K);
        vio.resize(at_f + K);
        in.get_n(genes.data() + at_g, K * d);
        in.get_n(obj.data() + at_f, K);
        in.get_n(vio.data() + at_f, K);
      }
      accepted[k] += eng[static_cast<std::size_t>(k)]->immigrate(obj.size(), genes.data(), obj.data(), vio.data(), K);
    });
  };

  // A checkpoint after generation g (collective): every rank's engine states to every rank, then rank 0
  // writes. A rank that cannot save says so in its part, and every rank throws the same error.
  double last_checkpoint_s = elapsed0;
  long long last_checkpoint_g = g;
  const auto write_checkpoint = [&](bool migrated, bool last_one) {
    detail::byte_writer w;
    std::string error;
    std::vector<std::string> states(L);
    try {
      for (std::size_t k = 0; k < L; ++k) {
        std::ostringstream out(std::ios::binary);
        ::fusedga::detail::checkpoint_writer cw(out);
        eng[k]->save(cw);
        cw.finish();
        states[k] = out.str();
      }
    } catch (const std::exception& x) {
      error = std::string("checkpoint: ") + x.what();
    }
    w.put(static_cast<std::uint64_t>(error.size()));
    w.put_n(error.data(), error.size());
    for (std::size_t k = 0; k < L; ++k) {
      const std::string& b = states[k];
      w.put(accepted[k]);
      w.put(static_cast<std::uint64_t>(b.size()));
      w.put_n(b.data(), b.size());
      if (!restarting) continue;
      const island_start& s0 = start_of[k];
      w.put(s0.restart);
      w.put(s0.engine_generations);
      w.put(s0.generation0);
      w.put(s0.evaluations0);
      w.put(s0.not_a_number0);
      w.put(s0.elapsed0);
      w.put(static_cast<std::uint8_t>(s0.have_best));
      w.put(s0.objective);
      w.put(s0.violation);
      w.put(s0.improved_at);
      w.put_n(s0.genes.data(), s0.have_best ? d : 0);
    }
    const std::vector<std::vector<std::byte>> all = transport.all_gather(w.bytes);
    archipelago_state st;
    st.immigrants.resize(static_cast<std::size_t>(I));
    st.engine_states.resize(static_cast<std::size_t>(I));
    if (restarting) st.starts.resize(static_cast<std::size_t>(I));
    for (int q = 0; q < R; ++q) {
      detail::byte_reader in{all[static_cast<std::size_t>(q)]};
      std::string what(in.get<std::uint64_t>(), '\0');
      in.get_n(what.data(), what.size());
      if (!what.empty()) throw std::runtime_error((R > 1 ? "rank " + std::to_string(q) + ": " : std::string()) + what);
      if (me != 0) continue;  // every rank checks every rank's error; rank 0 alone keeps the states
      int f2, l2;
      rank_islands(I, R, q, f2, l2);
      for (int i = f2; i < l2; ++i) {
        st.immigrants[static_cast<std::size_t>(i)] = in.get<std::uint64_t>();
        std::vector<char>& b = st.engine_states[static_cast<std::size_t>(i)];
        b.resize(in.get<std::uint64_t>());
        in.get_n(b.data(), b.size());
        if (!restarting) continue;
        island_start& s0 = st.starts[static_cast<std::size_t>(i)];
        s0.restart = in.get<int>();
        s0.engine_generations = in.get<int>();
        s0.generation0 = in.get<long long>();
        s0.evaluations0 = in.get<std::uint64_t>();
        s0.not_a_number0 = in.get<std::uint64_t>();
        s0.elapsed0 = in.get<double>();
        s0.have_best = in.get<std::uint8_t>() != 0;
        s0.objective = in.get<double>();
        s0.violation = in.get<double>();
        s0.improved_at = in.get<long long>();
        s0.genes.resize(s0.have_best ? d : 0);
        in.get_n(s0.genes.data(), s0.genes.size());
      }
    }
    last_checkpoint_s = run_clock;
    last_checkpoint_g = g;
    if (me != 0) return;
    st.generation = g;
    st.migrated = migrated;
    st.engine_generations = engine_generations;
    st.elapsed_s = elapsed();
    for (int i = 0; i < I; ++i) st.island_history.push_back(r.islands[static_cast<std::size_t>(i)].history);
    st.history = r.history;
    std::ostringstream out(std::ios::binary);
    ::fusedga::detail::checkpoint_writer cw(out);
    ::fusedga::detail::write_header(cw, header);
    write_archipelago(cw, st);
    cw.finish();
    if (last_one) return ck.write(out.str());
    try {  // the other ranks learn of it at the next gather
      ck.write(out.str());
    } catch (const config_error& x) {
      failure = {true, true, std::string("checkpoint: ") + x.what(), nullptr};
    } catch (const std::exception& x) {
      failure = {true, false, std::string("checkpoint: ") + x.what(), std::current_exception()};
    }
  };
  const auto checkpoint_due = [&] {
    return ck.write && ((ck.every_generations > 0 && g / ck.every_generations != last_checkpoint_g / ck.every_generations) ||
                        (ck.every_seconds > 0 && run_clock - last_checkpoint_s >= ck.every_seconds));
  };

  // Restarts after an epoch's migration: the stalled islands, chosen from the gathered records alike on every rank,
  // in island order while the budget pays for each fresh population and a generation of the archipelago after it;
  // each rank then restarts its own.
  const auto restart_stalled = [&] {
    if (!restarting || g >= limit) return;
    std::vector<char> due(static_cast<std::size_t>(I), 0);
    for (int i = 0; i < I; ++i) {
      if (!latest[static_cast<std::size_t>(i)].restart_due) continue;
      const int k = restarts[static_cast<std::size_t>(i)];
      const ga_options now = start_options(i, k), next = start_options(i, k + 1);
      const std::uint64_t after =
          children - ::fusedga::detail::children_per_generation(now) + ::fusedga::detail::children_per_generation(next);
      if (options.stop.evaluations && evaluations + next.population + after > *options.stop.evaluations) continue;
      due[static_cast<std::size_t>(i)] = 1;
      restarts[static_cast<std::size_t>(i)] = k + 1;
      evaluations += next.population;
      children = after;
    }
    size_islands();
    each_island_apart([&](int k) {
      const int i = first + k;
      if (!due[static_cast<std::size_t>(i)]) return;
      engine_type& old = *eng[static_cast<std::size_t>(k)];
      island_start& s0 = start_of[static_cast<std::size_t>(k)];
      const island_best b = best_of(k);
      if (!b.kept) {
        s0.have_best = true;
        s0.objective = b.objective;
        s0.violation = b.violation;
        s0.improved_at = b.improved_at;
        s0.genes.assign(old.best_genes().begin(), old.best_genes().end());
      }
      s0.restart = restarts[static_cast<std::size_t>(i)];
      s0.engine_generations = static_cast<int>(limit - g);
      s0.generation0 = g;
      s0.evaluations0 += old.evaluations();
      s0.not_a_number0 += old.not_a_number();
      ga_options o = start_options(i, s0.restart);
      o.generations = s0.engine_generations;
      eng[static_cast<std::size_t>(k)].reset();  // the stalled population's memory first
      auto e = std::make_unique<engine_type>(problem, o, backend);
      e->initialize();
      s0.elapsed0 = elapsed() - e->elapsed_s();  // the run's clock, as at the first start
      eng[static_cast<std::size_t>(k)] = std::move(e);
    });
  };

  // Epoch e ends after generation e·M, and the migration after it (none after the run's last generation). A run's
  // limit (or budget) may end its last epoch early; a resumed run with a higher limit completes that epoch. A
  // resumed run first does the migration its checkpoint was written before, if one is due.
  const auto epoch_of = [&](long long generation) { return static_cast<std::uint32_t>(generation / M); };
  bool migrated = resume ? resumed.migrated : true;  // whether the migration after generation g was done (or none)
  const bool migration_due = resume && !migrated && g % M == 0 && g < limit;
  if (migration_due) send_migrants(epoch_of(g));
  bool stopped = gather();
  if (migration_due && !stopped) receive_migrants(), restart_stalled(), migrated = true;
  while (!stopped && g < limit) {
    long long steps = std::min<long long>(M - g % M, limit - g);
    long long repaired = steps;  // the epoch's first steps run with the gradient repair, the rest without
    if (options.stop.evaluations) {
      // The repair's evaluations are known only after the epoch: its steps are cut to what the budget pays for,
      // and as many of the first as the budget pays for with the repair's worst case repair.
      const std::uint64_t left = *options.stop.evaluations - std::min(evaluations, *options.stop.evaluations);
      steps = std::min<long long>(steps, static_cast<long long>(left / children));
      if (steps == 0) {
        r.reason = stop_reason::evaluations;
        stopped = true;
        break;
      }
      const std::uint64_t spare = left - static_cast<std::uint64_t>(steps) * children;
      if (repair_bound > 0) repaired = std::min<long long>(steps, static_cast<long long>(spare / repair_bound));
    }
    each_island_apart([&](int k) {
      for (long long s = 0; s < steps; ++s) {
        eng[static_cast<std::size_t>(k)]->step(s < repaired);
        rows[static_cast<std::size_t>(k)].push_back(row_of(k));
      }
    });
    g += steps;
    const bool migrate = g % M == 0 && g < limit;
    if (migrate) send_migrants(epoch_of(g));
    stopped = gather();
    migrated = false;
    if (!stopped && migrate) receive_migrants(), restart_stalled(), migrated = true;
    if (!stopped && g < limit && checkpoint_due()) write_checkpoint(migrated, false);
  }
  if (ck.write) write_checkpoint(migrated, true);  // the last state: resumable with a higher limit
  if (!stopped && g >= limit) r.reason = budget_limited ? stop_reason::evaluations : stop_reason::generations;
  for (int i = 0; i < I; ++i) {
    island_result& x = r.islands[i];
    const detail::island_record& rec = latest[static_cast<std::size_t>(i)];
    x.objective = rec.best_objective;
    x.violation = rec.best_violation;
    x.feasible = rec.best_violation == 0 && std::isfinite(rec.best_objective);
    x.evaluations = rec.evaluations;
    x.immigrants = rec.immigrants;
    x.population = population[static_cast<std::size_t>(i)];
    x.restarts = restarts[static_cast<std::size_t>(i)];
    r.restarts += x.restarts;
    r.not_a_number += rec.not_a_number;
  }
  r.variable_names = variable_names(problem);  // after the generations: not part of any row's time
  r.integer_variables = integer_variables(problem);
  r.feasible = r.violation == 0 && r.finite();
  r.generations = static_cast<int>(g);
  r.evaluations = evaluations;
  r.wall_time_s = elapsed();
  return r;
}

}  // namespace fusedga::islands
