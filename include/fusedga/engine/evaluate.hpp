#pragma once
/// @file evaluate.hpp
/// Fused evaluation: objective, every constraint and the total violation of
/// one individual in one pass, then its rank key. No temporaries.

#include <cstddef>
#include <type_traits>

#include "fusedga/core/constraint_key.hpp"
#include "fusedga/core/constraint_sink.hpp"
#include "fusedga/core/gene_view.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/core/rank_key.hpp"
#include "fusedga/engine/kernel_params.hpp"

namespace fusedga::detail {

/// The rank key of (objective, violation) under the run's constraint handling (constraint_key.hpp). The static
/// rules take make_rank_key directly, so their keys and code stay today's.
template <class Problem>
FUSEDGA_HD FUSEDGA_INLINE rank_key_t<fitness_t<Problem>> rank_key_of(const kernel_params<Problem>& kp,
                                                                     fitness_t<Problem> objective,
                                                                     fitness_t<Problem> violation) {
  if (kp.rule == constraint_rule::feasibility_rules || kp.rule == constraint_rule::penalty)
    return make_rank_key(objective, violation, sense_of<Problem>(), kp.rule, kp.penalty_weight);
  return make_handler_key(objective, violation, sense_of<Problem>(), kp.rule, kp.penalty_weight, kp.handler);
}

/// Objective, violation and rank key of the individual whose gene j is at `x[j * Stride]`.
template <int Stride, class Problem>
FUSEDGA_HD inline void evaluate_one(const kernel_params<Problem>& kp, const gene_t<Problem>* x,
                                    fitness_t<Problem>& objective, fitness_t<Problem>& violation,
                                    rank_key_t<fitness_t<Problem>>& key) {
  using F = fitness_t<Problem>;
  const gene_view<gene_t<Problem>, Stride> xv{x};
  const F obj = static_cast<F>(kp.problem.objective(xv));
  F v = F(0);
  if constexpr (has_inequalities<Problem>::value) {
    auto g = inequality_sink(&v);
    kp.problem.inequalities(xv, g);
  }
  if constexpr (has_equalities<Problem>::value) {
    auto h = equality_sink(&v, kp.equality_tolerance);
    kp.problem.equalities(xv, h);
  }
  objective = obj;
  violation = v;
  key = make_rank_key(obj, v, sense_of<Problem>(), kp.rule, kp.penalty_weight);  // dynamic rules: apply_handler_keys
}

/**
 * The total violation of one individual from its raw constraint values — `g` (m inequality values, g_j <= 0
 * satisfied) and `h` (p equality values, |h_j| <= eps satisfied) — folded by the same sinks as evaluate_one,
 * inequalities first, each family in index order. A problem whose `inequalities(x, g)` assigns its constraints
 * in index order gets the same bits both ways. Population-batch problems (problem_traits.hpp).
 */
template <class F>
FUSEDGA_HD inline F violation_of_values(const F* g, int m, const F* h, int p, F eps) {
  F v = F(0);
  auto gs = inequality_sink(&v);
  for (int j = 0; j < m; ++j) gs[j] = g[j];
  auto hs = equality_sink(&v, eps);
  for (int j = 0; j < p; ++j) hs[j] = h[j];
  return v;
}

/**
 * Dynamic rules (ε-constrained, self-adaptive penalty): the keys of `count`
 * individuals recomputed with the handler's state, after their evaluation.
 * Kept out of evaluate_one so that the static rules' evaluation loops compile
 * exactly as before: a branch into sap_penalized's exp inside them stopped GCC
 * vectorizing a problem's sin/cos (scalar libm then changed their last bits).
 * No-op for the other rules.
 */
template <class Problem>
FUSEDGA_HD inline void apply_handler_keys(const kernel_params<Problem>& kp, const fitness_t<Problem>* objective,
                                          const fitness_t<Problem>* violation, rank_key_t<fitness_t<Problem>>* key,
                                          std::size_t count) {
  if (!dynamic_rule(kp.rule)) return;
  for (std::size_t i = 0; i < count; ++i) key[i] = rank_key_of(kp, objective[i], violation[i]);
}

/// The constraint values that one `evaluate_population` call wrote (problem_traits.hpp): slot s of the
/// population has its m inequality values at g[(s − first)·m ...] and its p equality values at
/// h[(s − first)·p ...].
template <class Fitness>
struct population_values {
  const Fitness* g;
  const Fitness* h;
  int m, p;
  std::size_t first;
};

/**
 * Population-batch problems (`evaluate_population`, problem_traits.hpp): the violations and rank keys of the
 * `count` slots [s, s + count), whose objectives the problem wrote (`objective[i]` for slot s + i) with their raw
 * constraint values in `values`' rows; writes `violation[i]` (violation_of_values) and `key[i]` exactly as
 * evaluate_one then apply_handler_keys do. The CPU passes call it per tile, the CUDA kernels per individual
 * (count 1). @pre s >= values.first.
 */
template <class Problem>
FUSEDGA_HD inline void rank_population_values(const kernel_params<Problem>& kp,
                                              const population_values<fitness_t<Problem>>& values, std::size_t s,
                                              std::size_t count, const fitness_t<Problem>* objective,
                                              fitness_t<Problem>* violation, rank_key_t<fitness_t<Problem>>* key) {
  const std::size_t m = static_cast<std::size_t>(values.m), p = static_cast<std::size_t>(values.p);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t row = s - values.first + i;
    violation[i] =
        violation_of_values(values.g + row * m, values.m, values.h + row * p, values.p, kp.equality_tolerance);
    key[i] = make_rank_key(objective[i], violation[i], sense_of<Problem>(), kp.rule, kp.penalty_weight);
  }
  apply_handler_keys(kp, objective, violation, key, count);
}

/**
 * Batch form for problems with `evaluate_batch` (problem_traits.hpp): the
 * problem writes objective and violation of `count` individuals, gene j of
 * individual l at genes[l·lane_stride + j·gene_stride]; the rank keys are
 * formed here exactly as in evaluate_one. Host only.
 */
template <class Problem>
inline void evaluate_batch(const kernel_params<Problem>& kp, const gene_t<Problem>* genes, std::ptrdiff_t lane_stride,
                           std::ptrdiff_t gene_stride, int count, fitness_t<Problem>* objective,
                           fitness_t<Problem>* violation, rank_key_t<fitness_t<Problem>>* key) {
  kp.problem.evaluate_batch(genes, lane_stride, gene_stride, count, kp.equality_tolerance, objective, violation);
  for (int l = 0; l < count; ++l)
    key[l] = make_rank_key(objective[l], violation[l], sense_of<Problem>(), kp.rule, kp.penalty_weight);
  apply_handler_keys(kp, objective, violation, key, static_cast<std::size_t>(count));
}

}  // namespace fusedga::detail
