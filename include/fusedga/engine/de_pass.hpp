#pragma once
/// @file de_pass.hpp
/// The fused differential-evolution pass (CPU tiles): for every target i of
/// an evaluation tile — F_i and CR_i (fixed, or SHADE's draws), the mutant
/// from distinct random individuals (and x_pbest, and the archive), binomial
/// crossover with jrand, midpoint bound repair, evaluation of the trial, the
/// gradient repair of an infeasible trial with probability
/// `kp.gradient_repair.rate` and its evaluation again (de_repair_infeasible:
/// with the ε-constrained method this is Takahama & Sakai's εDEg), then
/// one-to-one survivor selection: the trial replaces its target when its rank
/// key is not worse (<=). Strictly better trials are successes: their parents
/// are flagged for the archive and (F_i, CR_i, |Δ_i|) enter the tile's
/// success sums (shade_state.hpp). Reads `src`, writes `dst` (double
/// buffering, as the GA's pass); every draw is a counter of (seed, target,
/// generation, stream), so the pass is the same for any thread count. The
/// trials are de_trial.hpp's (the CUDA kernel's, target by target), with the
/// same draws and arithmetic, built here across the tile's targets.
///
/// Sources: Storn & Price 1997; Zhang & Sanderson 2009; Tanabe & Fukunaga 2013;
/// Takahama & Sakai 2006 (εDEg: gradient-based mutation of trial vectors).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "fusedga/core/philox_lanes.hpp"
#include "fusedga/core/population.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/de_trial.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/passes.hpp"
#include "fusedga/engine/repair_pass.hpp"
#include "fusedga/engine/shade_state.hpp"
#include "fusedga/operators/repair.hpp"

namespace fusedga::detail {

static_assert(kTileSlots == kShadeSumTargets, "a DE tile's success sums are one entry of shade_state.hpp's");

/// Gene blocks (of 4 genes) whose crossover coins de_trials draws for a whole tile at once, across the tile's
/// targets: the trials are built 16 genes at a time.
inline constexpr int kDeLaneGeneBlocks = 4;

/// The same, target by target (de_trials_rows): 64 genes at a time.
inline constexpr int kDeRowGeneBlocks = 16;

/// Largest population (N·d genes, in bytes) whose trials de_trials builds target by target when d > 16: its
/// donor rows stay in the caches, and whole rows are read in order. Larger populations are built across the
/// targets, whose 192 donor rows are then fetched together (measured in docs/performance.md, 2026-11-30).
inline constexpr std::size_t kDeRowsMaxBytes = std::size_t(2) << 20;

/// Smallest population plus archive (genes, in bytes) whose donor rows de_trials prefetches: below it they are in L1.
inline constexpr std::size_t kDePrefetchMinBytes = std::size_t(32) << 10;

/// A tile's mutant donors and jrand by target (structure of arrays: de_trials_across reads them across targets).
template <class Gene>
struct de_tile_donors {
  const Gene* a[kTileSlots];  ///< de_donors::a of each target, and so on
  const Gene* b[kTileSlots];
  const Gene* c[kTileSlots];
  alignas(64) std::uint32_t jrand[kTileSlots];
};

/**
 * Genes [j0, j1) (j0 a multiple of 4) of the trials of a tile's `count` targets (rows `targets` of d genes;
 * written to rows `trials`) from their donors `m`, F[l], CR[l] and crossover coins `coins[b][w][l]` (gene
 * j0 + 4b + w of target l): de_trial_from's operations for every target, but gene by gene across the targets,
 * in loops GCC vectorizes (the donors' genes by gathers). Target by target, a row of d <= 16 genes was too
 * short a loop to vectorize and the coin a branch: measured at N = 10⁵, d = 3, one thread, a DE generation took
 * 4.7 ms this way against 6.5 ms. At d = 30 the target-by-target loop, with a scalar Philox block per 4 genes,
 * was 72 % of a generation's instructions (callgrind, Rastrigin, N = 2000).
 */
template <class Problem>
inline void de_trials_across(const kernel_params<Problem>& kp, const de_tile_donors<gene_t<Problem>>& m,
                             const double* F, const double* CR, int count, std::size_t j0, std::size_t j1,
                             const gene_t<Problem>* FUSEDGA_RESTRICT targets,
                             const std::uint32_t (*coins)[4][kTileSlots], gene_t<Problem>* FUSEDGA_RESTRICT trials) {
  using G = gene_t<Problem>;
  const std::size_t d = static_cast<std::size_t>(kp.dimension);
  const bool rand1 = kp.de.strategy == de_strategy::rand_1_bin;
  // Two loops that differ in the mutant only: folded into one lambda over the mutant (same bits), the
  // restrict-qualified rows captured by reference lost their no-alias promise and the loop ran 35 % slower.
  for (std::size_t j = j0; j < j1; ++j) {
    const std::uint32_t* u = coins[(j - j0) / 4][j % 4];
    const G lo = kp.bounds.lower[j], hi = kp.bounds.upper[j];
    const std::uint32_t gene = static_cast<std::uint32_t>(j);
    if (rand1) {
      for (int l = 0; l < count; ++l) {
        const std::size_t at = static_cast<std::size_t>(l) * d + j;
        const G x = targets[at];
        const G v = de_rand_1(m.a[l][j], m.b[l][j], m.c[l][j], F[l]);
        trials[at] = de_midpoint_repair(de_binomial(v, x, u[l], CR[l], gene == m.jrand[l]), x, lo, hi);
      }
    } else {
      for (int l = 0; l < count; ++l) {
        const std::size_t at = static_cast<std::size_t>(l) * d + j;
        const G x = targets[at];
        const G v = de_current_to_pbest_1(x, m.a[l][j], m.b[l][j], m.c[l][j], F[l]);
        trials[at] = de_midpoint_repair(de_binomial(v, x, u[l], CR[l], gene == m.jrand[l]), x, lo, hi);
      }
    }
    if constexpr (std::is_floating_point_v<G>) {
      if (kp.bounds.is_integer(j))  // round_integer_genes (repair.hpp), across
        for (int l = 0; l < count; ++l)
          trials[static_cast<std::size_t>(l) * d + j] = round_integer_gene(trials[static_cast<std::size_t>(l) * d + j]);
    }
  }
}

/**
 * de_trials_across's trials (the same arguments, the same bits), built target by target instead: each target's
 * genes [j0, j1) are one loop over contiguous rows, which GCC vectorizes across genes, after the tile's coins
 * are transposed to one row per target. For d > 16 and populations that stay in the caches (kDeRowsMaxBytes):
 * measured at d = 30 and 100, N = 64 to 4,000, a tile's trials took 15–30 % less time than across the targets,
 * where each gene of every target is a gather and a scalar store on AVX2; at d = 10 they took 6 % more
 * instructions, and from N·d ≈ 8 MB on, more time (fewer donor rows in flight at once).
 */
template <class Problem>
inline void de_trials_rows(const kernel_params<Problem>& kp, const de_tile_donors<gene_t<Problem>>& m, const double* F,
                           const double* CR, int count, std::size_t j0, std::size_t j1,
                           const gene_t<Problem>* FUSEDGA_RESTRICT targets, const std::uint32_t (*coins)[4][kTileSlots],
                           gene_t<Problem>* FUSEDGA_RESTRICT trials) {
  using G = gene_t<Problem>;
  const std::size_t d = static_cast<std::size_t>(kp.dimension);
  const std::size_t w = j1 - j0;
  const std::size_t blocks = (w + 3) / 4;
  alignas(64) std::uint32_t row_coins[kTileSlots][4 * kDeRowGeneBlocks];
  for (int l = 0; l < count; ++l)
    for (std::size_t b = 0; b < blocks; ++b)
      for (int q = 0; q < 4; ++q) row_coins[l][4 * b + static_cast<std::size_t>(q)] = coins[b][q][l];
  const G* FUSEDGA_RESTRICT lo = kp.bounds.lower + j0;
  const G* FUSEDGA_RESTRICT hi = kp.bounds.upper + j0;
  const bool rand1 = kp.de.strategy == de_strategy::rand_1_bin;
  for (int l = 0; l < count; ++l) {
    const std::size_t row = static_cast<std::size_t>(l) * d + j0;
    const G* FUSEDGA_RESTRICT x = targets + row;
    const G* FUSEDGA_RESTRICT a = m.a[l] + j0;
    const G* FUSEDGA_RESTRICT b = m.b[l] + j0;
    const G* FUSEDGA_RESTRICT c = m.c[l] + j0;
    G* FUSEDGA_RESTRICT out = trials + row;
    const std::uint32_t* u = row_coins[l];
    const double f = F[l], cr = CR[l];
    const std::size_t jrand = static_cast<std::size_t>(m.jrand[l]) - j0;  // wraps when jrand < j0: never equal to k
    if (rand1) {
      for (std::size_t k = 0; k < w; ++k)
        out[k] = de_midpoint_repair(de_binomial(de_rand_1(a[k], b[k], c[k], f), x[k], u[k], cr, k == jrand), x[k],
                                    lo[k], hi[k]);
    } else {
      for (std::size_t k = 0; k < w; ++k)
        out[k] = de_midpoint_repair(
            de_binomial(de_current_to_pbest_1(x[k], a[k], b[k], c[k], f), x[k], u[k], cr, k == jrand), x[k], lo[k],
            hi[k]);
    }
    if (kp.bounds.integer != nullptr)  // this chunk's genes of the row
      round_integer_genes(bounds_view<G>{lo, hi, kp.bounds.integer + j0}, static_cast<int>(w), out, 1);
  }
}

/**
 * A DE tile's draws after its trials' evaluation, rng(first + l, generation, stream::de_after, 0) for its
 * targets l < count: draw 0 a success's archive slot (archive_replacement_from), draw 1 an infeasible
 * trial's repair coin. Drawn for the whole tile together (philox_lanes.hpp), and only once something reads them:
 * one block at a time per success or repair cost more than the tile's 64 together.
 */
struct de_after_draws {
  de_after_draws(const counter_rng& rng_, std::uint32_t first_, std::uint32_t generation_, int count_)
      : rng(rng_), first(first_), generation(generation_), count(count_) {}

  const counter_rng& rng;
  std::uint32_t first;
  std::uint32_t generation;
  int count;  ///< the tile's targets: lanes [0, live_lanes(count, kTileSlots)) are drawn
  bool drawn = false;
  alignas(64) std::uint32_t v[4][kTileSlots];  ///< written by the first word() call

  /// Draw w of every target of the tile.
  const std::uint32_t* word(int w) {
    constexpr int L = static_cast<int>(kTileSlots);
    if (!drawn) draw_lanes<L>(rng, first, generation, stream::de_after, 0, v, live_lanes(count, L));
    drawn = true;
    return v[w];
  }
};

/**
 * εDEg's gradient-based mutation of a DE tile's evaluated trials (Takahama & Sakai 2006: an *infeasible* trial
 * is repaired with probability `kp.gradient_repair.rate`, then evaluated): each trial in slots [begin, end) of
 * `trials` with violation vio[l] > 0 is repaired when its coin (draw 1 of `after`) comes up; the repaired ones
 * are then evaluated again into obj/vio/key[l] (evaluate_listed). Feasible trials cost nothing (repairing
 * before the evaluation spent one constraint and Jacobian evaluation on each feasible trial whose coin came
 * up). Returns the evaluations spent: the repair's (one per Newton step) plus one per new evaluation; 0 when the
 * rate is 0 or the problem is not repairable.
 */
template <class Problem>
inline std::uint32_t de_repair_infeasible(const kernel_params<Problem>& kp, de_after_draws& after,
                                          const population_view<gene_t<Problem>, fitness_t<Problem>>& trials,
                                          std::size_t begin, std::size_t end, fitness_t<Problem>* obj,
                                          fitness_t<Problem>* vio, rank_key_t<fitness_t<Problem>>* key) {
  if constexpr (!repairable_v<Problem>) {
    (void)kp, (void)after, (void)trials, (void)begin, (void)end, (void)obj, (void)vio, (void)key;
    return 0;
  } else {
    if (!kp.gradient_repair.enabled()) return 0;
    const int count = static_cast<int>(end - begin);
    // The repaired slots listed by branch-free appends (a tile's feasibility and coins are data: branches on them
    // mispredicted), then repaired in slot order.
    int repaired[kTileSlots];
    int n = 0;
    for (int l = 0; l < count; ++l) {
      repaired[n] = l;
      n += vio[l] > 0 ? 1 : 0;
    }
    if (n == 0) return 0;
    const std::uint32_t* const coins = after.word(1);
    const double rate = kp.gradient_repair.rate;
    int kept = 0;
    for (int k = 0; k < n; ++k) {
      const int l = repaired[k];
      repaired[kept] = l;
      kept += coin<double>(coins[l], rate) ? 1 : 0;
    }
    n = kept;
    std::uint32_t evaluations = 0;
    for (int k = 0; k < n; ++k) {
      evaluations += repair_lane<1>(kp, trials.row(begin + static_cast<std::size_t>(repaired[k])), 0) + 1;
    }
    if (n > 0) evaluate_listed(kp, trials, begin, repaired, n, obj, vio, key);
    return evaluations;
  }
}

/**
 * The trial half of the DE pass: for targets [begin, end), F_i and CR_i (written to F_of/CR_of[i − begin]),
 * the trial built in row i of `dst` (repaired after its evaluation: de_repair_infeasible).
 *
 * The same draws and arithmetic as de_draw + de_trial per target (the CUDA kernel's), in phases over the
 * tile: every Philox block of the tile first, 8 or 16 counters per instruction stream (philox_lanes.hpp), then
 * the donors' indices with their rows prefetched, then F and CR (vectorized over the tile: their tan, log
 * and cos are double_math.hpp's), then the trials: with exponential crossover de_trial's, target by target; else
 * de_trials_rows, 64 genes at a time, when d > 16 and the population is at most kDeRowsMaxBytes (and `rows_allowed`,
 * which tests clear to check the other path), else de_trials_across, 16 genes at a time. Both give the same bits.
 * Measured at N = 10⁵, d = 3: the donor rows' cache misses were a third of the per-target loop when each row was loaded
 * where the mutant needed it.
 */
template <class Problem>
inline void de_trials(const kernel_params<Problem>& kp, const de_view<gene_t<Problem>>& state,
                      const population_view<gene_t<Problem>, fitness_t<Problem>>& src,
                      const population_view<gene_t<Problem>, fitness_t<Problem>>& dst, std::uint32_t generation,
                      std::size_t begin, std::size_t end, double* F_of, double* CR_of, bool rows_allowed = true) {
  using G = gene_t<Problem>;
  static_assert(std::is_floating_point_v<G>, "differential evolution needs real genes (validate rejects others)");
  constexpr int L = static_cast<int>(kTileSlots);
  const std::size_t d = static_cast<std::size_t>(kp.dimension);
  const int count = static_cast<int>(end - begin);
  const std::uint32_t first = static_cast<std::uint32_t>(begin);
  const de_spec& s = kp.de;
  const std::uint32_t n = kp.population;

  // Block 0: memory index and the donors' indices; block 1: jrand, CR's uniforms, F's first try
  // (de_trial.hpp's layout).
  alignas(32) std::uint32_t ra[4][L], rb[4][L];
  // Only the tile's live lanes (whole lane groups) are drawn and computed: at N = 12, 64 lanes' draws and F/CR
  // were most of a generation.
  const int live = live_lanes(count, L);
  draw_lanes<L>(kp.rng, first, generation, stream::de_select, 0, ra, live);
  draw_lanes<L>(kp.rng, first, generation, stream::de_select, 1, rb, live);
  de_tile_donors<G> m;
  if (s.strategy == de_strategy::rand_1_bin) {
    for (int l = 0; l < count; ++l) {
      const std::uint32_t i = first + static_cast<std::uint32_t>(l);
      std::uint32_t ex[3] = {i, 0, 0};
      const std::uint32_t r1 = index_excluding(ra[1][l], n, ex, 1);
      insert_sorted(ex, 1, r1);
      const std::uint32_t r2 = index_excluding(ra[2][l], n, ex, 2);
      insert_sorted(ex, 2, r2);
      const std::uint32_t r3 = index_excluding(ra[3][l], n, ex, 3);
      m.a[l] = src.genes + r1 * d;
      m.b[l] = src.genes + r2 * d;
      m.c[l] = src.genes + r3 * d;
    }
  } else {
    // current-to-pbest's indices over the live lanes, branch-free in 32-bit lanes: index_excluding's steps
    // written out (r1 skips i; r2 skips both, in ascending order), which GCC vectorizes. Target by target,
    // with a branch on the archive, this loop was a fifth of de_trials at N = 50.
    alignas(64) std::uint32_t pbest[L], r1[L], r2[L];
    const std::uint32_t k = static_cast<std::uint32_t>(s.pbest_count);
    const std::uint32_t pool = n + state.archive_size;
    for (int l = 0; l < live; ++l) {
      const std::uint32_t i = first + static_cast<std::uint32_t>(l);
      pbest[l] = state.best[below(ra[1][l], k)];
      std::uint32_t v = below(ra[2][l], n - 1);
      v += v >= i ? 1u : 0u;
      const std::uint32_t lo = i < v ? i : v, hi = i < v ? v : i;
      std::uint32_t w = below(ra[3][l], pool - 2);
      w += w >= lo ? 1u : 0u;
      w += w >= hi ? 1u : 0u;
      r1[l] = v;
      r2[l] = w;
    }
    for (int l = 0; l < count; ++l) {
      const bool in_population = r2[l] < n;
      const G* const base = in_population ? src.genes : state.archive;
      m.a[l] = src.genes + pbest[l] * d;
      m.b[l] = src.genes + r1[l] * d;
      m.c[l] = base + (in_population ? r2[l] : r2[l] - n) * d;
    }
  }
  // The donor rows are prefetched unless the population and archive fit in L1 (rc31 at N = 50: 3 KB), where the
  // six prefetches per target were 5 % of de_trials' time
#if defined(__GNUC__)
  if ((std::size_t(n) + state.archive_size) * d * sizeof(G) > kDePrefetchMinBytes) {
    for (int l = 0; l < count; ++l) {
      const G* rows[3] = {m.a[l], m.b[l], m.c[l]};
      for (int r = 0; r < 3; ++r) {
        __builtin_prefetch(rows[r]);
        __builtin_prefetch(rows[r] + d - 1);
      }
    }
  }
#endif
  for (int l = 0; l < count; ++l) m.jrand[l] = below(rb[0][l], static_cast<std::uint32_t>(kp.dimension));
  if (s.adaptive()) {
    alignas(64) double mf[L], mcr[L], f0[L], cr[L];
    for (int l = 0; l < live; ++l) {
      const std::uint32_t r = below(ra[0][l], static_cast<std::uint32_t>(s.memory));
      mf[l] = state.memory_F[r];
      mcr[l] = state.memory_CR[r];
    }
    // F's first Cauchy try and CR for the live lanes in loops GCC vectorizes (double_math.hpp: no libm call),
    // a lane group at a time (a fixed trip count: no scalar remainder)
    for (int g = 0; g < live; g += kLaneGroup)
      for (int l = g; l < g + kLaneGroup; ++l) f0[l] = cauchy_variate(rb[3][l], mf[l], 0.1);
    for (int g = 0; g < live; g += kLaneGroup)
      for (int l = g; l < g + kLaneGroup; ++l) cr[l] = shade_crossover_rate(mcr[l], rb[1][l], rb[2][l]);
    // shade_scale_factor's first try is f0; the targets where it is rejected (F <= 0), listed by branch-free
    // appends, take its later tries (shade_scale_factor_retry)
    int rejected[L];
    int n_rejected = 0;
    for (int l = 0; l < count; ++l) {
      F_of[l] = f0[l] < 1 ? f0[l] : 1.0;
      CR_of[l] = cr[l];
      rejected[n_rejected] = l;
      n_rejected += f0[l] > 0 ? 0 : 1;
    }
    for (int q = 0; q < n_rejected; ++q) {
      const int l = rejected[q];
      const std::uint32_t i = first + static_cast<std::uint32_t>(l);
      F_of[l] = shade_scale_factor_retry(
          mf[l], [&](int t) { return kp.rng(i, generation, stream::de_select, 2 + static_cast<std::uint32_t>(t)); });
    }
  } else {
    for (int l = 0; l < count; ++l) {
      F_of[l] = s.F;
      CR_of[l] = s.CR;
    }
  }
  if (s.exponential) {  // target by target, as the CUDA kernel (de_trial): a run's coins are a few scalar blocks
    for (int l = 0; l < count; ++l) {
      const std::size_t row = (begin + static_cast<std::size_t>(l)) * d;
      const de_donors<G> t{m.a[l], m.b[l], m.c[l], F_of[l], CR_of[l], m.jrand[l]};
      de_trial(kp, t, src.genes + row, first + static_cast<std::uint32_t>(l), generation, dst.genes + row);
    }
    return;
  }
  const int gene_blocks = (kp.dimension + 3) / 4;
  const bool by_rows = rows_allowed && d > 4 * kDeLaneGeneBlocks && std::size_t(n) * d * sizeof(G) <= kDeRowsMaxBytes;
  const int chunk = by_rows ? kDeRowGeneBlocks : kDeLaneGeneBlocks;
  alignas(32) std::uint32_t rg[kDeRowGeneBlocks][4][L];
  for (int b0 = 0; b0 < gene_blocks; b0 += chunk) {
    const int blocks = std::min(chunk, gene_blocks - b0);
    for (int b = 0; b < blocks; ++b)
      draw_lanes<L>(kp.rng, first, generation, stream::de_gene, static_cast<std::uint32_t>(b0 + b), rg[b], live);
    const std::size_t j0 = 4 * static_cast<std::size_t>(b0);
    const std::size_t j1 = std::min(d, j0 + 4 * static_cast<std::size_t>(blocks));
    if (by_rows)
      de_trials_rows(kp, m, F_of, CR_of, count, j0, j1, src.row(begin), rg, dst.row(begin));
    else
      de_trials_across(kp, m, F_of, CR_of, count, j0, j1, src.row(begin), rg, dst.row(begin));
  }
}

/**
 * The selection half of the DE pass, tile t = targets [begin, end): the trial in row
 * i of `dst` has objective, violation and rank key obj/vio/key[i − begin] (its F and CR at F_of/CR_of[i −
 * begin]); each row keeps its trial when its key is not worse than the target's, else gets its target back
 * from `src`. Writes the tile's successes (their archive slots from `after`) and success sums into `state` and
 * its summary (with `repair_evaluations`) into `out`.
 */
template <class Problem>
inline void de_select(const kernel_params<Problem>& kp, const de_view<gene_t<Problem>>& state,
                      const population_view<gene_t<Problem>, fitness_t<Problem>>& src,
                      const population_view<gene_t<Problem>, fitness_t<Problem>>& dst, std::size_t t,
                      std::size_t begin, std::size_t end, const fitness_t<Problem>* obj, const fitness_t<Problem>* vio,
                      const rank_key_t<fitness_t<Problem>>* key, const double* F_of, const double* CR_of,
                      de_after_draws& after, std::uint32_t repair_evaluations,
                      const summary_sink<rank_key_t<fitness_t<Problem>>>& out) {
  using G = gene_t<Problem>;
  const std::size_t d = static_cast<std::size_t>(kp.dimension);
  de_success_sums sums;
  for (std::size_t i = begin; i < end; ++i) {
    const std::size_t l = i - begin;
    const bool better = key[l] < src.rank_key[i];
    if (better) {
      if (state.archived)
        state.archived[begin + sums.count] = {static_cast<std::uint32_t>(i),
                                              archive_replacement_from(after.word(0)[l], kp.de.archive_capacity)};
      sums.add(de_improvement(src.objective[i], src.violation[i], obj[l], vio[l], sense_of<Problem>(), kp.rule,
                              kp.penalty_weight),
               F_of[l], CR_of[l]);
    }
    if (key[l] <= src.rank_key[i]) {
      dst.objective[i] = obj[l];
      dst.violation[i] = vio[l];
      dst.rank_key[i] = key[l];
    } else {
      G* const row = dst.row(i);
      const G* const target = src.row(i);
      for (std::size_t j = 0; j < d; ++j) row[j] = target[j];  // inline: a libc memcpy call cost more for short rows
      dst.objective[i] = src.objective[i];
      dst.violation[i] = src.violation[i];
      dst.rank_key[i] = src.rank_key[i];
    }
  }
  state.tile_success[t] = sums;
  summarize(dst.objective + begin, dst.violation + begin, dst.rank_key + begin, end - begin, begin, out.totals[t],
            out.best + t * out.capacity, out.capacity);
  out.totals[t].repair_evaluations = repair_evaluations;
}

/**
 * Tile t (targets [t·kTileSlots, ...)) of the DE pass of generation `generation` (>= 1): trials built in
 * their rows of `dst` (de_trials), evaluated there (evaluate_slots), then each row keeps its trial or gets its
 * target back from `src` (de_select); writes the tile's summary into `out` and its success sums and flags into
 * `state`.
 */
template <class Problem>
inline void de_tile(const kernel_params<Problem>& kp, const de_view<gene_t<Problem>>& state,
                    const population_view<gene_t<Problem>, fitness_t<Problem>>& src,
                    const population_view<gene_t<Problem>, fitness_t<Problem>>& dst, std::uint32_t generation,
                    std::size_t t, const summary_sink<rank_key_t<fitness_t<Problem>>>& out) {
  using F = fitness_t<Problem>;
  using K = rank_key_t<F>;
  std::size_t begin, end;
  tile_range(t, src.size, begin, end);
  double F_of[kTileSlots], CR_of[kTileSlots];
  de_trials(kp, state, src, dst, generation, begin, end, F_of, CR_of);
  alignas(64) F obj[kTileSlots], vio[kTileSlots];
  alignas(64) K key[kTileSlots];
  evaluate_slots(kp, dst, begin, end, obj, vio, key);
  de_after_draws after{kp.rng, static_cast<std::uint32_t>(begin), generation, static_cast<int>(end - begin)};
  const std::uint32_t repair_evaluations = de_repair_infeasible(kp, after, dst, begin, end, obj, vio, key);
  if constexpr (!has_batch_evaluation<Problem>::value) apply_handler_keys(kp, obj, vio, key, end - begin);  // ε, SAP
  de_select(kp, state, src, dst, t, begin, end, obj, vio, key, F_of, CR_of, after, repair_evaluations,
            out);
}

/**
 * Population-batch problems (`evaluate_population`): the DE pass in two tile passes around the executor's one
 * evaluate_population call over the N trial rows of `dst`. This is the first, tile t's trials (de_trials),
 * with F_i and CR_i kept at F_all/CR_all[i] for the second.
 */
template <class Problem>
inline void de_trial_tile(const kernel_params<Problem>& kp, const de_view<gene_t<Problem>>& state,
                          const population_view<gene_t<Problem>, fitness_t<Problem>>& src,
                          const population_view<gene_t<Problem>, fitness_t<Problem>>& dst, std::uint32_t generation,
                          std::size_t t, double* F_all, double* CR_all) {
  std::size_t begin, end;
  tile_range(t, src.size, begin, end);
  de_trials(kp, state, src, dst, generation, begin, end, F_all + begin, CR_all + begin);
}

/// The second: tile t's trials ranked from the objectives and constraint `values` the call wrote
/// (rank_population_values), then de_select.
template <class Problem>
inline void de_select_tile(const kernel_params<Problem>& kp, const de_view<gene_t<Problem>>& state,
                           const population_view<gene_t<Problem>, fitness_t<Problem>>& src,
                           const population_view<gene_t<Problem>, fitness_t<Problem>>& dst, std::uint32_t generation,
                           const population_values<fitness_t<Problem>>& values, const double* F_all,
                           const double* CR_all, std::size_t t,
                           const summary_sink<rank_key_t<fitness_t<Problem>>>& out) {
  using F = fitness_t<Problem>;
  using K = rank_key_t<F>;
  std::size_t begin, end;
  tile_range(t, src.size, begin, end);
  alignas(64) F obj[kTileSlots], vio[kTileSlots];
  alignas(64) K key[kTileSlots];
  std::memcpy(obj, dst.objective + begin, (end - begin) * sizeof(F));
  rank_population_values(kp, values, begin, end - begin, obj, vio, key);
  de_after_draws after{kp.rng, static_cast<std::uint32_t>(begin), generation, static_cast<int>(end - begin)};
  de_select(kp, state, src, dst, t, begin, end, obj, vio, key, F_all + begin, CR_all + begin, after, 0,
            out);
}

/// Tile t of a summary-only pass over the stored values of `pop` (after an in-place survivor selection).
template <class Gene, class Fitness>
inline void summarize_tile(const population_view<Gene, Fitness>& pop, std::size_t t,
                           const summary_sink<rank_key_t<Fitness>>& out) {
  std::size_t begin, end;
  tile_range(t, pop.size, begin, end);
  summarize(pop.objective + begin, pop.violation + begin, pop.rank_key + begin, end - begin, begin, out.totals[t],
            out.best + t * out.capacity, out.capacity);
}

}  // namespace fusedga::detail
