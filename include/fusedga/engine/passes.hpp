#pragma once
/// @file passes.hpp
/// The per-tile passes of a generation. Each is one call per tile index, so a
/// backend only has to run `tile(t)` for all t; each writes a tile summary.
///
///  - `init_tile`: uniform random genes in the bounds, then evaluation.
///  - `evaluate_tile`: evaluation only (objective, violation, rank key).
///  - `offspring_tile`: the fused offspring pass — tournament selection →
///    crossover → mutation → bound repair → gradient repair (when its rate is
///    above 0, repair_pass.hpp) → write → evaluation of the rows just written
///    (still in L1; evaluate_rows, as the other passes). For population-batch
///    problems (`evaluate_population`) it stops after the write: the executor
///    then makes one evaluate_population call over the children and runs
///    `rank_values_tile` over the same tile ranges.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "fusedga/core/philox_lanes.hpp"
#include "fusedga/core/population.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/evaluate.hpp"
#include "fusedga/engine/initial_genes.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/repair_pass.hpp"
#include "fusedga/engine/tile_summary.hpp"
#include "fusedga/engine/variation.hpp"
#include "fusedga/operators/stochastic_ranking.hpp"
#include "fusedga/operators/tournament.hpp"

namespace fusedga::detail {

/// Individuals per evaluation tile (measured: 64 beats 128 for evaluation,
/// while offspring tiles of 64 pairs beat 32 — more key loads in flight).
inline constexpr std::size_t kTileSlots = 64;
static_assert(kTileSlots <= 2 * kTilePairs, "tile summaries are sized for the larger tile");
static_assert(2 * kTilePairs % kTileSlots == 0, "an offspring tile's children are evaluated kTileSlots rows at a time");

/// Slots [begin, end) of evaluation tile t in a population of n.
inline void tile_range(std::size_t t, std::size_t n, std::size_t& begin, std::size_t& end) {
  begin = t * kTileSlots;
  end = begin + kTileSlots < n ? begin + kTileSlots : n;
}

/// Where tile summaries go: totals[t] and best[t * capacity ...].
template <class Key>
struct summary_sink {
  tile_totals* totals;
  candidate<Key>* best;
  std::size_t capacity;
};

/// Evaluates the kTileSlots rows at `rows` (row l at rows + l·d) into obj/vio/key[0, kTileSlots), each row where
/// it is: a loop of a constant trip count, so GCC vectorizes it the same way for every tile; out of line, so the
/// offspring pass and the evaluation pass run the same code (inlined, GCC vectorized them differently).
template <class Problem>
FUSEDGA_NOINLINE void evaluate_tile_rows(const kernel_params<Problem>& kp, const gene_t<Problem>* rows,
                                         fitness_t<Problem>* obj, fitness_t<Problem>* vio,
                                         rank_key_t<fitness_t<Problem>>* key) {
  const std::size_t d = static_cast<std::size_t>(kp.dimension);
  for (std::size_t l = 0; l < kTileSlots; ++l) evaluate_one<1>(kp, rows + l * d, obj[l], vio[l], key[l]);
}

/**
 * Evaluates the `count` (1 to kTileSlots) consecutive rows at `rows` (row l at rows + l·d) into
 * obj/vio/key[0, count); each array has kTileSlots entries. Always as kTileSlots rows by one loop
 * (evaluate_tile_rows): a short group's rows are copied to a buffer first, padded with its last row (whose
 * results in obj/vio/key[count, kTileSlots) mean nothing). So an individual's bits do not depend on its tile:
 * with a loop of the group's own length, GCC's remainder called narrower libmvec variants or scalar libm, whose
 * last bits differ (tests/engine/test_tile_evaluation.cpp). Rows, not a structure-of-arrays staging: GCC
 * vectorizes straight-line problems across the rows and gene-loop problems (Rastrigin, Ackley) along their
 * genes, whose staged lanes it did not vectorize (scalar libm; 2.1x a SHADE generation's time at d = 10,
 * docs/performance.md, "2026-12-02").
 */
template <class Problem>
inline void evaluate_rows(const kernel_params<Problem>& kp, const gene_t<Problem>* rows, std::size_t count,
                          fitness_t<Problem>* obj, fitness_t<Problem>* vio, rank_key_t<fitness_t<Problem>>* key) {
  using G = gene_t<Problem>;
  if (count == kTileSlots) return evaluate_tile_rows(kp, rows, obj, vio, key);
  const std::size_t d = static_cast<std::size_t>(kp.dimension);
  // Short genomes (every GA offspring tile's) pad on the stack, longer ones in the worker's scratch (allocated
  // with the executor: a thread-local buffer allocated whenever a TBB thread first took a run's last tile, in
  // any generation, tests/engine/test_allocation.cpp).
  alignas(64) G on_stack[kTileSlots * kStagedGenes];
  G* padded = d <= static_cast<std::size_t>(kStagedGenes) ? on_stack : kp.scratch.padded_rows;
  std::memcpy(padded, rows, count * d * sizeof(G));
  for (std::size_t l = count; l < kTileSlots; ++l) std::memcpy(padded + l * d, rows + (count - 1) * d, d * sizeof(G));
  evaluate_tile_rows(kp, padded, obj, vio, key);
}

/**
 * Evaluates slots [begin, end) of `pop` (1 to kTileSlots of them) into obj/vio/key[0, end - begin); each array
 * has kTileSlots entries. Used by the evaluation-only, initial and DE passes: by rows (evaluate_rows), or by one
 * batch call for a problem with batch evaluation.
 */
template <class Problem>
inline void evaluate_slots(const kernel_params<Problem>& kp, const population_view<gene_t<Problem>, fitness_t<Problem>>& pop,
                           std::size_t begin, std::size_t end, fitness_t<Problem>* obj, fitness_t<Problem>* vio,
                           rank_key_t<fitness_t<Problem>>* key) {
  if constexpr (has_batch_evaluation<Problem>::value)
    evaluate_batch(kp, pop.row(begin), kp.dimension, 1, static_cast<int>(end - begin), obj, vio, key);
  else
    evaluate_rows(kp, pop.row(begin), end - begin, obj, vio, key);
}

/**
 * Evaluates slots begin + lanes[k] of `pop` (k < n <= kTileSlots) into obj/vio/key[lanes[k]]: each row where it
 * is, or, for a problem with batch evaluation, the rows gathered into one batch call (a batch of one row costs
 * an interpreter its whole dispatch: with one call per row, DE's re-evaluated trials took 3× the wall time of
 * a run on CEC 2020 RC25).
 */
template <class Problem>
inline void evaluate_listed(const kernel_params<Problem>& kp, const population_view<gene_t<Problem>, fitness_t<Problem>>& pop,
                            std::size_t begin, const int* lanes, int n, fitness_t<Problem>* obj, fitness_t<Problem>* vio,
                            rank_key_t<fitness_t<Problem>>* key) {
  using G = gene_t<Problem>;
  using F = fitness_t<Problem>;
  if constexpr (has_batch_evaluation<Problem>::value) {
    const std::size_t d = static_cast<std::size_t>(kp.dimension);
    G* rows = kp.scratch.gathered_rows;  // kTileSlots rows
    for (int k = 0; k < n; ++k)
      std::memcpy(rows + static_cast<std::size_t>(k) * d, pop.row(begin + static_cast<std::size_t>(lanes[k])),
                  d * sizeof(G));
    alignas(64) F o[kTileSlots], v[kTileSlots];
    alignas(64) rank_key_t<F> r[kTileSlots];
    evaluate_batch(kp, rows, static_cast<std::ptrdiff_t>(d), 1, n, o, v, r);
    for (int k = 0; k < n; ++k) {
      obj[lanes[k]] = o[k];
      vio[lanes[k]] = v[k];
      key[lanes[k]] = r[k];
    }
  } else {
    for (int k = 0; k < n; ++k)
      evaluate_one<1>(kp, pop.row(begin + static_cast<std::size_t>(lanes[k])), obj[lanes[k]], vio[lanes[k]],
                      key[lanes[k]]);
  }
}

/// Tile t of the evaluation-only pass over the whole population, then its summary.
template <class Problem>
inline void evaluate_tile(const kernel_params<Problem>& kp, const population_view<gene_t<Problem>, fitness_t<Problem>>& pop,
                          std::size_t t, const summary_sink<rank_key_t<fitness_t<Problem>>>& out) {
  using F = fitness_t<Problem>;
  std::size_t begin, end;
  tile_range(t, pop.size, begin, end);
  alignas(64) F obj[kTileSlots], vio[kTileSlots];
  alignas(64) rank_key_t<F> key[kTileSlots];
  evaluate_slots(kp, pop, begin, end, obj, vio, key);
  const std::size_t count = end - begin;
  if constexpr (!has_batch_evaluation<Problem>::value) apply_handler_keys(kp, obj, vio, key, count);
  std::memcpy(pop.objective + begin, obj, count * sizeof(F));
  std::memcpy(pop.violation + begin, vio, count * sizeof(F));
  std::memcpy(pop.rank_key + begin, key, count * sizeof key[0]);
  summarize(obj, vio, key, count, begin, out.totals[t], out.best + t * out.capacity, out.capacity);
}

/// Tile t of the initial population's genes: uniform in the bounds (initial_genes.hpp), not evaluated.
template <class Problem>
inline void init_genes_tile(const kernel_params<Problem>& kp,
                            const population_view<gene_t<Problem>, fitness_t<Problem>>& pop, std::size_t t) {
  std::size_t begin, end;
  tile_range(t, pop.size, begin, end);
  constexpr int L = static_cast<int>(kTileSlots);
  const int count = static_cast<int>(end - begin);
  const std::uint32_t first = static_cast<std::uint32_t>(begin);
  // The tile's Philox blocks drawn across its individuals (philox_lanes.hpp), a gene block at a time: a scalar
  // block per individual and gene block cost 4.8 of 11.5 ms of generation 0 at d = 1,000, N = 2,000, and 0.3 of
  // 3.1 us at N = 50, d = 4 (docs/performance.md, "2026-12-06: an engine's set-up"). The same bits.
  alignas(64) std::uint32_t u[4][L];
  for (int b = 0; 4 * b < kp.dimension; ++b) {
    draw_lanes<L>(kp.rng, first, 0, stream::init, static_cast<std::uint32_t>(b), u, live_lanes(count, L));
    for (int l = 0; l < count; ++l)
      initial_genes_from(kp, b, lane_draws(u, l), pop.row(begin + static_cast<std::size_t>(l)));
  }
}

/// Tile t of the initial population: genes uniform in the bounds (initial_genes.hpp), then evaluated.
template <class Problem>
inline void init_tile(const kernel_params<Problem>& kp, const population_view<gene_t<Problem>, fitness_t<Problem>>& pop,
                      std::size_t t, const summary_sink<rank_key_t<fitness_t<Problem>>>& out) {
  init_genes_tile(kp, pop, t);
  evaluate_tile(kp, pop, t, out);
}

/**
 * Population-batch problems: slots [begin, end) of `pop`, whose objectives `evaluate_population` wrote, get
 * their violations and rank keys from `values` (rank_population_values: the arithmetic of evaluate_one), then
 * the summary of those slots goes to tile t of `out`. The caller gives the ranges of the per-individual pass
 * it replaces (evaluation tiles, or offspring tiles), so summaries combine in the same order, bit for bit.
 */
template <class Problem>
inline void rank_values_tile(const kernel_params<Problem>& kp,
                             const population_view<gene_t<Problem>, fitness_t<Problem>>& pop, std::size_t begin,
                             std::size_t end, const population_values<fitness_t<Problem>>& values, std::size_t t,
                             const summary_sink<rank_key_t<fitness_t<Problem>>>& out) {
  rank_population_values(kp, values, begin, end - begin, pop.objective + begin, pop.violation + begin,
                         pop.rank_key + begin);
  summarize(pop.objective + begin, pop.violation + begin, pop.rank_key + begin, end - begin, begin, out.totals[t],
            out.best + t * out.capacity, out.capacity);
}

/// Slots [begin, end) of offspring tile t (2·kTilePairs children from slot E on), as offspring_tile fills them.
template <class Problem>
inline void offspring_range(const kernel_params<Problem>& kp, std::size_t t, std::size_t& begin, std::size_t& end) {
  begin = kp.elitism + 2 * static_cast<std::size_t>(kTilePairs) * t;
  end = begin + 2 * kTilePairs < kp.population ? begin + 2 * kTilePairs : kp.population;
}

/// Writes the `count` children of a staged group (child 2l from c1 lane l, 2l + 1 from c2) to consecutive rows.
template <int P, class G>
FUSEDGA_INLINE void store_staged_children(const G* c1, const G* c2, int d, std::size_t count,
                                          G* FUSEDGA_RESTRICT child_rows) {
  if (count == 2 * P) {
    for (int j = 0; j < d; ++j)
      for (int l = 0; l < P; ++l) {
        child_rows[(2 * l) * d + j] = c1[j * P + l];
        child_rows[(2 * l + 1) * d + j] = c2[j * P + l];
      }
  } else {
    for (std::size_t c = 0; c < count; ++c)
      for (int j = 0; j < d; ++j) child_rows[c * d + j] = (c % 2 == 0 ? c1 : c2)[j * P + c / 2];
  }
}

/// Plans pairs [0, live) of a group of P: tournament winners, the pair-level crossover decision and k-point cut
/// points (the other lanes of `plan` are not written). Stochastic ranking's tournaments also read the parents'
/// `objective` and `violation` (N each).
template <int P, class Problem, class Key>
inline void plan_pairs(const kernel_params<Problem>& kp, const Key* keys, const gene_t<Problem>* parent_rows,
                       std::uint32_t first_pair, std::uint32_t generation, pair_plan<P>& plan,
                       const fitness_t<Problem>* objective = nullptr, const fitness_t<Problem>* violation = nullptr,
                       int live = P) {
  if (kp.rule == constraint_rule::stochastic_ranking) {
    const stochastic_tournament tour{kp.tournament_size, kp.ranking_pf};
    for (int l = 0; l < live; ++l)
      tour(keys, objective, violation, sense_of<Problem>(), kp.population, kp.rng, first_pair + l, generation,
           plan.parent1[l], plan.parent2[l]);
  } else if (kp.tournament_size == 2 && P > 1) {
    // tournament<2> in phases: all candidates (the same draws as
    // tournament::candidate, four per Philox block), then all key loads back
    // to back (many cache misses in flight), then the compares.
    std::uint32_t cand[4][P];
    Key key[4][P];
    alignas(32) std::uint32_t r[4][P];
    draw_lanes<P>(kp.rng, first_pair, generation, stream::select, 0, r, live);
    for (int c = 0; c < 4; ++c)
      for (int l = 0; l < live; ++l) cand[c][l] = below(r[c][l], kp.population);
    for (int c = 0; c < 4; ++c)
      for (int l = 0; l < live; ++l) key[c][l] = keys[cand[c][l]];
    for (int l = 0; l < live; ++l) {
      plan.parent1[l] = key[1][l] < key[0][l] ? cand[1][l] : cand[0][l];
      plan.parent2[l] = key[3][l] < key[2][l] ? cand[3][l] : cand[2][l];
    }
#if defined(__GNUC__)
    // Start the parents' (random) row loads now; the pair draws below hide their latency.
    for (int l = 0; l < live; ++l) {
      __builtin_prefetch(parent_rows + static_cast<std::size_t>(plan.parent1[l]) * kp.dimension);
      __builtin_prefetch(parent_rows + static_cast<std::size_t>(plan.parent2[l]) * kp.dimension);
    }
#endif
  } else {
    const tournament<0> tour{kp.tournament_size};
    for (int l = 0; l < live; ++l)
      tour(keys, kp.population, kp.rng, first_pair + l, generation, plan.parent1[l], plan.parent2[l]);
  }
  alignas(32) std::uint32_t r[4][P];
  draw_lanes<P>(kp.rng, first_pair, generation, stream::pair, 0, r, live);
  visit<gene_t<Problem>>(kp.crossover, [&](const auto& op) {
    for (int l = 0; l < live; ++l) {
      plan.crosses[l] = coin<double>(r[0][l], kp.crossover.rate) ? 1 : 0;
      int lo, hi;
      pair_cuts(op, lane_draws(r, l), kp.dimension, lo, hi);
      plan.cut_lo[l] = lo;
      plan.cut_hi[l] = hi;
    }
  });
}

/**
 * Tile t of the fused offspring pass: pairs [t·kTilePairs, ...) of generation
 * `generation` (>= 1) read parents from `src` and write children to slots
 * E + 2·pair (+1) of `dst`. Elite slots [0, E) are not touched.
 */
template <class Problem>
inline void offspring_tile(const kernel_params<Problem>& kp, const population_view<gene_t<Problem>, fitness_t<Problem>>& src,
                           const population_view<gene_t<Problem>, fitness_t<Problem>>& dst, std::uint32_t generation,
                           std::size_t t, const summary_sink<rank_key_t<fitness_t<Problem>>>& out) {
  using G = gene_t<Problem>;
  constexpr int P = kTilePairs;
  const int d = kp.dimension;
  const std::size_t n = kp.population;
  const std::uint32_t first_pair = static_cast<std::uint32_t>(t) * P;
  std::size_t first_slot, end_slot;
  offspring_range(kp, t, first_slot, end_slot);

  // Only the tile's pairs (whole lane groups: philox_lanes.hpp's live_lanes) are planned, varied and evaluated:
  // at N = 12 the 64 pairs of a whole tile were most of a generation.
  const int live = live_lanes(static_cast<int>((end_slot - first_slot + 1) / 2), P);
  pair_plan<P> plan;
  plan_pairs<P>(kp, src.rank_key, src.genes, first_pair, generation, plan, src.objective, src.violation, live);
  const std::uint32_t* p1 = plan.parent1;
  const std::uint32_t* p2 = plan.parent2;

  if (staged_layout<G>(d)) {
    // Structure-of-arrays tile: gather parents, vary, evaluate from the tile, scatter.
    alignas(64) G c1[kStagedGenes * P];
    alignas(64) G c2[kStagedGenes * P];
    for (int j = 0; j < d; ++j)
      for (int l = 0; l < live; ++l) {
        c1[j * P + l] = src.genes[static_cast<std::size_t>(p1[l]) * d + j];
        c2[j * P + l] = src.genes[static_cast<std::size_t>(p2[l]) * d + j];
      }
    vary<P>(kp, first_pair, generation, plan, c1, c2, live);
    if constexpr (has_population_evaluation<Problem>::value) {
      // evaluated after the pass, by one evaluate_population call; ranked and summarized by rank_values_tile
      store_staged_children<P>(c1, c2, d, end_slot - first_slot, dst.row(first_slot));
      return;
    }
    const std::uint32_t repair_evaluations = repair_children<P>(kp, first_pair, generation, c1, c2, end_slot - first_slot);
    using F = fitness_t<Problem>;
    using K = rank_key_t<F>;
    F obj[2 * P], vio[2 * P];
    K key[2 * P];
    if constexpr (has_batch_evaluation<Problem>::value) {
      F o[2][P], v[2][P];
      K k[2][P];
      evaluate_batch(kp, c1, 1, P, live, o[0], v[0], k[0]);
      evaluate_batch(kp, c2, 1, P, live, o[1], v[1], k[1]);
      for (int l = 0; l < live; ++l)
        for (int c = 0; c < 2; ++c) {
          obj[2 * l + c] = o[c][l];
          vio[2 * l + c] = v[c][l];
          key[2 * l + c] = k[c][l];
        }
    }
    // The tile's children are consecutive slots [first_slot, end_slot):
    // child 2l comes from c1 lane l, child 2l+1 from c2 lane l.
    const std::size_t count = end_slot - first_slot;
    store_staged_children<P>(c1, c2, d, count, dst.row(first_slot));
    if constexpr (!has_batch_evaluation<Problem>::value && !has_population_evaluation<Problem>::value) {
      // (population-batch problems returned above) Evaluated from the rows just written (in L1), as the other passes do (evaluate_rows): GCC vectorizes
      // gene-loop problems along their genes there, which it did not across these staged lanes.
      std::size_t c = 0;
      do {  // count >= 1: a do-while, so GCC sees obj/vio/key written before they are read
        evaluate_rows(kp, dst.row(first_slot + c), count - c < kTileSlots ? count - c : kTileSlots, obj + c,
                      vio + c, key + c);
        c += kTileSlots;
      } while (c < count);
      apply_handler_keys(kp, obj, vio, key, count);
    }
    for (std::size_t c = 0; c < count; ++c) {
      dst.objective[first_slot + c] = obj[c];
      dst.violation[first_slot + c] = vio[c];
      dst.rank_key[first_slot + c] = key[c];
    }
    summarize(obj, vio, key, count, first_slot, out.totals[t], out.best + t * out.capacity, out.capacity);
    out.totals[t].repair_evaluations = repair_evaluations;
  } else {
    // Long genomes: children are built in place in their destination rows
    // (the spare row N takes the unpaired last child), SIMD lanes = genes.
    const std::uint32_t last_pair = first_pair + P < kp.pairs() ? first_pair + P : kp.pairs();
    std::uint32_t repair_evaluations = 0;
    for (std::uint32_t pr = first_pair; pr < last_pair; ++pr) {
      const int l = static_cast<int>(pr - first_pair);
      const std::size_t s = kp.elitism + 2 * static_cast<std::size_t>(pr);
      G* r1 = dst.row(s);
      G* r2 = dst.row(s + 1);
      std::memcpy(r1, src.row(p1[l]), sizeof(G) * d);
      std::memcpy(r2, src.row(p2[l]), sizeof(G) * d);
      pair_plan<1> one{{p1[l]}, {p2[l]}, {plan.crosses[l]}, {plan.cut_lo[l]}, {plan.cut_hi[l]}};
      vary<1>(kp, pr, generation, one, r1, r2);
      repair_evaluations += repair_children<1>(kp, pr, generation, r1, r2, s + 1 < n ? 2 : 1);
      if constexpr (!has_batch_evaluation<Problem>::value && !has_population_evaluation<Problem>::value) {
        evaluate_one<1>(kp, r1, dst.objective[s], dst.violation[s], dst.rank_key[s]);
        evaluate_one<1>(kp, r2, dst.objective[s + 1], dst.violation[s + 1], dst.rank_key[s + 1]);
      }
    }
    if constexpr (has_population_evaluation<Problem>::value) return;  // as the staged branch
    if constexpr (has_batch_evaluation<Problem>::value)  // the tile's child rows are consecutive
      evaluate_batch(kp, dst.row(first_slot), d, 1, static_cast<int>(end_slot - first_slot), dst.objective + first_slot,
                     dst.violation + first_slot, dst.rank_key + first_slot);
    else
      apply_handler_keys(kp, dst.objective + first_slot, dst.violation + first_slot, dst.rank_key + first_slot,
                         end_slot - first_slot);
    summarize(dst.objective + first_slot, dst.violation + first_slot, dst.rank_key + first_slot,
              end_slot - first_slot, first_slot, out.totals[t], out.best + t * out.capacity, out.capacity);
    out.totals[t].repair_evaluations = repair_evaluations;
  }
}

}  // namespace fusedga::detail
