#pragma once
/// @file executor.hpp
/// The executor requirements: what a backend implements so that
/// `engine<Problem, Backend>` (engine.hpp) can run a GA on it. The engine owns
/// the run state (generation, evaluations, history, best-so-far, stall count,
/// timing); an executor owns the populations where they live and runs the
/// passes over them.
///
/// **Executor** (named requirement). For `E = executor_t<Problem, Backend>`,
/// `e` an `E`, `ce` a `const E`, `kp` a `detail::kernel_params<Problem>`
/// (bounds not yet pointed anywhere), `b` the run's validated `Bounds`:
///
/// - `E::gene`, `E::fitness`, `E::key`, `E::view_type`: `gene_t<Problem>`, `fitness_t<Problem>`, its rank key,
///   `population_view<gene, fitness>`.
/// - `E(problem, kp, b, backend)`: allocates everything a run needs (no allocation afterwards); copies what it
///   keeps of `kp` and `b`.
/// - `e.initialize()`: creates and evaluates generation 0 (`initial_gene_block` of initial_genes.hpp); returns
///   its `generation_summary`.
/// - `e.next_generation(g)`: copies the elites the last summary chose into slots [0, E), runs the fused
///   offspring pass of generation `g` (>= 1) into the other buffer, summarizes it and makes it current;
///   returns the summary.
/// - `e.evaluate()`: re-evaluates the current population in place (benchmarks); no summary.
/// - `e.keep_best(slot)`: the engine found the last summary's best improving the run's best-so-far; keep the
///   genes of current slot `slot` for `fetch_best`.
/// - `ce.fetch_best(out)`: copies the kept best genes (d values) into host memory `out`.
/// - `ce.current()`: a view of the current population (host or device memory, as the executor keeps it).
/// - `ce.concurrency()`: host threads the passes use (0: the work runs on a device).
///
/// Optional (a GPU executor, real or emulated): `ce.download(genes, objective,
/// violation, keys)` and `e.upload(genes, objective, violation, keys, evaluate,
/// next_generation)` returning the summary of the uploaded population.
///
/// Optional (checkpoints; engine::save/load need them): `ce.save_state(w)` and `e.load_state(r)` with a
/// `detail::checkpoint_writer` / `checkpoint_reader` (checkpoint_stream.hpp): the current population, the
/// elites chosen, the kept best, and any adaptive state (DE's memories and archive). An executor that keeps
/// run state of its own (the CUDA one: the generation counter and best-so-far on the device) also has
/// `e.resume(next_generation, have_best, best_key, best_objective, best_violation)`, which `engine::load`
/// calls after `load_state` with the engine's run state.
///
/// Every call completes its work before returning (a device executor synchronizes). Summaries
/// combine tiles in tile order, so they are identical for every thread count. A backend makes its
/// executor known by specializing `executor_for<Problem, Backend>` in its own header; the engine
/// never includes a backend.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "fusedga/core/bounds.hpp"
#include "fusedga/core/population.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/core/rank_key.hpp"
#include "fusedga/engine/checkpoint_stream.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/tile_summary.hpp"

namespace fusedga {

/// What an executor reports about the population it just made current.
template <class Key, class Fitness>
struct generation_summary {
  double objective_sum = 0;       ///< sum of the N - not_a_number rankable objectives (tile order; a device's own fixed order)
  std::uint64_t feasible = 0;     ///< rankable individuals with zero violation
  std::uint64_t not_a_number = 0; ///< individuals whose objective or violation is NaN (is_nan_key; ranked worst)
  detail::candidate<Key> best{};  ///< the best individual's rank key and slot
  Fitness best_objective = 0;     ///< its objective
  Fitness best_violation = 0;     ///< its violation
  std::uint64_t repair_evaluations = 0;  ///< evaluations spent by the gradient repair in this pass (engine adds them)
};

namespace detail {
template <class T>
struct dependent_false : std::false_type {};
}  // namespace detail

/**
 * The executor of `Backend` for `Problem`: specialized by each backend's
 * header (backends/serial.hpp, tbb.hpp, cuda.hpp) with `using type = ...`.
 */
template <class Problem, class Backend, class = void>
struct executor_for {
  static_assert(detail::dependent_false<Backend>::value,
                "fusedga: no executor for this backend; include its header (fusedga/fusedga.hpp includes them all)");
  using type = void;
};

template <class Problem, class Backend>
using executor_t = typename executor_for<Problem, Backend>::type;

namespace detail {

template <class E, class = void>
struct has_executor_types : std::false_type {};
template <class E>
struct has_executor_types<E, std::void_t<typename E::gene, typename E::fitness, typename E::key, typename E::view_type>>
    : std::true_type {};

template <class E, class = void>
struct has_initialize : std::false_type {};
template <class E>
struct has_initialize<E, std::void_t<decltype(std::declval<E&>().initialize())>> : std::true_type {};

template <class E, class = void>
struct has_next_generation : std::false_type {};
template <class E>
struct has_next_generation<E, std::void_t<decltype(std::declval<E&>().next_generation(std::uint32_t{}))>>
    : std::true_type {};

template <class E, class = void>
struct has_evaluate : std::false_type {};
template <class E>
struct has_evaluate<E, std::void_t<decltype(std::declval<E&>().evaluate())>> : std::true_type {};

template <class E, class = void>
struct has_best_access : std::false_type {};
template <class E>
struct has_best_access<
    E, std::void_t<decltype(std::declval<E&>().keep_best(std::uint32_t{})),
                   decltype(std::declval<const E&>().fetch_best(static_cast<typename E::gene*>(nullptr)))>>
    : std::true_type {};

template <class E, class = void>
struct has_current : std::false_type {};
template <class E>
struct has_current<
    E, std::void_t<decltype(std::declval<const E&>().current()), decltype(std::declval<const E&>().concurrency())>>
    : std::true_type {};

template <class E, class = void>
struct has_state_io : std::false_type {};
template <class E>
struct has_state_io<E, std::void_t<decltype(std::declval<const E&>().save_state(std::declval<checkpoint_writer&>())),
                                   decltype(std::declval<E&>().load_state(std::declval<checkpoint_reader&>()))>>
    : std::true_type {};

template <class E, class = void>
struct has_resume : std::false_type {};
template <class E>
struct has_resume<E, std::void_t<decltype(std::declval<E&>().resume(std::uint32_t{}, bool{}, typename E::key{},
                                                                    typename E::fitness{}, typename E::fitness{}))>>
    : std::true_type {};

/// Checks the Executor requirements of `E`, one message per missing member.
template <class E>
constexpr bool check_executor() {
  static_assert(has_executor_types<E>::value, "executor: needs member types gene, fitness, key and view_type");
  if constexpr (has_executor_types<E>::value) {
    using summary = generation_summary<typename E::key, typename E::fitness>;
    static_assert(has_initialize<E>::value, "executor: needs generation_summary initialize()");
    static_assert(has_next_generation<E>::value, "executor: needs generation_summary next_generation(std::uint32_t)");
    static_assert(has_evaluate<E>::value, "executor: needs void evaluate()");
    static_assert(has_best_access<E>::value, "executor: needs keep_best(std::uint32_t) and fetch_best(gene*) const");
    static_assert(has_current<E>::value, "executor: needs view_type current() const and int concurrency() const");
    if constexpr (has_initialize<E>::value && has_next_generation<E>::value) {
      static_assert(std::is_same_v<decltype(std::declval<E&>().initialize()), summary>,
                    "executor: initialize() must return generation_summary<key, fitness>");
      static_assert(std::is_same_v<decltype(std::declval<E&>().next_generation(std::uint32_t{})), summary>,
                    "executor: next_generation() must return generation_summary<key, fitness>");
    }
    if constexpr (has_current<E>::value)
      static_assert(std::is_same_v<decltype(std::declval<const E&>().current()), typename E::view_type>,
                    "executor: current() must return view_type");
  }
  return true;
}

}  // namespace detail
}  // namespace fusedga
