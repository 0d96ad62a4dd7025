#pragma once
/// @file pair_ops.hpp
/// The per-thread steps of the GPU generation, written once as `FUSEDGA_HD`
/// functions over the same operator functors and draws as the CPU passes:
/// plan a pair (tournaments, crossover decision, cut points), vary one gene of
/// a pair (crossover → mutation → repair); initial genes are engine/initial_genes.hpp's. No CUDA
/// headers: the CPU tests run them on the host and check them against the
/// CPU engine bitwise (tests/cuda/test_pair_ops.cpp), so the kernels draw the
/// same numbers and apply the same operators as `passes.hpp`.

#include <cstdint>
#include <type_traits>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/population.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/operators/dispatch.hpp"
#include "fusedga/operators/mutation.hpp"
#include "fusedga/operators/repair.hpp"
#include "fusedga/operators/stochastic_ranking.hpp"
#include "fusedga/operators/tournament.hpp"

namespace fusedga::detail {

/// The decisions of one pair (the one-pair form of variation.hpp's pair_plan).
struct pair_decision {
  std::uint32_t parent1;
  std::uint32_t parent2;
  int crosses;  ///< 1 if the pair is crossed
  int cut_lo;   ///< k-point crossover: genes [cut_lo, cut_hi) are exchanged
  int cut_hi;
};

/// The pair-level draws of plan_pair (stream::pair): crossover coin and cut points.
template <class Problem>
FUSEDGA_HD FUSEDGA_INLINE void pair_draws(const kernel_params<Problem>& kp, std::uint32_t pair,
                                          std::uint32_t generation, pair_decision& p) {
  const draws4 r = kp.rng(pair, generation, stream::pair, 0);
  p.crosses = coin<double>(r.v[0], kp.crossover.rate) ? 1 : 0;
  p.cut_lo = p.cut_hi = kp.dimension;
  visit<gene_t<Problem>>(kp.crossover, [&](const auto& op) { pair_cuts(op, r, kp.dimension, p.cut_lo, p.cut_hi); });
}

/**
 * Tournaments and pair draws of pair `pair` in `generation`: stream::select
 * for the candidates (tournament.hpp), stream::pair for the crossover coin and
 * cut points — exactly `plan_pairs` of passes.hpp for one lane. `keys` are the
 * parents' rank keys (N of them).
 */
template <class Problem, class Key>
FUSEDGA_HD FUSEDGA_INLINE pair_decision plan_pair(const kernel_params<Problem>& kp, const Key* keys, std::uint32_t pair,
                                                  std::uint32_t generation) {
  pair_decision p;
  const tournament<0> tour{kp.tournament_size};
  tour(keys, kp.population, kp.rng, pair, generation, p.parent1, p.parent2);
  pair_draws(kp, pair, generation, p);
  return p;
}

/// plan_pair with the parents' whole population: stochastic ranking's tournaments also read objective and violation.
template <class Problem, class G, class F>
FUSEDGA_HD FUSEDGA_INLINE pair_decision plan_pair(const kernel_params<Problem>& kp, const population_view<G, F>& src,
                                                  std::uint32_t pair, std::uint32_t generation) {
  if (kp.rule != constraint_rule::stochastic_ranking) return plan_pair(kp, src.rank_key, pair, generation);
  pair_decision p;
  const stochastic_tournament tour{kp.tournament_size, kp.ranking_pf};
  tour(src.rank_key, src.objective, src.violation, sense_of<Problem>(), kp.population, kp.rng, pair, generation,
       p.parent1, p.parent2);
  pair_draws(kp, pair, generation, p);
  return p;
}

/**
 * Gene j of pair `pair`: crossover with draws (pair, generation, gene_a, j)
 * where the pair crosses, mutation with (pair, generation, gene_b, j), then
 * repair (clamp) — the element functors of variation.hpp's cross_loop and
 * mutate_loop, through the same dispatch (operators/dispatch.hpp). `a`, `b` hold the parents' genes on entry, the
 * children's on exit.
 */
template <class Problem>
FUSEDGA_HD FUSEDGA_INLINE void vary_gene(const kernel_params<Problem>& kp, const pair_decision& plan,
                                         std::uint32_t pair, std::uint32_t generation, int j, gene_t<Problem>& a,
                                         gene_t<Problem>& b) {
  using G = gene_t<Problem>;
  const G lo = kp.bounds.lower[j];
  const G hi = kp.bounds.upper[j];
  const draws4 g = kp.rng(pair, generation, stream::gene_a, static_cast<std::uint32_t>(j));
  G na = a, nb = b;
  visit<G>(kp.crossover, [&](const auto& op) { cross_gene(op, na, nb, lo, hi, j, plan.cut_lo, plan.cut_hi, g); });
  a = plan.crosses ? na : a;
  b = plan.crosses ? nb : b;
  const draws4 m = kp.rng(pair, generation, stream::gene_b, static_cast<std::uint32_t>(j));
  visit<G>(kp.mutation, [&](const auto& op) { mutate_pair(op, a, b, lo, hi, m); });
  a = clamp_to_bounds(a, lo, hi);
  b = clamp_to_bounds(b, lo, hi);
  if constexpr (std::is_floating_point_v<G>) {
    if (kp.bounds.is_integer(j)) {  // repair.hpp's round_integer_genes, per gene
      a = round_integer_gene(a);
      b = round_integer_gene(b);
    }
  }
}

/// Both children of pair `pair` into rows c1, c2 (d genes each), from the parents `src` (stochastic ranking reads
/// their objective and violation too).
template <class Problem, class G, class F>
FUSEDGA_HD FUSEDGA_INLINE void make_children(const kernel_params<Problem>& kp, const population_view<G, F>& src,
                                             std::uint32_t pair, std::uint32_t generation, gene_t<Problem>* c1,
                                             gene_t<Problem>* c2) {
  const pair_decision plan = plan_pair(kp, src, pair, generation);
  const int d = kp.dimension;
  const gene_t<Problem>* p1 = src.genes + static_cast<std::size_t>(plan.parent1) * d;
  const gene_t<Problem>* p2 = src.genes + static_cast<std::size_t>(plan.parent2) * d;
  for (int j = 0; j < d; ++j) {
    gene_t<Problem> a = p1[j], b = p2[j];
    vary_gene(kp, plan, pair, generation, j, a, b);
    c1[j] = a;
    c2[j] = b;
  }
}

/// Both children of pair `pair` into rows c1, c2 (d genes each), from parent rows of `src_genes` (N × d).
template <class Problem, class Key>
FUSEDGA_HD FUSEDGA_INLINE void make_children(const kernel_params<Problem>& kp, const gene_t<Problem>* src_genes,
                                             const Key* src_keys, std::uint32_t pair, std::uint32_t generation,
                                             gene_t<Problem>* c1, gene_t<Problem>* c2) {
  const pair_decision plan = plan_pair(kp, src_keys, pair, generation);
  const int d = kp.dimension;
  const gene_t<Problem>* p1 = src_genes + static_cast<std::size_t>(plan.parent1) * d;
  const gene_t<Problem>* p2 = src_genes + static_cast<std::size_t>(plan.parent2) * d;
  for (int j = 0; j < d; ++j) {
    gene_t<Problem> a = p1[j], b = p2[j];
    vary_gene(kp, plan, pair, generation, j, a, b);
    c1[j] = a;
    c2[j] = b;
  }
}

}  // namespace fusedga::detail
