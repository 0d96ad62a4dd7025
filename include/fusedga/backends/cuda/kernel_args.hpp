#pragma once
/// @file kernel_args.hpp
/// The argument blocks of the CUDA kernels (kernels.cuh), each passed by value
/// to one launch, and the device-side run state. Plain host types: the CUDA
/// executor (executor.hpp) builds them without nvcc, so the kernel emulator
/// drives the same host sequence.

#include <cstdint>

#include "fusedga/core/population.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/core/rank_key.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/evaluate.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/shade_state.hpp"
#include "fusedga/engine/tile_summary.hpp"

namespace fusedga::detail::cuda_kernels {

/// The device-side run state: this generation's summary, the best-so-far (so the finish kernel copies its genes
/// on the device, inside the generation's graph), and the generation counter.
template <class Key, class Fitness>
struct run_state {
  double objective_sum;
  unsigned long long feasible;
  unsigned long long not_a_number;
  /// The gradient repair's evaluations since the previous summary (finish_args::repair_count).
  unsigned long long repair_evaluations;
  Key best_key;
  std::uint32_t best_slot;
  Fitness best_objective;
  Fitness best_violation;
  Key so_far_key;  ///< best-so-far rank key
  Fitness so_far_objective;
  Fitness so_far_violation;
  int have_best;             ///< 0 until the first summary
  int improved;              ///< 1 when this summary improved the best-so-far
  std::uint32_t generation;  ///< generation the next offspring pass produces
};

template <class Problem>
using view_of = population_view<gene_t<Problem>, fitness_t<Problem>>;
template <class Problem>
using key_of = rank_key_t<fitness_t<Problem>>;

/// Arguments of init_genes_kernel: the initial genes of every individual into `genes` (N·d, row-major).
template <class Problem>
struct init_args {
  kernel_params<Problem> kp;
  gene_t<Problem>* genes;
};

/// Arguments of evaluate_kernel (see evaluate_tile).
template <class Problem>
struct evaluate_args {
  kernel_params<Problem> kp;
  view_of<Problem> pop;
  bool staged;    ///< rows staged in shared memory (geometry.hpp: evaluation_launch)
  bool evaluate;  ///< false: only summarize the stored values
  int cands;      ///< candidates per block (elitism / best)
  tile_totals* totals;
  candidate<key_of<Problem>>* best;
  bool rekey = false;  ///< with `evaluate` false: keys recomputed from stored objective and violation (rekey.hpp)
  std::uint32_t rows = 1;  ///< individuals per thread (per warp with warp_rows): a block's tile is rows · blockDim.x
                           ///< (rows · warps) (geometry.hpp)
  bool warp_rows = false;  ///< lane groups per row (separable objectives; kernels.cuh: evaluate_warp_rows)
  std::uint32_t row_lanes = 32;  ///< with warp_rows: lanes per row (geometry.hpp)
  /// Population-batch problems with `evaluate` (kernels.cuh: batch_row_values): the constraint values the
  /// evaluate_population call wrote for slots [values.first, N); slots below keep their stored values.
  population_values<fitness_t<Problem>> values{};
};

/// Arguments of the offspring kernels (see offspring_short and offspring_long).
template <class Problem>
struct offspring_args {
  kernel_params<Problem> kp;
  view_of<Problem> src;  ///< parents (generation g)
  view_of<Problem> dst;  ///< children (generation g + 1)
  const run_state<key_of<Problem>, fitness_t<Problem>>* state;
  const std::uint32_t* elites;  ///< E slots of src, copied to dst [0, E)
  std::uint32_t pairs;
  bool staged;  ///< long genomes: children kept in shared memory for evaluation
  int cands;
  tile_totals* totals;
  candidate<key_of<Problem>>* best;
  /// N × gradient_repair_scratch(d, m) values, slot s's at s·gradient_repair_scratch(d, m): set when the run
  /// repairs its children (kernel_params::gradient_repair.enabled() and a repairable problem), else null.
  fitness_t<Problem>* repair_scratch = nullptr;
  unsigned long long* repair_count = nullptr;  ///< with repair_scratch: the repairs' evaluations are added here
};

/// Arguments of finish_generation_kernel (see finish_generation).
template <class G, class F>
struct finish_args {
  population_view<G, F> pop;
  const tile_totals* totals;
  const candidate<rank_key_t<F>>* cands;
  std::uint32_t blocks;
  int cands_per_block;
  std::uint32_t elite_slots;  ///< elites already in pop's slots [0, elite_slots)
  std::uint32_t elite_count;
  std::uint32_t* elites;  ///< the next elites' slots, or null (chosen by the key sort)
  run_state<rank_key_t<F>, F>* state;
  G* best_genes;  ///< the best-so-far's d genes
  bool advance;   ///< move the generation counter on
  /// The variation kernel's repair evaluations, moved into run_state::repair_evaluations and reset; null: none.
  unsigned long long* repair_count = nullptr;
};

/// Arguments of plus_survival_kernel (see plus_survival): (μ+λ) survival of `children` into `parents`, in place.
template <class G, class F>
struct plus_args {
  population_view<G, F> parents;
  population_view<G, F> children;
  const rank_key_t<F>* parent_keys;   ///< the parents' keys, ascending (a stable sort of slots 0..N-1)
  const std::uint32_t* parent_slots;  ///< their slots in that order
  const rank_key_t<F>* child_keys;    ///< the children's keys, ascending
  const std::uint32_t* child_slots;
};

/// The counters of differential evolution's adaptive state (shade_state.hpp's de_state) on the device, where
/// de_update_kernel advances them inside the generation's graph.
struct de_counters {
  std::uint32_t archive_size;  ///< archive rows in use, <= capacity
  int next_memory;             ///< k: the SHADE memory entry the next update writes
};

/// Arguments of de_kernel (see de_targets): one DE generation from `src` into `dst`.
template <class Problem>
struct de_args {
  kernel_params<Problem> kp;
  view_of<Problem> src;  ///< targets (generation g)
  view_of<Problem> dst;  ///< survivors (generation g + 1)
  const run_state<key_of<Problem>, fitness_t<Problem>>* state;
  const double* memory_F;           ///< H entries
  const double* memory_CR;          ///< H entries
  const gene_t<Problem>* archive;   ///< capacity rows of d genes, counters->archive_size in use
  const de_counters* counters;
  const std::uint32_t* pbest;       ///< src's pbest_count best slots by (key, slot), ascending (current-to-pbest; else unused)
  std::uint8_t* success;            ///< N flags: trial strictly better than its target
  de_success_sums* tile_success;    ///< one per kShadeSumTargets targets
  int cands;
  tile_totals* totals;
  candidate<key_of<Problem>>* best;
  /// N × gradient_repair_scratch(d, m) values, target i's at i·gradient_repair_scratch(d, m): set when the run
  /// repairs (kernel_params::gradient_repair.enabled() and a repairable problem), else null (no repair).
  fitness_t<Problem>* repair_scratch = nullptr;
  unsigned long long* repair_count = nullptr;  ///< with repair_scratch: the repairs' evaluations are added here
  /// Population-batch problems: the DE kernel runs twice around the evaluate_population call over dst's N trial
  /// rows — `trials_only` (each trial into dst, its F and CR into F_all/CR_all[i]), then the selection, which
  /// ranks the trials from the call's `values`.
  bool trials_only = false;
  double* F_all = nullptr;
  double* CR_all = nullptr;
  population_values<fitness_t<Problem>> values{};
};

/// Arguments of de_update_kernel (see de_update): SHADE's memory update and the archive slots of a generation.
template <class G, class F>
struct de_update_args {
  de_spec spec;
  const de_success_sums* tile_success;
  std::uint32_t tiles;
  double* memory_F;
  double* memory_CR;
  de_counters* counters;
  std::uint32_t* tile_first;  ///< tiles: the first archive position of each tile's successes (with an archive)
  std::uint32_t* owner;       ///< capacity: cleared here, for de_slots
};

/// Arguments of de_slots_kernel (see de_slots): the archive rows of a generation's successful targets.
template <class G, class F>
struct de_slots_args {
  counter_rng rng;
  std::uint32_t population;
  std::uint32_t capacity;  ///< archive rows, > 0
  const run_state<rank_key_t<F>, F>* state;  ///< its generation: the one the DE kernel just produced
  std::uint32_t tiles;
  const std::uint32_t* tile_first;  ///< de_update's first position per tile
  const std::uint8_t* success;
  std::uint32_t* archive_slot;  ///< N: the archive row each successful target's parent goes to
  std::uint32_t* owner;         ///< capacity: 1 + the last target that writes the row (0: none)
};

/// Arguments of de_archive_kernel (see de_archive): the successful parents' rows into the archive.
template <class G, class F>
struct de_archive_args {
  population_view<G, F> parents;
  G* archive;
  const std::uint8_t* success;
  const std::uint32_t* archive_slot;
  const std::uint32_t* owner;
};

}  // namespace fusedga::detail::cuda_kernels
