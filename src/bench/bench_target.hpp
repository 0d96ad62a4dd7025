#pragma once
/// @file bench_target.hpp
/// A built-in problem prepared for `ga-bench`: the type-erased handle through
/// which every benchmark tier of one problem is timed. Created by the
/// registry (`problem_entry::bench`) from the typed problem; the typed side is
/// bench_target_impl.hpp. Type erasure happens here, per call of a whole
/// pass, never per individual (except in the object tier, on purpose).

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "fusedga/config/run_config.hpp"

namespace fusedga {

/**
 * The workloads of one problem at one population size (DESIGN.md,
 * "Performance is measured, not assumed"). Every call runs to completion
 * before returning (TBB passes synchronize). Not thread-safe.
 *
 * Typical use: `prepare(N, backend, threads)`, then time `evaluate_fused()`
 * and `generation()`; for the baseline tiers `prepare_objects()` then
 * `evaluate_objects()`, and `evaluate_unfused()` when `has_unfused()`.
 */
class bench_target {
 public:
  virtual ~bench_target() = default;

  virtual int dimension() const = 0;              ///< genes per individual, d
  virtual std::size_t gene_bytes() const = 0;     ///< sizeof(gene), bytes
  virtual std::size_t fitness_bytes() const = 0;  ///< sizeof(objective value), bytes
  virtual std::size_t key_bytes() const = 0;      ///< sizeof(rank key), bytes

  /**
   * Builds an engine for `population` individuals on `backend` (`threads`
   * workers for tbb, 0 = all) and initializes it (random genes, evaluated
   * once). Frees the previous engine and object rows first.
   * Memory: two populations, 2·(N+1)·(d·gene + 2·fitness + key) bytes.
   * @throws backend_unavailable for a backend that is not built;
   *         config_error when the run options do not fit the problem; std::bad_alloc.
   */
  virtual void prepare(std::size_t population, backend_kind backend, int threads) = 0;
  /// Elitism E and tournament size k of the prepared engine (after clamping to N), for the bytes model.
  virtual std::size_t elitism() const = 0;
  virtual int tournament_size() const = 0;

  /// Fused evaluation of the whole prepared population in place (objective, violation, rank key). O(N·d).
  virtual void evaluate_fused() = 0;
  /// One full fused generation (selection, crossover, mutation, repair, evaluation, elitism, statistics).
  virtual void generation() = 0;

  /**
   * Copies the current population into the object tier's rows: one
   * heap-allocated std::vector<double> per individual, about N·(8·d + 56)
   * bytes. @pre prepare() was called.
   */
  virtual void prepare_objects() = 0;
  /// Frees the object rows.
  virtual void release_objects() = 0;
  /// Object-per-individual tier: a std::vector row and a virtual call per individual (DEAP/OpenGA style). @pre prepare_objects().
  virtual void evaluate_objects() = 0;

  /// Whether the problem has an unfused vectorized tier (bench/unfused_seed.hpp).
  virtual bool has_unfused() const = 0;
  /// Unfused vectorized tier: one pass over N per operation, fresh temporaries (NumPy style), single-threaded.
  /// @throws error when `has_unfused()` is false.
  virtual void evaluate_unfused() = 0;
  /**
   * Largest difference between the last `evaluate_unfused()` result and the
   * current population's fused objective and violation, relative to
   * max(|a|, |b|, 1). Valid until the next `generation()` or `prepare()`.
   * @throws error when no unfused result is held.
   */
  virtual double unfused_difference() const = 0;
};

/// Creates the benchmark handle for a typed problem (defined in bench_target_impl.hpp).
template <class Problem>
std::unique_ptr<bench_target> make_bench_target(const Problem& problem, const run_config& cfg);

}  // namespace fusedga
