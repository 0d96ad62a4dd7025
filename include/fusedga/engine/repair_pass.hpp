#pragma once
/// @file repair_pass.hpp
/// The gradient repair step of the fused offspring pass (passes.hpp): after
/// mutation and bound repair, before evaluation, each child is repaired with
/// probability `kp.gradient_repair.rate` (operators/gradient_repair.hpp); the
/// DE pass (de_pass.hpp, de_repair_infeasible) repairs its infeasible trial
/// vectors after their evaluation (εDEg). The coin of child c (0, 1) of pair i
/// in generation g is draw c of rng(i, g, stream::repair, 0) (DE: draw 1 of
/// rng(i, g, stream::de_after, 0) for target i): a pure function of the run's
/// seed, so the result is the same for any thread count. Host (CPU executors);
/// the CUDA kernels repair with the same draws (kernels.cuh: repair_child, de_targets).

#include <cstdint>

#include "fusedga/core/constraint_jacobian.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/operators/gradient_repair.hpp"

namespace fusedga::detail {

/**
 * Repairs lane l of a child laid out gene-major with P lanes (`genes[j·P + l]`; P = 1 for a row) in place:
 * gradient_repair with the run's tolerance and iterations. Returns the evaluations spent. @pre repairable_v.
 */
template <int P, class Problem>
inline std::uint32_t repair_lane(const kernel_params<Problem>& kp, gene_t<Problem>* genes, int l) {
  using G = gene_t<Problem>;
  using F = fitness_t<Problem>;
  const int d = kp.dimension;
  const int ni = kp.gradient_repair.inequalities, ne = kp.gradient_repair.equalities;
  F* scratch = kp.scratch.repair_work;  // gradient_repair_scratch(d, ni + ne) values
  const auto repair = [&](G* x) {
    return static_cast<std::uint32_t>(gradient_repair(kp.problem, x, d, ni, ne, kp.bounds.lower, kp.bounds.upper,
                                                      kp.equality_tolerance, kp.gradient_repair.iterations,
                                                      scratch, kp.bounds.integer));
  };
  if constexpr (P == 1) {
    return repair(genes + l);  // a row: repaired where it is
  } else {
    G* x = kp.scratch.lane;
    for (int j = 0; j < d; ++j) x[j] = genes[j * P + l];
    const std::uint32_t evaluations = repair(x);
    for (int j = 0; j < d; ++j) genes[j * P + l] = x[j];
    return evaluations;
  }
}

/**
 * Repairs the children of P pairs laid out gene-major (`c1[j·P + l]`, `c2`
 * alike; P = 1 for rows), pairs first_pair + l, of which only the first
 * `children` children (child 2l from c1, 2l + 1 from c2) are kept. Returns
 * the evaluations spent (gradient_repair's count). No-op (0) when the rate is 0.
 */
template <int P, class Problem>
inline std::uint32_t repair_children(const kernel_params<Problem>& kp, std::uint32_t first_pair,
                                     std::uint32_t generation, gene_t<Problem>* c1, gene_t<Problem>* c2,
                                     std::size_t children) {
  if constexpr (!repairable_v<Problem>) {
    (void)kp, (void)first_pair, (void)generation, (void)c1, (void)c2, (void)children;
    return 0;
  } else {
    if (!kp.gradient_repair.enabled()) return 0;
    std::uint32_t evaluations = 0;
    for (int l = 0; l < P && static_cast<std::size_t>(2 * l) < children; ++l) {  // the pairs with a kept child
      const draws4 r = kp.rng(first_pair + static_cast<std::uint32_t>(l), generation, stream::repair, 0);
      for (int c = 0; c < 2; ++c) {
        if (static_cast<std::size_t>(2 * l + c) >= children) break;
        if (!coin<double>(r.v[c], kp.gradient_repair.rate)) continue;
        evaluations += repair_lane<P>(kp, c == 0 ? c1 : c2, l);
      }
    }
    return evaluations;
  }
}

}  // namespace fusedga::detail
