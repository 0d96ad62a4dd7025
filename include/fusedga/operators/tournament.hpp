#pragma once
/// @file tournament.hpp
/// Tournament selection (Goldberg & Deb 1991, "A comparative analysis of
/// selection schemes used in genetic algorithms", FOGA 1).

#include <cstddef>
#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/operators/gene_kinds.hpp"

namespace fusedga {

/**
 * Picks both parents of one pair by k-way tournaments with replacement.
 *
 * Candidates are uniform over [0, N); the candidate with the smallest rank key
 * wins (rank keys encode Deb's feasibility rules or the penalty order, see
 * rank_key.hpp); ties go to the candidate drawn first. Draws: stream::select,
 * index = pair, blocks of four candidates (parent 1's k first, then parent 2's).
 * `K` > 0 fixes k at compile time (the vectorized fast path); `K == 0` reads `size`.
 * Cost: 2k key loads, ceil(2k/4) Philox blocks. Pure; thread-safe.
 *
 * The call operator does everything for one pair (one GPU thread). CPU tiles
 * use the two halves, `candidate` and `operator()` over loaded keys, in
 * separate loops so that the random key loads of a whole tile are in flight
 * together.
 */
template <int K = 0>
struct tournament {
  static constexpr gene_kinds genes = gene_kinds::any;  ///< the genes it can vary (its row in catalog.hpp)
  int size;  ///< k >= 1, <= N

  FUSEDGA_HD FUSEDGA_INLINE int k() const { return K > 0 ? K : size; }

  /// Slot of candidate c in [0, 2k) (c < k: parent 1's tournament).
  FUSEDGA_HD FUSEDGA_INLINE std::uint32_t candidate(const counter_rng& rng, std::uint32_t pair,
                                                    std::uint32_t generation, int c, std::uint32_t n) const {
    const draws4 r = rng(pair, generation, stream::select, static_cast<std::uint32_t>(c / 4));
    return below(r.v[c % 4], n);
  }

  template <class Key>
  FUSEDGA_HD FUSEDGA_INLINE void operator()(const Key* FUSEDGA_RESTRICT keys, std::uint32_t n, const counter_rng& rng,
                                            std::uint32_t pair, std::uint32_t generation, std::uint32_t& parent1,
                                            std::uint32_t& parent2) const {
    const int kk = k();
    std::uint32_t best[2] = {0, 0};
    Key best_key[2] = {0, 0};
    for (int c = 0; c < 2 * kk; ++c) {
      const std::uint32_t cand = candidate(rng, pair, generation, c, n);
      const Key key = keys[cand];
      const int p = c < kk ? 0 : 1;
      const bool better = c == 0 || c == kk || key < best_key[p];
      best[p] = better ? cand : best[p];
      best_key[p] = better ? key : best_key[p];
    }
    parent1 = best[0];
    parent2 = best[1];
  }
};

}  // namespace fusedga
