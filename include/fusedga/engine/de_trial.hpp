#pragma once
/// @file de_trial.hpp
/// One target's trial vector in differential evolution, `FUSEDGA_HD` so the
/// CPU tiles (de_pass.hpp) and the CUDA kernel (backends/cuda/kernels.cuh)
/// build it with the same code and the same draws: F_i and CR_i (fixed, or
/// SHADE's draws around a random memory entry), the mutant's donors, binomial
/// or exponential crossover from jrand and the midpoint bound repair.
///
/// Draws per target i (stream::de_select, index i): block 0 — memory index r,
/// then the mutant's indices; block 1 — jrand, the two uniforms of CR's
/// normal, F's first Cauchy try; blocks 2.. — F's later tries (only where
/// the first is <= 0). stream::de_gene block j/4: gene j's crossover coin.
///
/// Sources: Storn & Price 1997; Zhang & Sanderson 2009; Tanabe & Fukunaga 2013.

#include <cstddef>
#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/shade_state.hpp"
#include "fusedga/operators/differential_evolution.hpp"
#include "fusedga/operators/repair.hpp"

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
FUSEDGA_HD inline de_donors<gene_t<Problem>> de_draw(const kernel_params<Problem>& kp,
                                                     const de_view<gene_t<Problem>>& state,
                                                     const gene_t<Problem>* genes, std::uint32_t i,
                                                     std::uint32_t generation) {
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
    out.F = shade_scale_factor(state.memory_F[r], b.v[3], [&](int t) {
      return kp.rng(i, generation, stream::de_select, 2 + static_cast<std::uint32_t>(t));
    });
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

/**
 * Writes a trial (mutant, binomial or exponential crossover, midpoint repair) into `trial` (d genes);
 * `gene_draws(b)` returns the draws of gene block b (genes 4b .. 4b+3): rng(i, generation, stream::de_gene, b)
 * for target i. Exponential crossover draws only the blocks of its run's coins (de_exponential_length).
 */
template <class Problem, class GeneDraws>
FUSEDGA_HD inline void de_trial_from(const kernel_params<Problem>& kp, const de_donors<gene_t<Problem>>& m,
                                     const gene_t<Problem>* FUSEDGA_RESTRICT target, GeneDraws&& gene_draws,
                                     gene_t<Problem>* FUSEDGA_RESTRICT trial) {
  using G = gene_t<Problem>;
  const int d = kp.dimension;
  const bool rand1 = kp.de.strategy == de_strategy::rand_1_bin;
  if (kp.de.exponential) {
    std::uint32_t block = ~0u;  // the coins' last block, drawn once for its four genes
    draws4 u{};
    const int length = de_exponential_length(m.CR, m.jrand, d, [&](std::uint32_t j) {
      if (j / 4 != block) u = gene_draws(static_cast<int>(block = j / 4));
      return u.v[j % 4];
    });
    for (int j = 0; j < d; ++j) {
      const G x = target[j];
      const G v =
          rand1 ? de_rand_1(m.a[j], m.b[j], m.c[j], m.F) : de_current_to_pbest_1(x, m.a[j], m.b[j], m.c[j], m.F);
      const G y = de_exponential_takes(static_cast<std::uint32_t>(j), m.jrand, length, d) ? v : x;
      trial[j] = de_midpoint_repair(y, x, kp.bounds.lower[j], kp.bounds.upper[j]);
    }
    round_integer_genes(kp.bounds, d, trial, 1);
    return;
  }
  for (int j0 = 0; j0 < d; j0 += 4) {
    const draws4 u = gene_draws(j0 / 4);
    const int end = j0 + 4 < d ? j0 + 4 : d;
    for (int j = j0; j < end; ++j) {
      const G x = target[j];
      const G v =
          rand1 ? de_rand_1(m.a[j], m.b[j], m.c[j], m.F) : de_current_to_pbest_1(x, m.a[j], m.b[j], m.c[j], m.F);
      const G y = de_binomial(v, x, u.v[j - j0], m.CR, static_cast<std::uint32_t>(j) == m.jrand);
      trial[j] = de_midpoint_repair(y, x, kp.bounds.lower[j], kp.bounds.upper[j]);
    }
  }
  round_integer_genes(kp.bounds, d, trial, 1);
}

/// Writes target i's trial (mutant, crossover, midpoint repair) into `trial` (d genes).
template <class Problem>
FUSEDGA_HD inline void de_trial(const kernel_params<Problem>& kp, const de_donors<gene_t<Problem>>& m,
                                const gene_t<Problem>* FUSEDGA_RESTRICT target, std::uint32_t i,
                                std::uint32_t generation, gene_t<Problem>* FUSEDGA_RESTRICT trial) {
  de_trial_from(
      kp, m, target,
      [&](int b) { return kp.rng(i, generation, stream::de_gene, static_cast<std::uint32_t>(b)); }, trial);
}

}  // namespace fusedga::detail
