#pragma once
/// @file stochastic_ranking.hpp
/// Tournament selection under stochastic ranking (Runarsson & Yao 2000,
/// "Stochastic ranking for constrained evolutionary optimization", IEEE TEC 4(3)).

#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/core/sense.hpp"
#include "fusedga/operators/gene_kinds.hpp"
#include "fusedga/operators/tournament.hpp"

namespace fusedga {

/**
 * Runarsson & Yao's comparison of a and b (objectives as the user states
 * them, violations >= 0): by objective when both are feasible or when the
 * comparison's coin (`by_objective`, true with probability pf) says so,
 * otherwise by violation. True when a is strictly better. Pure.
 */
template <class Real>
FUSEDGA_HD FUSEDGA_INLINE bool stochastic_better(Real fa, Real va, Real fb, Real vb, Sense sense, bool by_objective) {
  const Real ma = sense == Sense::maximize ? -fa : fa;
  const Real mb = sense == Sense::maximize ? -fb : fb;
  return ((va == Real(0) && vb == Real(0)) || by_objective) ? ma < mb : va < vb;
}

/**
 * k-way tournaments whose comparisons are stochastic ranking's. Runarsson &
 * Yao rank the population by a bubble sort of such comparisons between
 * neighbours; here each comparison of a tournament (candidate c against the
 * best so far of its tournament) is one of them, with its own coin, so the
 * selection pressure of the tournament acts on the stochastic order.
 *
 * Candidates are exactly tournament<0>'s (stream::select), so with pf = 0 the
 * winners are feasibility rules' except for ties. The coin of comparison q
 * (q < k − 1: parent 1's, then parent 2's) is
 * `unit(rng(pair, generation, stream::rank, q / 4).v[q % 4]) < pf`: a pure
 * function of (seed, generation, pair, q), so runs are bitwise the same for
 * any thread count and on every backend. An individual whose rank key is the
 * worst key (NaN objective or violation) never wins against one that is not.
 * Cost: 2k loads each of key, objective and violation. Pure; thread-safe.
 */
struct stochastic_tournament {
  static constexpr gene_kinds genes = gene_kinds::any;
  int size;   ///< k >= 1
  double pf;  ///< probability of comparing by objective, [0, 1]

  template <class Key, class Real>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(const Key* FUSEDGA_RESTRICT keys, const Real* FUSEDGA_RESTRICT objective,
                                            const Real* FUSEDGA_RESTRICT violation, Sense sense, std::uint32_t n,
                                            const counter_rng& rng, std::uint32_t pair, std::uint32_t generation,
                                            std::uint32_t& parent1, std::uint32_t& parent2) const {
    const tournament<0> tour{size};
    const Key worst = static_cast<Key>(~Key(0));
    std::uint32_t best[2] = {0, 0};
    int q = 0;
    for (int c = 0; c < 2 * size; ++c) {
      const std::uint32_t cand = tour.candidate(rng, pair, generation, c, n);
      const int p = c < size ? 0 : 1;
      if (c == 0 || c == size) {
        best[p] = cand;
        continue;
      }
      const std::uint32_t b = best[p];
      const draws4 r = rng(pair, generation, stream::rank, static_cast<std::uint32_t>(q / 4));
      const bool by_objective = coin<double>(r.v[q % 4], pf);
      ++q;
      const bool cand_bad = keys[cand] == worst, best_bad = keys[b] == worst;
      const bool better = best_bad ? !cand_bad
                                   : !cand_bad && stochastic_better(objective[cand], violation[cand], objective[b],
                                                                    violation[b], sense, by_objective);
      best[p] = better ? cand : b;
    }
    parent1 = best[0];
    parent2 = best[1];
  }
};

}  // namespace fusedga
