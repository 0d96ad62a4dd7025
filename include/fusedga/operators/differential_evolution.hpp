#pragma once
/// @file differential_evolution.hpp
/// Differential evolution's per-individual pieces, `FUSEDGA_HD` and pure: the
/// choice of distinct random indices, the DE/rand/1 and DE/current-to-pbest/1
/// mutant genes, binomial and exponential crossover, the midpoint bound repair, SHADE's
/// sampling of F and CR, and the improvement |Δ| that weights SHADE's
/// memory update. The fused pass that strings them together is
/// engine/de_pass.hpp; the adaptive state is engine/shade_state.hpp.
///
/// Sources: Storn & Price 1997 (DE/rand/1/bin); Zhang & Sanderson 2009 (JADE:
/// current-to-pbest/1 with an archive of replaced parents); Tanabe & Fukunaga
/// 2013 (SHADE: success-history memories, F ~ Cauchy, CR ~ Normal, midpoint
/// repair between the parent and the violated bound).

#include <cmath>
#include <cstdint>

#include "fusedga/core/double_math.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/core/rank_key.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/core/sense.hpp"
#include "fusedga/operators/catalog.hpp"

namespace fusedga {

/// The resolved DE settings a pass reads (trivially copyable; counts already resolved for the run's N).
struct de_spec {
  de_strategy strategy = de_strategy::shade;
  double F = 0.5;                      ///< fixed scale factor (rand/1/bin, current-to-pbest/1)
  double CR = 0.9;                     ///< fixed crossover rate (rand/1/bin, current-to-pbest/1)
  std::uint32_t pbest_count = 2;       ///< x_pbest among the best pbest_count individuals, in [2, N]
  std::uint32_t archive_capacity = 0;  ///< rows of the archive (0: none)
  int memory = 6;                      ///< SHADE memory entries H
  bool exponential = false;            ///< exponential crossover (else binomial)

  FUSEDGA_HD bool uses_pbest() const { return strategy != de_strategy::rand_1_bin; }
  FUSEDGA_HD bool adaptive() const { return strategy == de_strategy::shade; }
};

namespace detail {

/**
 * A uniform index in [0, n) \ excluded, from 32 random bits: draws in [0, n − k) and steps over the k
 * excluded values (distinct, sorted ascending, each < n). @pre k < n. O(k).
 */
FUSEDGA_HD FUSEDGA_INLINE std::uint32_t index_excluding(std::uint32_t u, std::uint32_t n, const std::uint32_t* excluded,
                                                        int k) {
  std::uint32_t v = below(u, n - static_cast<std::uint32_t>(k));
  for (int m = 0; m < k; ++m) v += v >= excluded[m] ? 1u : 0u;
  return v;
}

/// Inserts `v` into the sorted list `s` of `k` values (room for one more).
FUSEDGA_HD FUSEDGA_INLINE void insert_sorted(std::uint32_t* s, int k, std::uint32_t v) {
  int m = k;
  while (m > 0 && s[m - 1] > v) {
    s[m] = s[m - 1];
    --m;
  }
  s[m] = v;
}

}  // namespace detail

/// DE/rand/1 mutant gene: x_r1 + F (x_r2 − x_r3) (Storn & Price 1997).
template <class Gene>
FUSEDGA_HD FUSEDGA_INLINE Gene de_rand_1(Gene r1, Gene r2, Gene r3, double F) {
  return static_cast<Gene>(r1 + F * (r2 - r3));
}

/// DE/current-to-pbest/1 mutant gene: x_i + F (x_pbest − x_i) + F (x_r1 − x̃_r2) (Zhang & Sanderson 2009).
template <class Gene>
FUSEDGA_HD FUSEDGA_INLINE Gene de_current_to_pbest_1(Gene target, Gene pbest, Gene r1, Gene r2, double F) {
  return static_cast<Gene>(target + F * (pbest - target) + F * (r1 - r2));
}

/// Binomial crossover of one gene: the mutant's where the coin (rate CR) falls or j = jrand, else the target's.
template <class Gene>
FUSEDGA_HD FUSEDGA_INLINE Gene de_binomial(Gene mutant, Gene target, std::uint32_t u, double CR, bool is_jrand) {
  return is_jrand || unit_double(u) < CR ? mutant : target;
}

/**
 * Exponential crossover's run length (Storn & Price 1997, DE/x/y/exp): genes jrand, jrand + 1, ... (cyclically)
 * take the mutant, the first always, each next one while its coin `coin(j)` (32 random bits of gene j) falls below
 * CR (unit_double(u) < CR, as de_binomial's), at most d genes. Reads only the coins of the run and the one that
 * ends it. Pure but for `coin`.
 */
template <class Coin>
FUSEDGA_HD FUSEDGA_INLINE int de_exponential_length(double CR, std::uint32_t jrand, int d, Coin&& coin) {
  int length = 1;
  std::uint32_t j = jrand;
  while (length < d) {
    j = j + 1 == static_cast<std::uint32_t>(d) ? 0u : j + 1;
    if (!(unit_double(coin(j)) < CR)) break;
    ++length;
  }
  return length;
}

/// Whether gene j takes the mutant under exponential crossover: it lies in the run of `length` genes from jrand
/// (cyclically, d genes).
FUSEDGA_HD FUSEDGA_INLINE bool de_exponential_takes(std::uint32_t j, std::uint32_t jrand, int length, int d) {
  const std::uint32_t offset = j >= jrand ? j - jrand : j + static_cast<std::uint32_t>(d) - jrand;
  return offset < static_cast<std::uint32_t>(length);
}

/// SHADE's bound repair: a gene below lo becomes (lo + parent)/2, above hi (hi + parent)/2 (Tanabe & Fukunaga 2013).
template <class Gene>
FUSEDGA_HD FUSEDGA_INLINE Gene de_midpoint_repair(Gene y, Gene parent, Gene lo, Gene hi) {
  return y < lo ? static_cast<Gene>((lo + parent) / 2) : y > hi ? static_cast<Gene>((hi + parent) / 2) : y;
}

/// Cauchy(location, scale) from 32 random bits: location + scale · tan(π (u − 1/2)), u in (0, 1). The same
/// bits on every backend (fmath::tanpi, double_math.hpp).
FUSEDGA_HD FUSEDGA_INLINE double cauchy_variate(std::uint32_t u, double location, double scale) {
  return location + scale * fmath::tanpi(unit_double(u) - 0.5);
}

/// Normal(mean, sd) from two sets of 32 random bits (Box & Muller 1958). The same bits on every backend
/// (fmath::log and fmath::cospi, double_math.hpp; sqrt is correctly rounded everywhere).
FUSEDGA_HD FUSEDGA_INLINE double normal_variate(std::uint32_t u1, std::uint32_t u2, double mean, double sd) {
  return mean + sd * std::sqrt(-2.0 * fmath::log(unit_double(u1))) * fmath::cospi(2.0 * unit_double(u2));
}

/**
 * shade_scale_factor's tries after a rejected first one: F ~ Cauchy(m_f, 0.1) from `draws(t)` (t = 0, 1, ...:
 * one counter block per four tries) until F > 0, then min(F, 1); after 64 more rejections (m_f far below 0,
 * impossible from the memory update) min(max(m_f, 1e-3), 1). The CPU tile computes every first try at once
 * (de_pass.hpp) and calls this for the rejected ones only.
 */
template <class Draws>
FUSEDGA_HD inline double shade_scale_factor_retry(double m_f, Draws&& draws) {
  for (int t = 0; t < 16; ++t) {
    const draws4 r = draws(t);
    for (int c = 0; c < 4; ++c) {
      const double f = cauchy_variate(r.v[c], m_f, 0.1);
      if (f > 0) return f < 1 ? f : 1.0;
    }
  }
  return m_f > 1e-3 ? (m_f < 1 ? m_f : 1.0) : 1e-3;
}

/**
 * SHADE's F_i ~ Cauchy(m_f, 0.1), drawn again while <= 0, then min(F, 1): the first try uses `first`, the
 * later ones `draws(t)` (shade_scale_factor_retry). After 65 failed tries it returns min(max(m_f, 1e-3), 1).
 */
template <class Draws>
FUSEDGA_HD inline double shade_scale_factor(double m_f, std::uint32_t first, Draws&& draws) {
  const double f0 = cauchy_variate(first, m_f, 0.1);
  if (f0 > 0) return f0 < 1 ? f0 : 1.0;
  return shade_scale_factor_retry(m_f, draws);
}

/// SHADE's CR_i ~ N(m_cr, 0.1) clamped to [0, 1].
FUSEDGA_HD FUSEDGA_INLINE double shade_crossover_rate(double m_cr, std::uint32_t u1, std::uint32_t u2) {
  const double cr = normal_variate(u1, u2, m_cr, 0.1);
  return cr < 0 ? 0.0 : cr > 1 ? 1.0 : cr;
}

/**
 * |Δ|, the improvement of a trial over its target that weights SHADE's memory update, measured in the
 * order the rank key encodes: with a static penalty the penalized objectives' difference; with feasibility
 * rules the objective difference when both are feasible, the violation difference when both are
 * infeasible, and the target's violation when the trial is feasible and the target is not. Objectives are
 * taken minimized (sign of `sense`). Pure.
 */
template <class Real>
FUSEDGA_HD inline double de_improvement(Real target_objective, Real target_violation, Real trial_objective,
                                        Real trial_violation, Sense sense, constraint_rule rule, Real penalty_weight) {
  const double s = sense == Sense::maximize ? -1.0 : 1.0;
  const double fx = s * static_cast<double>(target_objective), fu = s * static_cast<double>(trial_objective);
  const double vx = static_cast<double>(target_violation), vu = static_cast<double>(trial_violation);
  double delta;
  if (rule == constraint_rule::penalty)
    delta = (fx + static_cast<double>(penalty_weight) * vx) - (fu + static_cast<double>(penalty_weight) * vu);
  else if (vx == 0 && vu == 0)
    delta = fx - fu;
  else if (vu == 0)
    delta = vx;
  else
    delta = vx - vu;
  return delta < 0 ? -delta : delta;
}

}  // namespace fusedga
