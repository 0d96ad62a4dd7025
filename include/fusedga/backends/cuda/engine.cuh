#pragma once
/// @file engine.cuh
/// `engine<Problem, backend::cuda>`: the whole GA on one GPU, with the same
/// interface as the CPU engine (engine.hpp), so `fusedga::solve` drives it
/// unchanged. nvcc only (included by backends/cuda.hpp under nvcc).
///
/// Device memory, allocated once in the constructor after checking it fits
/// in the free device memory (geometry.hpp: plan_memory): two populations
/// (genes (N+1)·d, objective, violation, rank key; double buffered), the
/// bounds, per-block summaries, the elites, the best-so-far genes and a small
/// run state. No managed memory. A generation is the fused offspring kernel,
/// the single-block summary kernel (plus a CUB radix sort of the keys when
/// elitism > 8) and an 80-byte copy of the run state to pinned host memory,
/// captured once per buffer parity in a CUDA graph: one graph launch and one
/// stream synchronization per generation, no other host↔device traffic.
///
/// Results: the same counter-based draws and operator functors as the CPU
/// (pair_ops.hpp), so for integer genes a generation equals the CPU's bitwise,
/// and for real genes too where only SBX, polynomial mutation (float_math.hpp)
/// and arithmetic are involved; libm calls (CUDA's libdevice vs glibc's
/// libmvec) differ by a few ulps, see the README's "CUDA backend".
/// Statistics' objective sums are added in a different order than on the CPU
/// (deterministic run to run).

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include "fusedga/backends/cuda.hpp"
#include "fusedga/backends/cuda/buffer.hpp"
#include "fusedga/backends/cuda/device.hpp"
#include "fusedga/backends/cuda/error.hpp"
#include "fusedga/backends/cuda/geometry.hpp"
#include "fusedga/backends/cuda/kernels.cuh"
#include "fusedga/engine/engine.hpp"

namespace fusedga {

/**
 * The state and passes of one GA run of `Problem` on a GPU (see the file
 * comment). Not thread-safe: one host thread drives an engine; every public
 * call synchronizes with the device before returning, except `current()`.
 *
 * @throws backend_unavailable from the constructor when the GPU cannot be used (the reason is named).
 * @throws config_error when options do not fit the problem, or the population does not fit in device memory
 *         (the message says how many individuals fit).
 * @throws cuda_error for any failing CUDA call (the call and the CUDA error string).
 */
template <class Problem>
class engine<Problem, backend::cuda> {
 public:
  using gene = gene_t<Problem>;
  using fitness = fitness_t<Problem>;
  using key = rank_key_t<fitness>;
  using view_type = population_view<gene, fitness>;

  static_assert(!detail::has_batch_evaluation<Problem>::value,
                "backend::cuda: problems with a host-only evaluate_batch (expression problems) run on the CPU backends");

  engine(const Problem& problem, const ga_options& options, const backend::cuda& backend)
      : backend_(backend), bounds_(problem.bounds()) {
    check_problem<Problem>();
    const int d = problem.dimension();
    validate(options, d, std::is_floating_point_v<gene>);
    bounds_.validate(d);
    const cuda_device_status status = probe_cuda_device(backend.device);
    if (!status.usable) throw backend_unavailable("backend cuda: no usable GPU: " + status.reason);
    device_name_ = status.name;
    FUSEDGA_CUDA_TRY(cudaSetDevice(backend.device));
    n_ = options.population;
    elitism_ = options.elitism;
    check_memory(d);
    stream_ = std::make_unique<detail::cuda_stream>();
    kp_ = detail::make_kernel_params(problem, options, d);
    kernels_ = detail::cuda_kernels::kernel_source<Problem>::get(problem);
    for (auto& p : pop_) {
      p.genes = detail::device_buffer<gene>((n_ + 1) * static_cast<std::size_t>(d));
      p.objective = detail::device_buffer<fitness>(n_ + 1);
      p.violation = detail::device_buffer<fitness>(n_ + 1);
      p.rank_key = detail::device_buffer<key>(n_ + 1);
    }
    lower_ = detail::device_buffer<gene>(static_cast<std::size_t>(d));
    upper_ = detail::device_buffer<gene>(static_cast<std::size_t>(d));
    // On stream(), not the legacy default stream: a pageable cudaMemcpy may return before its DMA
    // completes, and the non-blocking stream_ does not order after the legacy stream, so the init
    // kernel could read the bounds early. The constructor's final synchronize() completes these copies.
    FUSEDGA_CUDA_TRY(cudaMemcpyAsync(lower_.data(), bounds_.lower.data(), d * sizeof(gene), cudaMemcpyHostToDevice,
                                     stream()));
    FUSEDGA_CUDA_TRY(cudaMemcpyAsync(upper_.data(), bounds_.upper.data(), d * sizeof(gene), cudaMemcpyHostToDevice,
                                     stream()));
    kp_.bounds = {lower_.data(), upper_.data()};
    eval_ = detail::cuda_geometry::evaluation_launch(n_, d, sizeof(gene));
    offspring_ = detail::cuda_geometry::offspring_launch(kp_.pairs(), d, sizeof(gene));
    cands_ = detail::cuda_geometry::candidates_per_block(elitism_);
    const std::size_t blocks = std::max(eval_.blocks, offspring_.blocks);
    totals_ = detail::device_buffer<detail::cuda_kernels::block_totals>(blocks);
    candidates_ = detail::device_buffer<detail::cuda_kernels::candidate<key>>(blocks * cands_);
    elites_ = detail::device_buffer<std::uint32_t>(std::max<std::size_t>(elitism_, 1));
    best_genes_dev_ = detail::device_buffer<gene>(static_cast<std::size_t>(d));
    state_ = detail::device_buffer<state_type>(1);
    host_state_ = detail::pinned_buffer<state_type>(1);
    if (detail::cuda_geometry::elites_by_sort(elitism_)) {
      sort_keys_ = detail::device_buffer<key>(n_);
      sort_in_ = detail::device_buffer<std::uint32_t>(n_);
      sort_out_ = detail::device_buffer<std::uint32_t>(n_);
      FUSEDGA_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, sort_temp_bytes_, pop_[0].rank_key.data(),
                                                       sort_keys_.data(), sort_in_.data(), sort_out_.data(),
                                                       static_cast<int>(n_), 0, int(sizeof(key) * 8), stream()));
      sort_temp_ = detail::device_buffer<unsigned char>(sort_temp_bytes_);
      detail::cuda_kernels::iota_kernel<std::uint32_t>
          <<<detail::cuda_geometry::grid_for(n_, 256), 256, 0, stream()>>>(sort_in_.data(), n_);
      FUSEDGA_CUDA_TRY(cudaGetLastError());
    }
    best_genes_.resize(static_cast<std::size_t>(d));
    history_limit_ = static_cast<std::size_t>(options.generations) + 1;
    history_.reserve(std::min<std::size_t>(history_limit_, std::size_t(1) << 16));
    stream_->synchronize();
  }

  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  /// Creates and evaluates the initial population (generation 0) on the device. O(N·d). Synchronizes.
  void initialize() {
    use_device();
    start_ = std::chrono::steady_clock::now();
    generation_ = 0;
    evaluations_ = n_;
    improved_at_ = 0;
    history_.clear();
    reset_state(1);
    const view_type src = view(cur_);
    launch(kernels_.init, detail::cuda_geometry::grid_for(n_ * ((kp_.dimension + 3) / 4), 256), 256, 0,
           detail::cuda_kernels::init_args<Problem>{kp_, src.genes});
    summarize_current(true);
  }

  /// Re-evaluates the current population in place (ga-bench's evaluation workload). O(N·d). Synchronizes.
  void evaluate_population() {
    use_device();
    enqueue_evaluation(view(cur_), true);
    stream_->synchronize();
  }

  /// Enqueues the evaluation of the current population on `stream()` without synchronizing (for CUDA-event timing).
  void enqueue_evaluate_population() {
    use_device();
    enqueue_evaluation(view(cur_), true);
  }

  /// Runs one generation on the device (one graph launch); only the statistics come back. Synchronizes.
  void step() {
    use_device();
    ++generation_;
    const int parity = cur_;
    // Each parity's first generation runs uncaptured: it loads every kernel the step launches (CUDA loads
    // modules lazily), so no module load happens inside a stream capture. Direct and graph runs are identical.
    if (backend_.graphs && ran_uncaptured_[parity]) {
      detail::cuda_graph_exec& g = graphs_[parity];
      if (!g) {
        FUSEDGA_CUDA_TRY(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal));
        try {
          enqueue_step(parity);
        } catch (...) {
          cudaGraph_t broken = nullptr;
          cudaStreamEndCapture(stream(), &broken);
          if (broken) cudaGraphDestroy(broken);
          (void)cudaGetLastError();
          throw;
        }
        g.end_capture(stream());
      }
      g.launch(stream());
    } else {
      enqueue_step(parity);
      ran_uncaptured_[parity] = true;
    }
    stream_->synchronize();
    cur_ = 1 - parity;
    evaluations_ += kp_.children();
    absorb_state();
  }

  const generation_stats& stats() const { return last_; }
  const std::vector<generation_stats>& history() const { return history_; }
  int generation() const { return generation_; }
  std::uint64_t evaluations() const { return evaluations_; }
  /// Host threads used: 0 (the work runs on the GPU).
  int threads() const { return 0; }
  /// Best individual seen so far (copied from the device when it changed; synchronizes then).
  const std::vector<gene>& best_genes() const {
    if (best_dirty_) {
      use_device();
      FUSEDGA_CUDA_TRY(cudaMemcpy(best_genes_.data(), best_genes_dev_.data(), best_genes_.size() * sizeof(gene),
                                  cudaMemcpyDeviceToHost));
      best_dirty_ = false;
    }
    return best_genes_;
  }
  fitness best_objective() const { return best_objective_; }
  fitness best_violation() const { return best_violation_; }
  int stalled_generations() const { return generation_ - improved_at_; }
  double elapsed_s() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

  // --- CUDA-specific ---

  /// The current population in device memory (valid until the next `step`).
  view_type current() const { return view(cur_); }
  /// The engine's stream; every pass is enqueued on it.
  cudaStream_t stream() const { return stream_->get(); }
  /// Name of the device the engine runs on.
  const std::string& device_name() const { return device_name_; }

  /**
   * Copies the current population to host memory: `genes` N·d values
   * (row-major), `objective`, `violation` and `rank_key` N values each (any
   * pointer may be null to skip that array). Synchronizes.
   */
  void download(gene* genes, fitness* objective, fitness* violation, key* rank_key) const {
    use_device();
    const view_type v = view(cur_);
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    if (genes) FUSEDGA_CUDA_TRY(cudaMemcpyAsync(genes, v.genes, n_ * d * sizeof(gene), cudaMemcpyDeviceToHost, stream()));
    if (objective)
      FUSEDGA_CUDA_TRY(cudaMemcpyAsync(objective, v.objective, n_ * sizeof(fitness), cudaMemcpyDeviceToHost, stream()));
    if (violation)
      FUSEDGA_CUDA_TRY(cudaMemcpyAsync(violation, v.violation, n_ * sizeof(fitness), cudaMemcpyDeviceToHost, stream()));
    if (rank_key) FUSEDGA_CUDA_TRY(cudaMemcpyAsync(rank_key, v.rank_key, n_ * sizeof(key), cudaMemcpyDeviceToHost, stream()));
    stream_->synchronize();
  }

  /**
   * Replaces the current population with a host one of the same N and d
   * (genes, objective, violation, rank key as stored by a CPU engine), then
   * recomputes statistics, elites and best-so-far from it; the generation
   * counter is kept. With `evaluate`, objective/violation/key are computed on
   * the device instead (the three pointers may then be null). Synchronizes.
   */
  void upload(const gene* genes, const fitness* objective, const fitness* violation, const key* rank_key,
              bool evaluate = false) {
    use_device();
    const view_type v = view(cur_);
    const std::size_t d = static_cast<std::size_t>(kp_.dimension);
    FUSEDGA_CUDA_TRY(cudaMemcpyAsync(v.genes, genes, n_ * d * sizeof(gene), cudaMemcpyHostToDevice, stream()));
    if (!evaluate) {
      FUSEDGA_CUDA_TRY(cudaMemcpyAsync(v.objective, objective, n_ * sizeof(fitness), cudaMemcpyHostToDevice, stream()));
      FUSEDGA_CUDA_TRY(cudaMemcpyAsync(v.violation, violation, n_ * sizeof(fitness), cudaMemcpyHostToDevice, stream()));
      FUSEDGA_CUDA_TRY(cudaMemcpyAsync(v.rank_key, rank_key, n_ * sizeof(key), cudaMemcpyHostToDevice, stream()));
    }
    reset_state(static_cast<std::uint32_t>(generation_) + 1);
    summarize_current(evaluate);
  }

 private:
  using state_type = detail::cuda_kernels::run_state<key, fitness>;

  /// Makes the engine's device current: another engine on this thread may have selected another.
  void use_device() const { FUSEDGA_CUDA_TRY(cudaSetDevice(backend_.device)); }

  struct device_population {
    detail::device_buffer<gene> genes;
    detail::device_buffer<fitness> objective, violation;
    detail::device_buffer<key> rank_key;
  };

  /// Enqueues `kernel` (a kernel_set handle taking `Args` by value) on stream(); works under graph capture.
  template <class Args>
  void launch(const void* kernel, unsigned blocks, unsigned threads, std::size_t shared_bytes, const Args& args) {
    void* params[] = {const_cast<Args*>(&args)};
    FUSEDGA_CUDA_TRY(cudaLaunchKernel(kernel, dim3(blocks), dim3(threads), params, shared_bytes, stream()));
  }

  view_type view(int which) const {
    const device_population& p = pop_[which];
    return {p.genes.data(), p.objective.data(), p.violation.data(), p.rank_key.data(), n_, kp_.dimension};
  }


  void check_memory(int d) const {
    std::size_t free_bytes = 0, total_bytes = 0;
    FUSEDGA_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::string problem = detail::cuda_geometry::check_fits(
        n_, d, {sizeof(gene), sizeof(fitness), sizeof(key)}, elitism_, free_bytes, total_bytes, device_name_);
    if (!problem.empty()) throw config_error(problem);
  }

  void reset_state(std::uint32_t next_generation) {
    state_type s{};
    s.generation = next_generation;
    *host_state_.data() = s;
    FUSEDGA_CUDA_TRY(cudaMemcpyAsync(state_.data(), host_state_.data(), sizeof s, cudaMemcpyHostToDevice, stream()));
  }

  void enqueue_evaluation(const view_type& pop, bool evaluate) {
    launch(kernels_.evaluate, static_cast<unsigned>(eval_.blocks), eval_.threads, evaluate ? eval_.shared_bytes : 0,
           detail::cuda_kernels::evaluate_args<Problem>{kp_, pop, eval_.staged, evaluate, cands_, totals_.data(),
                                                        candidates_.data()});
  }

  void enqueue_sort(const view_type& pop) {
    if (!detail::cuda_geometry::elites_by_sort(elitism_)) return;
    FUSEDGA_CUDA_TRY(cub::DeviceRadixSort::SortPairs(sort_temp_.data(), sort_temp_bytes_, pop.rank_key,
                                                     sort_keys_.data(), sort_in_.data(), sort_out_.data(),
                                                     static_cast<int>(n_), 0, int(sizeof(key) * 8), stream()));
  }

  /// The elite slots the next offspring pass copies: the finish kernel's list, or the sorted slots.
  const std::uint32_t* elite_slots() const {
    return detail::cuda_geometry::elites_by_sort(elitism_) ? sort_out_.data() : elites_.data();
  }

  void enqueue_finish(const view_type& pop, std::uint32_t blocks, std::uint32_t elite_slot_count, bool advance) {
    std::uint32_t* elites = detail::cuda_geometry::elites_by_sort(elitism_) ? nullptr : elites_.data();
    detail::cuda_kernels::finish_kernel<gene, fitness><<<1, detail::cuda_geometry::kFinishThreads, 0, stream()>>>(
        pop, totals_.data(), candidates_.data(), blocks, cands_, elite_slot_count,
        static_cast<std::uint32_t>(elitism_), elites, state_.data(), best_genes_dev_.data(), advance);
    FUSEDGA_CUDA_TRY(cudaGetLastError());
    FUSEDGA_CUDA_TRY(cudaMemcpyAsync(host_state_.data(), state_.data(), sizeof(state_type), cudaMemcpyDeviceToHost, stream()));
  }

  /// Summary of the current population (after init or upload): statistics, elites, best; then the host's view of them.
  void summarize_current(bool evaluate) {
    const view_type pop = view(cur_);
    enqueue_evaluation(pop, evaluate);
    enqueue_sort(pop);
    enqueue_finish(pop, eval_.blocks, 0, false);
    stream_->synchronize();
    absorb_state();
  }

  /// One generation from population `parity` into the other one (captured into a graph once per parity).
  void enqueue_step(int parity) {
    const view_type src = view(parity);
    const view_type dst = view(1 - parity);
    const std::uint32_t pairs = kp_.pairs();
    const detail::cuda_kernels::offspring_args<Problem> args{
        kp_,    src,   dst, state_.data(), elite_slots(), pairs, offspring_.staged, cands_, totals_.data(),
        candidates_.data()};
    launch(detail::cuda_geometry::short_genome(kp_.dimension) ? kernels_.offspring_short : kernels_.offspring_long,
           static_cast<unsigned>(offspring_.blocks), offspring_.threads, offspring_.shared_bytes, args);
    enqueue_sort(dst);
    enqueue_finish(dst, offspring_.blocks, static_cast<std::uint32_t>(elitism_), true);
  }

  /// Reads the run state copied to pinned memory (after a synchronization) into stats, history and best-so-far.
  void absorb_state() {
    const state_type& s = *host_state_.data();
    if (s.improved) {
      improved_at_ = generation_;
      best_objective_ = s.so_far_objective;
      best_violation_ = s.so_far_violation;
      best_dirty_ = true;
    }
    generation_stats g;
    g.generation = generation_;
    g.best_objective = static_cast<double>(s.best_objective);
    g.best_violation = static_cast<double>(s.best_violation);
    g.mean_objective = s.objective_sum / static_cast<double>(n_);
    g.feasible_fraction = static_cast<double>(s.feasible) / static_cast<double>(n_);
    g.evaluations = evaluations_;
    g.elapsed_s = elapsed_s();
    last_ = g;
    if (history_.size() < history_limit_) history_.push_back(g);
  }

  backend::cuda backend_;
  Bounds<gene> bounds_;
  std::string device_name_;
  std::size_t n_ = 0;
  std::size_t elitism_ = 0;
  std::unique_ptr<detail::cuda_stream> stream_;  // destroyed after the graphs and buffers below
  detail::kernel_params<Problem> kp_{};
  detail::cuda_kernels::kernel_set kernels_{};
  device_population pop_[2];
  detail::device_buffer<gene> lower_, upper_, best_genes_dev_;
  detail::device_buffer<detail::cuda_kernels::block_totals> totals_;
  detail::device_buffer<detail::cuda_kernels::candidate<key>> candidates_;
  detail::device_buffer<std::uint32_t> elites_;
  detail::device_buffer<state_type> state_;
  detail::pinned_buffer<state_type> host_state_;
  detail::device_buffer<key> sort_keys_;
  detail::device_buffer<std::uint32_t> sort_in_, sort_out_;
  detail::device_buffer<unsigned char> sort_temp_;
  std::size_t sort_temp_bytes_ = 0;
  detail::cuda_graph_exec graphs_[2];
  bool ran_uncaptured_[2] = {false, false};
  detail::cuda_geometry::launch eval_{}, offspring_{};
  int cands_ = 1;
  int cur_ = 0;
  mutable std::vector<gene> best_genes_;
  mutable bool best_dirty_ = false;
  fitness best_objective_ = 0, best_violation_ = 0;
  std::vector<generation_stats> history_;
  std::size_t history_limit_ = 1;
  generation_stats last_{};
  int generation_ = 0, improved_at_ = 0;
  std::uint64_t evaluations_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace fusedga
