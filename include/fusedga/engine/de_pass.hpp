#pragma once
/// @file de_pass.hpp
/// The fused differential-evolution pass (CPU tiles): for every target i of
/// an evaluation tile — F_i and CR_i (fixed, or SHADE's draws), the mutant
/// from distinct random individuals (and x_pbest, and the archive), binomial
/// crossover with jrand, midpoint bound repair, gradient repair of the trial
/// with probability `kp.gradient_repair.rate` (repair_pass.hpp: with the
/// ε-constrained method this is Takahama & Sakai's εDEg), evaluation of the trial, then
/// one-to-one survivor selection: the trial replaces its target when its rank
/// key is not worse (<=). Strictly better trials are successes: their parents
/// are flagged for the archive and (F_i, CR_i, |Δ_i|) enter the tile's
/// success sums (shade_state.hpp). Reads `src`, writes `dst` (double
/// buffering, as the GA's pass); every draw is a counter of (seed, target,
/// generation, stream), so the pass is the same for any thread count.
///
/// Draws per target i (stream::de_select, index i): block 0 — memory index r,
/// then the mutant's indices; block 1 — jrand, the two uniforms of CR's
/// normal; blocks 2.. — F's Cauchy tries. stream::de_gene block j/4: gene j's
/// crossover coin.
///
/// Sources: Storn & Price 1997; Zhang & Sanderson 2009; Tanabe & Fukunaga 2013;
/// Takahama & Sakai 2006 (εDEg: gradient-based mutation of trial vectors).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "fusedga/core/population.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/passes.hpp"
#include "fusedga/engine/repair_pass.hpp"
#include "fusedga/engine/shade_state.hpp"
#include "fusedga/operators/differential_evolution.hpp"

namespace fusedga::detail {

/// The parents of target i's mutant: rows of the population (or, for `r2` with current-to-pbest, the archive).
template <class Gene>
struct de_donors {
  const Gene* a;  ///< rand/1: x_r1; current-to-pbest/1: x_pbest
  const Gene* b;  ///< rand/1: x_r2; current-to-pbest/1: x_r1
  const Gene* c;  ///< rand/1: x_r3; current-to-pbest/1: x̃_r2 (population or archive)
  double F;
  double CR;
  std::uint32_t jrand;
};

/**
 * Draws target i's F, CR, jrand and donors (see the file comment). `n` = N; `archive_size` rows of the
 * archive follow the population as candidates for x̃_r2. @pre N >= 4 (rand/1/bin) or N >= 3 (current-to-pbest).
 */
template <class Problem>
inline de_donors<gene_t<Problem>> de_draw(const kernel_params<Problem>& kp, const de_view<gene_t<Problem>>& state,
                                          const gene_t<Problem>* genes, std::uint32_t i, std::uint32_t generation) {
  using G = gene_t<Problem>;
  const de_spec& s = kp.de;
  const std::uint32_t n = kp.population;
  const std::size_t d = static_cast<std::size_t>(kp.dimension);
  const draws4 a = kp.rng(i, generation, stream::de_select, 0);
  const draws4 b = kp.rng(i, generation, stream::de_select, 1);
  de_donors<G> out{};
  out.jrand = below(b.v[0], static_cast<std::uint32_t>(kp.dimension));
  if (s.adaptive()) {
    const std::uint32_t r = below(a.v[0], static_cast<std::uint32_t>(s.memory));
    out.F = shade_scale_factor(state.memory_F[r],
                               [&](int t) { return kp.rng(i, generation, stream::de_select, 2 + static_cast<std::uint32_t>(t)); });
    out.CR = shade_crossover_rate(state.memory_CR[r], b.v[1], b.v[2]);
  } else {
    out.F = s.F;
    out.CR = s.CR;
  }
  std::uint32_t ex[3] = {i, 0, 0};
  if (s.strategy == de_strategy::rand_1_bin) {
    const std::uint32_t r1 = index_excluding(a.v[1], n, ex, 1);
    insert_sorted(ex, 1, r1);
    const std::uint32_t r2 = index_excluding(a.v[2], n, ex, 2);
    insert_sorted(ex, 2, r2);
    const std::uint32_t r3 = index_excluding(a.v[3], n, ex, 3);
    out.a = genes + r1 * d;
    out.b = genes + r2 * d;
    out.c = genes + r3 * d;
  } else {
    const std::uint32_t pbest = state.best[below(a.v[1], s.pbest_count)];
    const std::uint32_t r1 = index_excluding(a.v[2], n, ex, 1);
    insert_sorted(ex, 1, r1);
    const std::uint32_t r2 = index_excluding(a.v[3], n + state.archive_size, ex, 2);
    out.a = genes + pbest * d;
    out.b = genes + r1 * d;
    out.c = r2 < n ? genes + r2 * d : state.archive + (r2 - n) * d;
  }
  return out;
}

/// Writes target i's trial (mutant, binomial crossover, midpoint repair) into `trial` (d genes).
template <class Problem>
inline void de_trial(const kernel_params<Problem>& kp, const de_donors<gene_t<Problem>>& m,
                     const gene_t<Problem>* FUSEDGA_RESTRICT target, std::uint32_t i, std::uint32_t generation,
                     gene_t<Problem>* FUSEDGA_RESTRICT trial) {
  using G = gene_t<Problem>;
  const int d = kp.dimension;
  const bool rand1 = kp.de.strategy == de_strategy::rand_1_bin;
  for (int j0 = 0; j0 < d; j0 += 4) {
    const draws4 u = kp.rng(i, generation, stream::de_gene, static_cast<std::uint32_t>(j0 / 4));
    const int end = j0 + 4 < d ? j0 + 4 : d;
    for (int j = j0; j < end; ++j) {
      const G x = target[j];
      const G v = rand1 ? de_rand_1(m.a[j], m.b[j], m.c[j], m.F) : de_current_to_pbest_1(x, m.a[j], m.b[j], m.c[j], m.F);
      const G y = de_binomial(v, x, u.v[j - j0], m.CR, static_cast<std::uint32_t>(j) == m.jrand);
      trial[j] = de_midpoint_repair(y, x, kp.bounds.lower[j], kp.bounds.upper[j]);
    }
  }
}

/**
 * Tile t (targets [t·kTileSlots, ...)) of the DE pass of generation `generation` (>= 1): trials built in
 * their rows of `dst`, evaluated there (evaluate_slots), then each row keeps its trial or gets its target
 * back from `src`; writes the tile's summary into `out` and its success sums and flags into `state`.
 */
template <class Problem>
inline void de_tile(const kernel_params<Problem>& kp, const de_view<gene_t<Problem>>& state,
                    const population_view<gene_t<Problem>, fitness_t<Problem>>& src,
                    const population_view<gene_t<Problem>, fitness_t<Problem>>& dst, std::uint32_t generation,
                    std::size_t t, const summary_sink<rank_key_t<fitness_t<Problem>>>& out) {
  using G = gene_t<Problem>;
  using F = fitness_t<Problem>;
  using K = rank_key_t<F>;
  static_assert(std::is_floating_point_v<G>, "differential evolution needs real genes (validate rejects others)");
  std::size_t begin, end;
  tile_range(t, src.size, begin, end);
  const std::size_t d = static_cast<std::size_t>(kp.dimension);
  double F_of[kTileSlots], CR_of[kTileSlots];
  std::uint32_t repair_evaluations = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const de_donors<G> m = de_draw(kp, state, src.genes, static_cast<std::uint32_t>(i), generation);
    F_of[i - begin] = m.F;
    CR_of[i - begin] = m.CR;
    de_trial(kp, m, src.row(i), static_cast<std::uint32_t>(i), generation, dst.row(i));
    repair_evaluations += repair_trial(kp, static_cast<std::uint32_t>(i), generation, dst.row(i));  // εDEg
  }
  alignas(64) F obj[kTileSlots], vio[kTileSlots];
  alignas(64) K key[kTileSlots];
  evaluate_slots(kp, dst, begin, end, obj, vio, key);
  if constexpr (!has_batch_evaluation<Problem>::value) apply_handler_keys(kp, obj, vio, key, end - begin);  // ε, SAP
  de_success_sums sums;
  for (std::size_t i = begin; i < end; ++i) {
    const std::size_t l = i - begin;
    const bool better = key[l] < src.rank_key[i];
    state.success[i] = better ? 1 : 0;
    if (better)
      sums.add(de_improvement(src.objective[i], src.violation[i], obj[l], vio[l], sense_of<Problem>(), kp.rule,
                              kp.penalty_weight),
               F_of[l], CR_of[l]);
    if (key[l] <= src.rank_key[i]) {
      dst.objective[i] = obj[l];
      dst.violation[i] = vio[l];
      dst.rank_key[i] = key[l];
    } else {
      std::memcpy(dst.row(i), src.row(i), d * sizeof(G));
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
