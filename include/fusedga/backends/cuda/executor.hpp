#pragma once
/// @file executor.hpp
/// The CUDA executor (engine/executor.hpp's requirements): the host sequence of
/// one GPU run — allocation, launches in order, the elite sort, the run state's
/// copy back — written once over a `Runtime` policy that performs the CUDA side:
/// `cuda_runtime` (runtime.cuh, nvcc: cudaLaunchKernel, CUDA graphs, CUB) or
/// the tests' kernel emulator (tests/cuda/emulator), so the emulated tests run
/// this very sequence. No CUDA headers here.
///
/// Device memory, allocated once (after the runtime checked it fits): two
/// populations (double buffered), the bounds, per-block summaries, the elites,
/// the best-so-far genes and a small run state. A generation is the fused
/// offspring kernel (block 0 also copies the elites), the elite key sort when
/// elitism > 8, the single-block finish kernel and an 80-byte copy of the run
/// state to pinned host memory — captured as one graph per buffer parity: one
/// graph launch and one synchronization per generation, no other traffic.
/// With `ga.algorithm: de` a generation is instead the pbest key sort
/// (current-to-pbest/1, SHADE), the DE kernel (thread per target: trial,
/// evaluation, one-to-one selection, success sums per 64 targets), the
/// single-block SHADE update kernel (memories, archive slots), the archive
/// copy and the finish kernel — the CPU's de_generation step by step, its
/// adaptive state (memories, archive, counters) resident on the device.
/// Population-batch problems (`evaluate_population`) and dynamic constraint
/// handlers launch each generation directly instead of as a graph: host work
/// sits between its kernels (the call; the handler's update).
///
/// Runtime requirements (`rt` a Runtime, `crt` a const one):
///  - `Runtime(problem, backend)`; `Runtime::memory` (a memory policy, core/population.hpp);
///    `Runtime::evaluation_min_blocks` (the blocks below which evaluation threads take one row each, geometry.hpp);
///    `Runtime::host_buffer<T>` (host memory the device copies into asynchronously);
///  - `crt.use_device()`, `crt.check_memory(n, d, element_sizes, elitism)` (throws config_error),
///    `crt.to_device(dst, src, bytes)`, `crt.to_host(dst, src, bytes)` (queued in order), `crt.synchronize()`;
///  - `rt.init(blocks, threads, init_args)`, `rt.evaluate(launch, shared_bytes, evaluate_args)`,
///    `rt.offspring(short_genome, launch, offspring_args)`, `rt.finish(finish_args)`;
///  - `rt.sort_scratch_bytes(keys, n)`, `rt.sort_pairs(keys, keys_out, slots, slots_out, n, scratch, bytes)`
///    (stable ascending radix sort), `rt.sort_slots_scratch_bytes(slots, slots_out, n)`,
///    `rt.sort_slots(slots, slots_out, n, scratch, bytes)` (ascending sort of 32-bit slots), `rt.iota(slots, n)`,
///    `rt.plus_survival(plus_args)` ((μ+λ) survival, in place);
///  - `rt.de(launch, de_args)`, `rt.de_update(de_update_args)`, `rt.de_slots(de_slots_args)`,
///    `rt.de_archive(de_archive_args)` (differential evolution);
///  - `rt.run_generation(parity, enqueue)`: runs `enqueue()` (which queues one generation) directly or as a graph.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "fusedga/backends/cuda/geometry.hpp"
#include "fusedga/backends/cuda/kernel_args.hpp"
#include "fusedga/core/bounds.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/core/population.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/engine/checkpoint_stream.hpp"
#include "fusedga/engine/evaluate.hpp"
#include "fusedga/engine/executor.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/shade_state.hpp"
#include "fusedga/engine/tile_summary.hpp"

namespace fusedga::detail {

/**
 * One GA run's device state and host sequence (see the file comment). Not
 * thread-safe; every call but `current()` and `enqueue_evaluate()`
 * synchronizes with the device before returning.
 *
 * @throws backend_unavailable, config_error, cuda_error: as the runtime reports them.
 */
template <class Problem, class Runtime>
class cuda_executor {
 public:
  using gene = gene_t<Problem>;
  using fitness = fitness_t<Problem>;
  using key = rank_key_t<fitness>;
  using view_type = population_view<gene, fitness>;
  using summary_type = generation_summary<key, fitness>;

  static_assert(
      !has_batch_evaluation<Problem>::value,
      "backend::cuda: problems with a host-only evaluate_batch (expression problems) run on the CPU backends");
  /// Population-batch problems (`evaluate_population`): called from the host between the kernels, with device
  /// pointers (problem_traits.hpp), so their generations are launched directly, never as captured graphs.
  static constexpr bool population_batch = has_population_evaluation<Problem>::value;

  template <class Backend>
  cuda_executor(const Problem& problem, const kernel_params<Problem>& kp, const Bounds<gene>& bounds,
                const Backend& backend)
      : rt_(problem, backend), kp_(kp), n_(kp.population), elitism_(kp.elitism), repair_rate_(kp.gradient_repair.rate) {
    const int d = kp.dimension;
    constexpr bool separable = separable_objective_v<Problem>;
    const std::size_t m = static_cast<std::size_t>(inequality_count(kp.problem));
    const std::size_t p = static_cast<std::size_t>(equality_count(kp.problem));
    const std::size_t batch_row = population_batch ? (m + p) * sizeof(fitness) + (is_de() ? 2 * sizeof(double) : 0) : 0;
    const std::size_t repair_row = repairs() ? gradient_repair_scratch(d, static_cast<int>(m + p)) : 0;
    rt_.check_memory(n_, d,
                     {sizeof(gene), sizeof(fitness), sizeof(key), separable, batch_row + repair_row * sizeof(fitness)},
                     elitism_);
    for (int p = 0; p < 2; ++p) {
      pop_[p] = population_type(n_, d);
      views_[p] = pop_[p].view();
    }
    lower_ = buffer<gene>(static_cast<std::size_t>(d));
    upper_ = buffer<gene>(static_cast<std::size_t>(d));
    // Queued on the run's stream (the constructor's final synchronize completes them before `bounds` goes away).
    rt_.to_device(lower_.data(), bounds.lower.data(), d * sizeof(gene));
    rt_.to_device(upper_.data(), bounds.upper.data(), d * sizeof(gene));
    if (!bounds.integer.empty()) {
      integer_ = buffer<std::uint8_t>(static_cast<std::size_t>(d));
      rt_.to_device(integer_.data(), bounds.integer.data(), static_cast<std::size_t>(d));
    }
    kp_.bounds = {lower_.data(), upper_.data(), bounds.integer.empty() ? nullptr : integer_.data()};
    eval_ = cuda_geometry::evaluation_launch(n_, d, sizeof(gene), Runtime::evaluation_min_blocks, separable);
    offspring_ = cuda_geometry::offspring_launch(kp_.pairs(), d, sizeof(gene), separable);
    de_launch_ = cuda_geometry::de_launch(n_);
    cands_ = cuda_geometry::candidates_per_block(elitism_);
    const std::size_t blocks = std::max({eval_.blocks, offspring_.blocks, is_de() ? de_launch_.blocks : 0u});
    totals_ = buffer<tile_totals>(blocks);
    candidates_ = buffer<candidate<key>>(blocks * cands_);
    elites_ = buffer<std::uint32_t>(std::max<std::size_t>(elitism_, 1));
    best_genes_ = buffer<gene>(static_cast<std::size_t>(d));
    state_ = buffer<state_type>(1);
    host_state_ = typename Runtime::template host_buffer<state_type>(1);
    // (key, slot) order of all N: the elites when E > kMaxFastElites, DE's pbest candidates
    if (cuda_geometry::elites_by_sort(elitism_) || (is_de() && kp_.de.uses_pbest())) {
      sort_keys_ = buffer<key>(n_);
      sort_in_ = buffer<std::uint32_t>(n_);
      sort_out_ = buffer<std::uint32_t>(n_);
      sort_scratch_bytes_ =
          rt_.sort_scratch_bytes(views_[0].rank_key, sort_keys_.data(), sort_in_.data(), sort_out_.data(), n_);
      if (is_de() && kp_.de.uses_pbest()) {  // the pbest set, then sorted by slot (de_state::rank_best's order)
        pbest_ = buffer<std::uint32_t>(kp_.de.pbest_count);
        sort_scratch_bytes_ = std::max(
            sort_scratch_bytes_, rt_.sort_slots_scratch_bytes(sort_out_.data(), pbest_.data(), kp_.de.pbest_count));
      }
      sort_scratch_ = buffer<unsigned char>(sort_scratch_bytes_);
      rt_.iota(sort_in_.data(), n_);
    }
    if constexpr (population_batch) {  // the call's constraint values, N × m and N × p; DE's F and CR per target
      batch_g_ = buffer<fitness>(n_ * m);
      batch_h_ = buffer<fitness>(n_ * p);
      if (is_de()) {
        batch_F_ = buffer<double>(n_);
        batch_CR_ = buffer<double>(n_);
      }
    }
    if (is_de()) allocate_de(d);
    if (repairs()) {  // each slot's gradient repair scratch, and the count of the repairs' evaluations (from 0)
      repair_scratch_ = buffer<fitness>(n_ * repair_row);
      repair_count_ = buffer<unsigned long long>(1);
      const unsigned long long zero = 0;
      rt_.to_device(repair_count_.data(), &zero, sizeof zero);
      rt_.synchronize();  // `zero` goes out of scope
    }
    if (plus()) {  // (μ+λ): the parents' and the children's (key, slot) orders
      for (int k = 0; k < 2; ++k) {
        plus_keys_[k] = buffer<key>(n_);
        plus_slots_[k] = buffer<std::uint32_t>(n_);
      }
      plus_iota_ = buffer<std::uint32_t>(n_);
      plus_scratch_bytes_ = rt_.sort_scratch_bytes(views_[0].rank_key, plus_keys_[0].data(), plus_iota_.data(),
                                                   plus_slots_[0].data(), n_);
      plus_scratch_ = buffer<unsigned char>(plus_scratch_bytes_);
      rt_.iota(plus_iota_.data(), n_);
    }
    rt_.synchronize();
  }

  cuda_executor(const cuda_executor&) = delete;
  cuda_executor& operator=(const cuda_executor&) = delete;

  summary_type initialize() {
    rt_.use_device();
    reset_state(1);
    const unsigned blocks = cuda_geometry::grid_for(n_ * ((kp_.dimension + 3) / 4), 256);
    rt_.init(blocks, 256, cuda_kernels::init_args<Problem>{kp_, views_[cur_].genes});
    return summarize_current(true);
  }

  void evaluate() {
    rt_.use_device();
    enqueue_evaluate();
    rt_.synchronize();
  }

  /// Queues the evaluation of the current population without synchronizing (ga-bench's CUDA-event timing).
  /// Population-batch problems: synchronizes, then makes the evaluate_population call before the queued kernel.
  void enqueue_evaluate() {
    rt_.use_device();
    enqueue_evaluation(views_[cur_], true);
  }

  /// `generation` is also counted on the device (run_state), where the captured graph reads it.
  summary_type next_generation(std::uint32_t /*generation*/) {
    rt_.use_device();
    const int parity = cur_;
    // A dynamic constraint handler changes kp_ between generations, and a population-batch problem's host call
    // sits between the kernels: launched directly, not from a captured graph; so is a generation whose gradient
    // repair is held off (allow_repair), as the graphs hold the run's rate.
    if (dynamic_rule(kp_.rule) || population_batch || kp_.gradient_repair.rate != repair_rate_)
      enqueue_step(parity);
    else
      rt_.run_generation(parity, [&] { enqueue_step(parity); });
    rt_.synchronize();
    if (!plus()) cur_ = 1 - parity;  // plus survival keeps the survivors in the parents' buffer
    return read_summary();
  }

  /// Holds the gradient repair off (false) or restores the run's rate (true) for the next generations.
  void allow_repair(bool on) { kp_.gradient_repair.rate = on ? repair_rate_ : 0; }

  /// Dynamic constraint handlers: the handler's new parameters, the current population's keys recomputed with
  /// them on the device (the evaluation kernel's re-key mode) and its summary and elites afresh. Synchronizes.
  summary_type rekey(const handler_state<fitness>& h) {
    rt_.use_device();
    kp_.handler = h;
    const view_type pop = views_[cur_];
    enqueue_evaluation(pop, false, true);
    enqueue_sort(pop);
    enqueue_finish(pop, eval_.blocks, 0, false);
    rt_.synchronize();
    return read_summary();
  }

  /// Copies the current population's N objectives and violations to host memory. Synchronizes.
  void fetch_fitness(fitness* objective, fitness* violation) const {
    rt_.use_device();
    const view_type v = views_[cur_];
    rt_.to_host(objective, v.objective, n_ * sizeof(fitness));
    rt_.to_host(violation, v.violation, n_ * sizeof(fitness));
    rt_.synchronize();
  }

  /// Islands (islands/solve_islands.hpp): the current population's N rank keys, to host memory. Synchronizes.
  void fetch_keys(key* out) const { download(nullptr, nullptr, nullptr, out); }
  /// Islands: rows `slots[0, count)` of the current population to host memory — genes (count × d,
  /// row-major), objective, violation. Synchronizes.
  void read_rows(std::size_t count, const std::uint32_t* slots, gene* genes, fitness* objective,
                 fitness* violation) const {
    rt_.use_device();
    const view_type v = views_[cur_];
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    for (std::size_t k = 0; k < count; ++k) {
      rt_.to_host(genes + k * d, v.genes + static_cast<std::size_t>(slots[k]) * d, d * sizeof(gene));
      rt_.to_host(objective + k, v.objective + slots[k], sizeof(fitness));
      rt_.to_host(violation + k, v.violation + slots[k], sizeof(fitness));
    }
    rt_.synchronize();
  }
  /// Islands: the rank key of (objective, violation) under the run's current order (host arithmetic).
  key key_of(fitness objective, fitness violation) const { return detail::rank_key_of(kp_, objective, violation); }
  /// Islands: rows `slots[0, count)` of the current population overwritten from host memory, then every key
  /// recomputed under the current order, the summary and the elites afresh (rekey). Synchronizes.
  summary_type replace_rows(std::size_t count, const std::uint32_t* slots, const gene* genes,
                            const fitness* objective, const fitness* violation) {
    rt_.use_device();
    const view_type v = views_[cur_];
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    for (std::size_t k = 0; k < count; ++k) {
      rt_.to_device(v.genes + static_cast<std::size_t>(slots[k]) * d, genes + k * d, d * sizeof(gene));
      rt_.to_device(v.objective + slots[k], objective + k, sizeof(fitness));
      rt_.to_device(v.violation + slots[k], violation + k, sizeof(fitness));
    }
    return rekey(kp_.handler);
  }

  /// The finish kernel already copied the improving best's genes on the device — except under a dynamic
  /// constraint handler, where the engine picks the best by feasibility rules and its genes are copied here.
  void keep_best(std::uint32_t slot) {
    if (!dynamic_rule(kp_.rule)) return;
    rt_.use_device();
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    host_best_.resize(d);
    rt_.to_host(host_best_.data(), views_[cur_].genes + static_cast<std::size_t>(slot) * d, d * sizeof(gene));
    rt_.synchronize();
  }
  void fetch_best(gene* out) const {
    if (dynamic_rule(kp_.rule)) {
      std::copy(host_best_.begin(), host_best_.end(), out);
      return;
    }
    rt_.use_device();
    rt_.to_host(out, best_genes_.data(), static_cast<std::size_t>(kp_.dimension) * sizeof(gene));
    rt_.synchronize();
  }
  /// The current population in device memory (valid until the next generation).
  view_type current() const { return views_[cur_]; }
  int concurrency() const { return 0; }

  /// Copies the current population's first N rows and values to host memory (null pointers skip an array).
  void download(gene* genes, fitness* objective, fitness* violation, key* rank_key) const {
    rt_.use_device();
    const view_type v = views_[cur_];
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    if (genes) rt_.to_host(genes, v.genes, n_ * d * sizeof(gene));
    if (objective) rt_.to_host(objective, v.objective, n_ * sizeof(fitness));
    if (violation) rt_.to_host(violation, v.violation, n_ * sizeof(fitness));
    if (rank_key) rt_.to_host(rank_key, v.rank_key, n_ * sizeof(key));
    rt_.synchronize();
  }

  /// Replaces the current population by a host one (or only its genes, evaluated here) and summarizes it afresh.
  summary_type upload(const gene* genes, const fitness* objective, const fitness* violation, const key* rank_key,
                      bool evaluate, std::uint32_t next_generation) {
    rt_.use_device();
    const view_type v = views_[cur_];
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    rt_.to_device(v.genes, genes, n_ * d * sizeof(gene));
    if (!evaluate) {
      rt_.to_device(v.objective, objective, n_ * sizeof(fitness));
      rt_.to_device(v.violation, violation, n_ * sizeof(fitness));
      rt_.to_device(v.rank_key, rank_key, n_ * sizeof(key));
    }
    reset_state(next_generation);
    return summarize_current(evaluate);
  }

  /**
   * Differential evolution's adaptive state (SHADE memories and index, archive and its size) copied to the
   * host, as the CPU executor's `de()` holds it (the pbest order and success flags are per-generation
   * scratch, left empty). An empty state unless the run is DE. Synchronizes.
   */
  de_state<gene, key> download_de() const {
    if (!is_de()) return {};
    rt_.use_device();
    de_state<gene, key> s(kp_.de, 0, kp_.dimension, 0);
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    rt_.to_host(s.memory_F.data(), de_memory_F_.data(), s.memory_F.size() * sizeof(double));
    rt_.to_host(s.memory_CR.data(), de_memory_CR_.data(), s.memory_CR.size() * sizeof(double));
    rt_.to_host(s.archive.data(), de_archive_.data(), kp_.de.archive_capacity * d * sizeof(gene));
    cuda_kernels::de_counters c{};
    rt_.to_host(&c, de_counters_.data(), sizeof c);
    rt_.synchronize();
    s.next_memory = c.next_memory;
    s.archive_size = c.archive_size;
    return s;
  }

  /// Replaces the device's DE state by `s` (memories, index, archive; e.g. from a checkpoint). Synchronizes.
  /// @pre the run is DE and `s` has this run's memory size and archive capacity (de_state(spec, N, d, tiles)).
  void upload_de(const de_state<gene, key>& s) {
    if (!is_de()) return;
    rt_.use_device();
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    rt_.to_device(de_memory_F_.data(), s.memory_F.data(), s.memory_F.size() * sizeof(double));
    rt_.to_device(de_memory_CR_.data(), s.memory_CR.data(), s.memory_CR.size() * sizeof(double));
    rt_.to_device(de_archive_.data(), s.archive.data(), kp_.de.archive_capacity * d * sizeof(gene));
    *host_de_counters_.data() = {s.archive_size, s.next_memory};
    rt_.to_device(de_counters_.data(), host_de_counters_.data(), sizeof(cuda_kernels::de_counters));
    rt_.synchronize();
  }

  /**
   * Checkpoints (engine/checkpoint.hpp), in the CPU executor's records and layouts, so a checkpoint written
   * here resumes on serial or TBB and the other way round: the current population (downloaded), the elites the
   * last summary chose (the E smallest (key, slot) of the current population, as both executors choose them),
   * the kept best genes, the dynamic handler's parameters and DE's adaptive state (memories, archive).
   * Synchronizes.
   */
  void save_state(checkpoint_writer& w) const {
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    std::vector<gene> genes(n_ * d);
    std::vector<fitness> objective(n_), violation(n_);
    std::vector<key> keys(n_);
    download(genes.data(), objective.data(), violation.data(), keys.data());
    w.vector("population.genes", genes);
    w.vector("population.objective", objective);
    w.vector("population.violation", violation);
    w.vector("population.rank_key", keys);
    std::vector<candidate<key>> order(n_);
    for (std::size_t i = 0; i < n_; ++i) order[i] = {keys[i], static_cast<std::uint32_t>(i)};
    const std::size_t e = std::min(elitism_, n_);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(e), order.end());
    std::vector<key> elite_keys(elitism_);
    std::vector<std::uint32_t> elite_slots(elitism_);
    for (std::size_t k = 0; k < e; ++k) elite_keys[k] = order[k].key, elite_slots[k] = order[k].slot;
    w.vector("elites.rank_key", elite_keys);
    w.vector("elites.slot", elite_slots);
    std::vector<gene> best(d);
    fetch_best(best.data());
    w.vector("best.genes", best);
    w.value("handler", kp_.handler);
    const de_state<gene, key> de = download_de();
    w.vector("de.memory_F", de.memory_F);
    w.vector("de.memory_CR", de.memory_CR);
    w.value("de.next_memory", de.next_memory);
    w.value("de.archive_size", de.archive_size);
    w.array("de.archive", de.archive.data(), static_cast<std::size_t>(de.archive_size) * d);
  }

  /**
   * Restores what save_state (or the CPU executor's) wrote, for a run of the same N, d and options: the
   * population uploaded and summarized without evaluation, the checkpoint's elites and best genes, the
   * handler's parameters, DE's state. The engine then calls `resume` with its run state, which the device's
   * run state (generation counter, best-so-far) needs. @throws checkpoint_error. Synchronizes.
   */
  void load_state(checkpoint_reader& r) {
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    std::vector<gene> genes(n_ * d);
    std::vector<fitness> objective(n_), violation(n_);
    std::vector<key> keys(n_);
    r.array("population.genes", genes.data(), genes.size());
    r.array("population.objective", objective.data(), n_);
    r.array("population.violation", violation.data(), n_);
    r.array("population.rank_key", keys.data(), n_);
    std::vector<key> elite_keys(elitism_);
    std::vector<std::uint32_t> elite_slots(elitism_);
    r.array("elites.rank_key", elite_keys.data(), elite_keys.size());
    r.array("elites.slot", elite_slots.data(), elite_slots.size());
    for (const std::uint32_t slot : elite_slots)
      if (slot >= n_) r.fail("has an elite slot outside the population");
    std::vector<gene> best(d);
    r.array("best.genes", best.data(), d);
    const auto handler = r.value<handler_state<fitness>>("handler");
    de_state<gene, key> de = is_de() ? de_state<gene, key>(kp_.de, 0, kp_.dimension, 0) : de_state<gene, key>{};
    r.array("de.memory_F", de.memory_F.data(), de.memory_F.size());
    r.array("de.memory_CR", de.memory_CR.data(), de.memory_CR.size());
    de.next_memory = r.value<int>("de.next_memory");
    de.archive_size = r.value<std::uint32_t>("de.archive_size");
    if (de.archive_size * d > de.archive.size() ||
        (!de.memory_F.empty() && (de.next_memory < 0 || de.next_memory >= static_cast<int>(de.memory_F.size()))))
      r.fail("has DE state that does not fit these options");
    r.array("de.archive", de.archive.data(), static_cast<std::size_t>(de.archive_size) * d);
    // Everything read and checked: only now does the device state change.
    kp_.handler = handler;
    upload(genes.data(), objective.data(), violation.data(), keys.data(), false, 0);
    rt_.use_device();
    if (elitism_ > 0) rt_.to_device(elite_slots_ptr(), elite_slots.data(), elitism_ * sizeof(std::uint32_t));
    rt_.to_device(best_genes_.data(), best.data(), d * sizeof(gene));
    host_best_ = best;
    rt_.synchronize();
    upload_de(de);
  }

  /**
   * After load_state: the device's run state as the engine's — `next_generation` (the generation the next
   * offspring pass produces) and the best-so-far's rank key, objective and violation (whose genes load_state
   * restored). Synchronizes.
   */
  void resume(std::uint32_t next_generation, bool have_best, key best_key, fitness best_objective,
              fitness best_violation) {
    rt_.use_device();
    state_type s = *host_state_.data();  // the uploaded population's summary (upload synchronized)
    s.generation = next_generation;
    s.have_best = have_best ? 1 : 0;
    s.improved = 0;
    s.so_far_key = best_key;
    s.so_far_objective = best_objective;
    s.so_far_violation = best_violation;
    *host_state_.data() = s;
    rt_.to_device(state_.data(), host_state_.data(), sizeof s);
    rt_.synchronize();
  }

  Runtime& runtime() { return rt_; }
  const Runtime& runtime() const { return rt_; }

 private:
  using memory = typename Runtime::memory;
  template <class T>
  using buffer = typename memory::template buffer<T>;
  using population_type = population<gene, fitness, memory>;
  using state_type = cuda_kernels::run_state<key, fitness>;

  void reset_state(std::uint32_t next_generation) {
    state_type s{};
    s.generation = next_generation;
    *host_state_.data() = s;
    rt_.to_device(state_.data(), host_state_.data(), sizeof s);
  }

  /// The evaluation kernel over all of `pop` (or only its summary). Population-batch problems: `evaluate` first
  /// makes the evaluate_population call over slots [first, N) (the GA's children: from E), which the kernel ranks.
  void enqueue_evaluation(const view_type& pop, bool evaluate, bool rekey = false, std::size_t first = 0) {
    population_values<fitness> values{};
    if (population_batch && evaluate) values = call_population(pop, first);
    rt_.evaluate(eval_, evaluate && !population_batch ? eval_.shared_bytes : 0,
                 cuda_kernels::evaluate_args<Problem>{kp_, pop, eval_.staged, evaluate, cands_, totals_.data(),
                                                      candidates_.data(), rekey, eval_.rows, eval_.warp_rows,
                                                      eval_.row_lanes, values});
  }

  /// Population-batch problems: the evaluate_population call over rows [first, N) of `pop`, once the kernels
  /// that wrote them are done; the call's writes are complete when it returns (problem_traits.hpp). It may
  /// throw: nothing after it runs. Returns where it wrote the constraint values.
  population_values<fitness> call_population(const view_type& pop, std::size_t first) {
    const int m = inequality_count(kp_.problem), p = equality_count(kp_.problem);
    if constexpr (population_batch) {
      rt_.synchronize();
      const std::size_t d = static_cast<std::size_t>(kp_.dimension);
      kp_.problem.evaluate_population(pop.genes + first * d, n_ - first, pop.objective + first, batch_g_.data(),
                                      batch_h_.data());
      rt_.use_device();  // the call may have made another device current (torch.cuda.set_device, cudaSetDevice)
    }
    return {batch_g_.data(), batch_h_.data(), m, p, first};
  }

  void enqueue_sort(const view_type& pop) {
    if (!cuda_geometry::elites_by_sort(elitism_)) return;
    rt_.sort_pairs(pop.rank_key, sort_keys_.data(), sort_in_.data(), sort_out_.data(), n_, sort_scratch_.data(),
                   sort_scratch_bytes_);
  }

  /// The elite slots the next offspring pass copies: the finish kernel's list, or the sorted slots.
  const std::uint32_t* elite_slots() const {
    return cuda_geometry::elites_by_sort(elitism_) ? sort_out_.data() : elites_.data();
  }
  std::uint32_t* elite_slots_ptr() { return cuda_geometry::elites_by_sort(elitism_) ? sort_out_.data() : elites_.data(); }

  /// The finish kernel, then the run state's copy to pinned host memory (read after the next synchronization).
  void enqueue_finish(const view_type& pop, std::uint32_t blocks, std::uint32_t elite_slot_count, bool advance) {
    std::uint32_t* elites = cuda_geometry::elites_by_sort(elitism_) ? nullptr : elites_.data();
    rt_.finish(cuda_kernels::finish_args<gene, fitness>{
        pop, totals_.data(), candidates_.data(), blocks, cands_, elite_slot_count, static_cast<std::uint32_t>(elitism_),
        elites, state_.data(), best_genes_.data(), advance, repair_count_.data()});
    rt_.to_host(host_state_.data(), state_.data(), sizeof(state_type));
  }

  /// Summary of the current population (after init or upload).
  summary_type summarize_current(bool evaluate) {
    const view_type pop = views_[cur_];
    enqueue_evaluation(pop, evaluate);
    enqueue_sort(pop);
    enqueue_finish(pop, eval_.blocks, 0, false);
    rt_.synchronize();
    return read_summary();
  }

  bool plus() const { return kp_.survival == survival_kind::plus; }
  bool is_de() const { return kp_.algorithm == algorithm_kind::de; }
  /// Whether the variation kernels repair (the GA's children, DE's infeasible trials): a repairable problem and a
  /// rate above 0.
  bool repairs() const { return repairable_v<Problem> && kp_.gradient_repair.enabled(); }
  std::uint32_t de_tiles() const { return static_cast<std::uint32_t>((n_ + kShadeSumTargets - 1) / kShadeSumTargets); }

  /// DE's device state: SHADE memories (0.5 each) and counters, archive, success flags and sums, archive slots.
  void allocate_de(int d) {
    const de_spec& s = kp_.de;
    const std::size_t h = static_cast<std::size_t>(s.memory), capacity = std::max<std::uint32_t>(s.archive_capacity, 1);
    de_memory_F_ = buffer<double>(h);
    de_memory_CR_ = buffer<double>(h);
    de_archive_ = buffer<gene>(capacity * static_cast<std::size_t>(d));
    de_owner_ = buffer<std::uint32_t>(capacity);
    de_success_ = buffer<std::uint8_t>(n_);
    de_slot_ = buffer<std::uint32_t>(n_);
    de_tile_success_ = buffer<de_success_sums>(de_tiles());
    de_tile_first_ = buffer<std::uint32_t>(de_tiles());
    de_counters_ = buffer<cuda_kernels::de_counters>(1);
    host_de_counters_ = typename Runtime::template host_buffer<cuda_kernels::de_counters>(1);
    const de_state<gene, key> start(s, 0, d, 0);
    upload_de(start);  // synchronizes: `start` may go
  }

  /// One DE generation from population `parity` into the other (de_kernel, then SHADE's memory update and the
  /// archive, then the summary): the same sequence as the CPU executor's de_generation.
  void enqueue_de_step(int parity) {
    const view_type src = views_[parity];
    const view_type dst = views_[1 - parity];
    const de_spec& s = kp_.de;
    if (s.uses_pbest()) {  // the pbest_count best slots by (key, slot), then in slot order, as the CPU lists them
      rt_.sort_pairs(src.rank_key, sort_keys_.data(), sort_in_.data(), sort_out_.data(), n_, sort_scratch_.data(),
                     sort_scratch_bytes_);
      rt_.sort_slots(sort_out_.data(), pbest_.data(), s.pbest_count, sort_scratch_.data(), sort_scratch_bytes_);
    }
    cuda_kernels::de_args<Problem> args{kp_,          src,          dst, state_.data(), de_memory_F_.data(),
                                        de_memory_CR_.data(), de_archive_.data(), de_counters_.data(),
                                        pbest_.data(), de_success_.data(), de_tile_success_.data(),
                                        cands_,        totals_.data(), candidates_.data()};
    args.repair_scratch = repair_scratch_.data();
    args.repair_count = repair_count_.data();
    if constexpr (population_batch) {  // the trials, one call over the N trial rows, then the selection
      args.F_all = batch_F_.data();
      args.CR_all = batch_CR_.data();
      args.trials_only = true;
      rt_.de(de_launch_, args);
      args.values = call_population(dst, 0);
      args.trials_only = false;
    }
    rt_.de(de_launch_, args);
    if (s.adaptive() || s.archive_capacity > 0)
      rt_.de_update(cuda_kernels::de_update_args<gene, fitness>{s, de_tile_success_.data(), de_tiles(),
                                                                de_memory_F_.data(), de_memory_CR_.data(),
                                                                de_counters_.data(), de_tile_first_.data(),
                                                                de_owner_.data()});
    if (s.archive_capacity > 0) {
      rt_.de_slots(cuda_kernels::de_slots_args<gene, fitness>{
          kp_.rng, static_cast<std::uint32_t>(n_), s.archive_capacity, state_.data(), de_tiles(),
          de_tile_first_.data(), de_success_.data(), de_slot_.data(), de_owner_.data()});
      rt_.de_archive(cuda_kernels::de_archive_args<gene, fitness>{src, de_archive_.data(), de_success_.data(),
                                                                  de_slot_.data(), de_owner_.data()});
    }
    enqueue_finish(dst, de_launch_.blocks, 0, true);
  }

  /// One generation from population `parity` into the other one (captured into a graph once per parity).
  /// With plus survival: N children into the other buffer, both sorted by key, the surviving children
  /// moved over the worst parents (engine/survival.hpp), and the parents' buffer summarized.
  void enqueue_step(int parity) {
    if (is_de()) {
      enqueue_de_step(parity);
      return;
    }
    const view_type src = views_[parity];
    const view_type dst = views_[1 - parity];
    rt_.offspring(cuda_geometry::short_genome(kp_.dimension), offspring_,
                  cuda_kernels::offspring_args<Problem>{kp_, src, dst, state_.data(), elite_slots(), kp_.pairs(),
                                                        offspring_.staged, cands_, totals_.data(), candidates_.data(),
                                                        repair_scratch_.data(), repair_count_.data()});
    // Population-batch problems: the children [E, N) evaluated by one call and all N ranked and summarized by the
    // evaluation kernel (the elites with their stored values), which replaces the offspring kernel's summary.
    if constexpr (population_batch) enqueue_evaluation(dst, true, false, elitism_);
    if (plus()) {
      rt_.sort_pairs(src.rank_key, plus_keys_[0].data(), plus_iota_.data(), plus_slots_[0].data(), n_,
                     plus_scratch_.data(), plus_scratch_bytes_);
      rt_.sort_pairs(dst.rank_key, plus_keys_[1].data(), plus_iota_.data(), plus_slots_[1].data(), n_,
                     plus_scratch_.data(), plus_scratch_bytes_);
      rt_.plus_survival(cuda_kernels::plus_args<gene, fitness>{src, dst, plus_keys_[0].data(), plus_slots_[0].data(),
                                                               plus_keys_[1].data(), plus_slots_[1].data()});
      enqueue_evaluation(src, false);
      enqueue_finish(src, eval_.blocks, 0, true);
      return;
    }
    enqueue_sort(dst);
    if (population_batch)
      enqueue_finish(dst, eval_.blocks, 0, true);
    else
      enqueue_finish(dst, offspring_.blocks, static_cast<std::uint32_t>(elitism_), true);
  }

  /// The run state copied to host memory (after a synchronization) as the engine's summary.
  summary_type read_summary() const {
    const state_type& s = *host_state_.data();
    summary_type r;
    r.objective_sum = s.objective_sum;
    r.feasible = s.feasible;
    r.not_a_number = s.not_a_number;
    r.best = {s.best_key, s.best_slot};
    r.best_objective = s.best_objective;
    r.best_violation = s.best_violation;
    r.repair_evaluations = s.repair_evaluations;
    return r;
  }

  Runtime rt_;  // first: selects the device and owns the stream the buffers below are used on
  kernel_params<Problem> kp_{};
  std::size_t n_ = 0, elitism_ = 0;
  double repair_rate_ = 0;  // the run's gradient repair rate (allow_repair)
  population_type pop_[2];
  view_type views_[2]{};
  buffer<gene> lower_, upper_, best_genes_;
  buffer<std::uint8_t> integer_;  ///< Bounds::integer on the device (unallocated when empty)
  buffer<tile_totals> totals_;
  buffer<candidate<key>> candidates_;
  buffer<std::uint32_t> elites_;
  buffer<state_type> state_;
  typename Runtime::template host_buffer<state_type> host_state_;
  buffer<key> sort_keys_;
  buffer<std::uint32_t> sort_in_, sort_out_, pbest_;
  buffer<unsigned char> sort_scratch_;
  std::size_t sort_scratch_bytes_ = 0;
  buffer<key> plus_keys_[2];  // plus survival: parents' and children's sorted keys and slots
  buffer<std::uint32_t> plus_slots_[2], plus_iota_;
  buffer<unsigned char> plus_scratch_;
  std::size_t plus_scratch_bytes_ = 0;
  buffer<double> de_memory_F_, de_memory_CR_;  // algorithm de: SHADE memories
  buffer<gene> de_archive_;
  buffer<std::uint32_t> de_owner_, de_slot_;
  buffer<std::uint8_t> de_success_;
  buffer<de_success_sums> de_tile_success_;
  buffer<std::uint32_t> de_tile_first_;  ///< de_update -> de_slots: each tile's first archive position
  buffer<cuda_kernels::de_counters> de_counters_;
  buffer<fitness> batch_g_, batch_h_;   // population-batch problems: the call's N × m and N × p constraint values
  buffer<double> batch_F_, batch_CR_;   // population-batch DE: each target's F and CR, trials → selection
  buffer<fitness> repair_scratch_;      // N × gradient_repair_scratch(d, m); empty (data() null) unless repairs()
  buffer<unsigned long long> repair_count_;  // the repairs' evaluations since the last summary; empty unless repairs()
  typename Runtime::template host_buffer<cuda_kernels::de_counters> host_de_counters_;
  cuda_geometry::launch eval_{}, offspring_{}, de_launch_{};
  int cands_ = 1;
  int cur_ = 0;
  std::vector<gene> host_best_;  // the best-so-far's genes under a dynamic constraint handler (keep_best)
};

}  // namespace fusedga::detail
