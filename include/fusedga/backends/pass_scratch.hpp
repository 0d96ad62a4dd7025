#pragma once
/// @file pass_scratch.hpp
/// The CPU passes' scratch, one block per worker slot, allocated when the executor is built.

#include <cstddef>
#include <vector>

#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/passes.hpp"
#include "fusedga/operators/gradient_repair.hpp"

namespace fusedga::detail {

/**
 * The scratch_slot (kernel_params.hpp) of each of `slots` workers, sized for one run's kernel_params: padded
 * rows where d > kStagedGenes, gathered rows for problems with batch evaluation, the repair's lane and work when
 * the run repairs. A worker slot is the loop's (serial_loop: 0; tbb_loop: the thread's index in its arena, below
 * its concurrency()), not a thread's: unlike thread_local buffers, nothing is allocated when a thread first
 * takes a tile in some later generation (tests/engine/test_allocation.cpp). Not thread-safe to grow; slot(s)
 * is safe to call concurrently. Throws std::bad_alloc when it cannot allocate.
 */
template <class Problem>
class pass_scratch {
 public:
  using gene = gene_t<Problem>;
  using fitness = fitness_t<Problem>;

  explicit pass_scratch(const kernel_params<Problem>& kp) {
    const std::size_t d = static_cast<std::size_t>(kp.dimension);
    const bool repairs = repairable_v<Problem> && kp.gradient_repair.enabled();
    padded_ = d > static_cast<std::size_t>(kStagedGenes) ? kTileSlots * d : 0;
    gathered_ = has_batch_evaluation<Problem>::value ? kTileSlots * d : 0;
    lane_ = repairs ? d : 0;
    work_ = repairs ? gradient_repair_scratch(kp.dimension, kp.gradient_repair.inequalities +
                                                                kp.gradient_repair.equalities)
                    : 0;
  }

  /// Makes room for at least `slots` workers (allocates only when it grows).
  void reserve(int slots) {
    if (slots <= slots_) return;
    slots_ = slots;
    genes_.resize(static_cast<std::size_t>(slots) * genes_per_slot());
    work_values_.resize(static_cast<std::size_t>(slots) * work_);
  }

  /// Worker `s`'s scratch, s in [0, slots()).
  scratch_slot<gene, fitness> slot(int s) {
    scratch_slot<gene, fitness> w;
    gene* g = genes_.data() + static_cast<std::size_t>(s) * genes_per_slot();
    if (padded_) w.padded_rows = g;
    if (gathered_) w.gathered_rows = g + padded_;
    if (lane_) w.lane = g + padded_ + gathered_;
    if (work_) w.repair_work = work_values_.data() + static_cast<std::size_t>(s) * work_;
    return w;
  }

 private:
  std::size_t genes_per_slot() const { return padded_ + gathered_ + lane_; }
  std::size_t padded_ = 0, gathered_ = 0, lane_ = 0, work_ = 0;  // per slot
  int slots_ = 0;
  std::vector<gene> genes_;
  std::vector<fitness> work_values_;
};

}  // namespace fusedga::detail
