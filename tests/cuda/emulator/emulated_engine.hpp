#pragma once
// The passes of engine<Problem, backend::cuda> (engine.cuh) with the kernels
// of kernels.cuh run by the kernel emulator on host memory: the same kernel
// parameters, launch geometry (geometry.hpp), kernel order and arguments.
// Only the CUDA runtime calls differ: buffers are vectors, copies are
// assignments, the CUB radix sort of the elite path is a stable sort.
// Keep it in step with engine.cuh's initialize, upload, step and absorb_state.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include <fusedga/backends/cuda/geometry.hpp>
#include <fusedga/backends/cuda/kernels.cuh>
#include <fusedga/engine/kernel_params.hpp>
#include <fusedga/engine/options.hpp>
#include <fusedga/engine/validate.hpp>

#include "cuda/host_population.hpp"

namespace cuda_test {

namespace geometry = fusedga::detail::cuda_geometry;
namespace kernels = fusedga::detail::cuda_kernels;

template <class Problem>
class emulated_engine {
 public:
  using gene = fusedga::gene_t<Problem>;
  using fitness = fusedga::fitness_t<Problem>;
  using key = fusedga::rank_key_t<fitness>;
  using view_type = fusedga::population_view<gene, fitness>;
  using state_type = kernels::run_state<key, fitness>;

  emulated_engine(const Problem& p, const fusedga::ga_options& o) : bounds_(p.bounds()) {
    d_ = p.dimension();
    fusedga::validate(o, d_, std::is_floating_point_v<gene>);
    n_ = o.population;
    elitism_ = o.elitism;
    kp_ = fusedga::detail::make_kernel_params(p, o, d_);
    kp_.bounds = {bounds_.lower.data(), bounds_.upper.data()};
    for (auto& q : pop_) {
      q.genes.assign((n_ + 1) * static_cast<std::size_t>(d_), gene{});
      q.objective.assign(n_ + 1, fitness{});
      q.violation.assign(n_ + 1, fitness{});
      q.rank_key.assign(n_ + 1, key{});
    }
    eval_ = geometry::evaluation_launch(n_, d_, sizeof(gene));
    offspring_ = geometry::offspring_launch(kp_.pairs(), d_, sizeof(gene));
    cands_ = geometry::candidates_per_block(elitism_);
    const std::size_t blocks = std::max(eval_.blocks, offspring_.blocks);
    totals_.resize(blocks);
    candidates_.resize(blocks * cands_);
    elites_.resize(std::max<std::size_t>(elitism_, 1));
    best_genes_.resize(static_cast<std::size_t>(d_));
    sort_out_.resize(n_);
  }

  void initialize() {
    generation_ = 0;
    history_.clear();
    reset_state(1);
    const view_type src = view(cur_);
    const kernels::init_args<Problem> args{kp_, src.genes};
    cuda_emulation::launch(geometry::grid_for(n_ * ((d_ + 3) / 4), 256), 256, 0, [&] { kernels::init_genes(args); });
    summarize_current(true);
  }

  /// engine.upload(genes, objective, violation, rank_key) of a whole host population.
  void upload(const host_population<Problem>& h) {
    device_population& q = pop_[cur_];
    std::copy(h.genes.begin(), h.genes.end(), q.genes.begin());
    std::copy(h.objective.begin(), h.objective.end(), q.objective.begin());
    std::copy(h.violation.begin(), h.violation.end(), q.violation.begin());
    std::copy(h.rank_key.begin(), h.rank_key.end(), q.rank_key.begin());
    reset_state(static_cast<std::uint32_t>(generation_) + 1);
    summarize_current(false);
  }

  void step() {
    ++generation_;
    const view_type src = view(cur_);
    const view_type dst = view(1 - cur_);
    const kernels::offspring_args<Problem> args{kp_,
                                                src,
                                                dst,
                                                &state_,
                                                elite_slots(),
                                                kp_.pairs(),
                                                offspring_.staged,
                                                cands_,
                                                totals_.data(),
                                                candidates_.data()};
    if (geometry::short_genome(d_))
      cuda_emulation::launch(offspring_.blocks, offspring_.threads, offspring_.shared_bytes,
                             [&] { kernels::offspring_short(args); });
    else
      cuda_emulation::launch(offspring_.blocks, offspring_.threads, offspring_.shared_bytes,
                             [&] { kernels::offspring_long(args); });
    sort_keys(dst);
    finish(dst, offspring_.blocks, static_cast<std::uint32_t>(elitism_), true);
    cur_ = 1 - cur_;
    absorb_state();
  }

  host_population<Problem> download() const {
    host_population<Problem> h;
    h.resize(n_, d_);
    const device_population& q = pop_[cur_];
    std::copy_n(q.genes.begin(), n_ * static_cast<std::size_t>(d_), h.genes.begin());
    std::copy_n(q.objective.begin(), n_, h.objective.begin());
    std::copy_n(q.violation.begin(), n_, h.violation.begin());
    std::copy_n(q.rank_key.begin(), n_, h.rank_key.begin());
    h.stats = last_;
    return h;
  }

  const std::vector<fusedga::generation_stats>& history() const { return history_; }
  const std::vector<gene>& best_genes() const { return best_genes_; }
  fitness best_objective() const { return best_objective_; }
  fitness best_violation() const { return best_violation_; }

 private:
  struct device_population {
    std::vector<gene> genes;
    std::vector<fitness> objective, violation;
    std::vector<key> rank_key;
  };

  view_type view(int which) {
    device_population& q = pop_[which];
    return {q.genes.data(), q.objective.data(), q.violation.data(), q.rank_key.data(), n_, d_};
  }

  void reset_state(std::uint32_t next_generation) {
    state_ = state_type{};
    state_.generation = next_generation;
  }

  void evaluation(const view_type& pop, bool evaluate) {
    const kernels::evaluate_args<Problem> args{
        kp_, pop, eval_.staged, evaluate, cands_, totals_.data(), candidates_.data()};
    cuda_emulation::launch(eval_.blocks, eval_.threads, evaluate ? eval_.shared_bytes : 0,
                           [&] { kernels::evaluate_tile(args); });
  }

  /// cub::DeviceRadixSort::SortPairs of (key, slot): stable, ascending keys.
  void sort_keys(const view_type& pop) {
    if (!geometry::elites_by_sort(elitism_)) return;
    std::iota(sort_out_.begin(), sort_out_.end(), 0u);
    std::stable_sort(sort_out_.begin(), sort_out_.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return pop.rank_key[a] < pop.rank_key[b]; });
  }

  const std::uint32_t* elite_slots() const {
    return geometry::elites_by_sort(elitism_) ? sort_out_.data() : elites_.data();
  }

  void finish(const view_type& pop, std::uint32_t blocks, std::uint32_t elite_slot_count, bool advance) {
    std::uint32_t* elites = geometry::elites_by_sort(elitism_) ? nullptr : elites_.data();
    cuda_emulation::launch(1, geometry::kFinishThreads, 0, [&] {
      kernels::finish_kernel<gene, fitness>(pop, totals_.data(), candidates_.data(), blocks, cands_, elite_slot_count,
                                            static_cast<std::uint32_t>(elitism_), elites, &state_, best_genes_.data(),
                                            advance);
    });
  }

  void summarize_current(bool evaluate) {
    const view_type pop = view(cur_);
    evaluation(pop, evaluate);
    sort_keys(pop);
    finish(pop, eval_.blocks, 0, false);
    absorb_state();
  }

  void absorb_state() {
    const state_type& s = state_;
    if (s.improved) {
      best_objective_ = s.so_far_objective;
      best_violation_ = s.so_far_violation;
    }
    fusedga::generation_stats g;
    g.generation = generation_;
    g.best_objective = static_cast<double>(s.best_objective);
    g.best_violation = static_cast<double>(s.best_violation);
    g.mean_objective = s.objective_sum / static_cast<double>(n_);
    g.feasible_fraction = static_cast<double>(s.feasible) / static_cast<double>(n_);
    last_ = g;
    history_.push_back(g);
  }

  fusedga::Bounds<gene> bounds_;
  int d_ = 0;
  std::size_t n_ = 0, elitism_ = 0;
  fusedga::detail::kernel_params<Problem> kp_{};
  device_population pop_[2];
  std::vector<kernels::block_totals> totals_;
  std::vector<kernels::candidate<key>> candidates_;
  std::vector<std::uint32_t> elites_, sort_out_;
  std::vector<gene> best_genes_;
  state_type state_{};
  geometry::launch eval_{}, offspring_{};
  int cands_ = 1, cur_ = 0, generation_ = 0;
  fitness best_objective_ = 0, best_violation_ = 0;
  std::vector<fusedga::generation_stats> history_;
  fusedga::generation_stats last_{};
};

/// parity_checks.hpp's `run` on the emulator (graphs: no meaning here).
template <class Problem>
gpu_run<Problem> run_emulated(const Problem& p, const fusedga::ga_options& o, int generations,
                              const host_population<Problem>* start, bool /*graphs*/) {
  emulated_engine<Problem> e(p, o);
  e.initialize();
  if (start) e.upload(*start);
  gpu_run<Problem> r;
  r.initial = e.download();
  for (int g = 0; g < generations; ++g) e.step();
  r.final = e.download();
  r.history = e.history();
  for (const auto g : e.best_genes()) r.best_genes.push_back(static_cast<double>(g));
  r.best_objective = static_cast<double>(e.best_objective());
  r.best_violation = static_cast<double>(e.best_violation());
  return r;
}

}  // namespace cuda_test
