#pragma once
/// @file variation.hpp
/// Crossover, mutation and repair over a group of P pairs whose children are
/// laid out gene-major (`c[j * P + lane]`): P = kTilePairs for staged tiles
/// (the inner loop runs over lanes = pairs), P = 1 for in-place rows (the
/// inner loop runs over genes). Each loop applies one operator functor to
/// every (pair, gene) element, so GCC turns it into SIMD code.
///
/// For real genes in staged tiles the costly operators (SBX, polynomial and
/// Gaussian mutation: exp/log per element) are compacted: the coins of all
/// elements are drawn first, the elements that actually cross or mutate are
/// gathered into contiguous arrays, transformed in one full-width SIMD loop
/// and scattered back. With the default rates this skips about half of the
/// SBX work and two thirds of the mutation work. Each element's result
/// depends only on its own draws, so compaction changes no result.

#include <cstdint>
#include <type_traits>

#include "fusedga/core/philox_lanes.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/operators/dispatch.hpp"
#include "fusedga/operators/mutation.hpp"
#include "fusedga/operators/repair.hpp"

namespace fusedga::detail {

/// Per-pair decisions for a group of P pairs, as structure of arrays (plain
/// integers, so loops over pairs vectorize).
template <int P>
struct pair_plan {
  std::uint32_t parent1[P];
  std::uint32_t parent2[P];
  std::int32_t crosses[P];  ///< 1 if the pair is crossed (probability = crossover rate)
  std::int32_t cut_lo[P];   ///< k-point crossover: genes [cut_lo, cut_hi) are exchanged
  std::int32_t cut_hi[P];
};

/**
 * Calls `f(j, l, draws)` for every gene j < d and lane l < live (<= P) of a group, with
 * draws = rng(first_pair + l, generation, s, j): per gene, the live lanes (P > 1,
 * the inner loop vectorizes over pairs), or per pair, genes in blocks of
 * eight (P = 1, rows; live is 1). The Philox blocks come from philox_lanes.hpp.
 */
template <int P, class Problem, class F>
FUSEDGA_INLINE void for_each_gene_draw(const kernel_params<Problem>& kp, std::uint32_t first_pair,
                                       std::uint32_t generation, stream s, int live, F&& f) {
  const int d = kp.dimension;
  if constexpr (P > 1) {
    for (int j = 0; j < d; ++j) {
      alignas(32) std::uint32_t r[4][P];
      draw_lanes<P>(kp.rng, first_pair, generation, s, static_cast<std::uint32_t>(j), r, live);
      if (live == P)  // a whole tile: a constant trip count (a runtime one cost 1-3 % of a GA generation)
        for (int l = 0; l < P; ++l) f(j, l, lane_draws(r, l));
      else
        for (int l = 0; l < live; ++l) f(j, l, lane_draws(r, l));
    }
  } else {
    (void)live;
    constexpr int B = 8;
    for (int j0 = 0; j0 < d; j0 += B) {
      alignas(32) std::uint32_t r[4][B];
      draw_blocks<B>(kp.rng, first_pair, generation, s, static_cast<std::uint32_t>(j0), r);
      const int n = d - j0 < B ? d - j0 : B;
      for (int k = 0; k < n; ++k) f(j0 + k, 0, lane_draws(r, k));
    }
  }
}

/// Applies crossover element functor `op(a, b, lo, hi, j, cut_lo, cut_hi, gene_draws)` where the pair crosses
/// (lanes l < live).
template <int P, class Problem, class Op>
inline void cross_loop(const kernel_params<Problem>& kp, std::uint32_t first_pair, std::uint32_t generation,
                       const pair_plan<P>& plan, gene_t<Problem>* FUSEDGA_RESTRICT c1,
                       gene_t<Problem>* FUSEDGA_RESTRICT c2, int live, Op op) {
  using G = gene_t<Problem>;
  for_each_gene_draw<P>(kp, first_pair, generation, stream::gene_a, live, [&](int j, int l, const draws4& g) {
    G a = c1[j * P + l];
    G b = c2[j * P + l];
    op(a, b, kp.bounds.lower[j], kp.bounds.upper[j], j, plan.cut_lo[l], plan.cut_hi[l], g);
    c1[j * P + l] = plan.crosses[l] ? a : c1[j * P + l];
    c2[j * P + l] = plan.crosses[l] ? b : c2[j * P + l];
  });
}

/// Applies mutation functor `op` (mutation.hpp) to every gene of both children (lanes l < live), then clamps to
/// the bounds.
template <int P, class Problem, class Op>
inline void mutate_loop(const kernel_params<Problem>& kp, std::uint32_t first_pair, std::uint32_t generation,
                        gene_t<Problem>* FUSEDGA_RESTRICT c1, gene_t<Problem>* FUSEDGA_RESTRICT c2, int live, Op op) {
  using G = gene_t<Problem>;
  for_each_gene_draw<P>(kp, first_pair, generation, stream::gene_b, live, [&](int j, int l, const draws4& m) {
    const G lo = kp.bounds.lower[j];
    const G hi = kp.bounds.upper[j];
    G a = c1[j * P + l];
    G b = c2[j * P + l];
    mutate_pair(op, a, b, lo, hi, m);
    c1[j * P + l] = clamp_to_bounds(a, lo, hi);
    c2[j * P + l] = clamp_to_bounds(b, lo, hi);
  });
}

/**
 * Appends base + e to out[n...] for every e < count with flags[e] != 0 (flags
 * are 0 or 1) and returns the new n. AVX2: eight flags at a time by
 * permutation ("left-pack"); out needs 8 entries of slack.
 */
inline int append_set_indices(const std::int32_t* flags, int count, std::int32_t base, std::int32_t* out, int n) {
  int e = 0;
#if defined(FUSEDGA_PHILOX_AVX2)
  struct pack_table {
    std::uint64_t perm[256];
    constexpr pack_table() : perm() {
      for (int m = 0; m < 256; ++m) {
        std::uint64_t p = 0;
        int k = 0;
        for (int b = 0; b < 8; ++b)
          if (m & (1 << b)) p |= std::uint64_t(b) << (8 * k++);
        perm[m] = p;
      }
    }
  };
  static constexpr pack_table table{};
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (; e + 8 <= count; e += 8) {
    const __m256i f = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(flags + e));
    const int mask = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_sub_epi32(_mm256_setzero_si256(), f)));
    const __m256i idx = _mm256_add_epi32(_mm256_set1_epi32(base + e), lane);
    const __m256i perm = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(table.perm[mask])));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + n), _mm256_permutevar8x32_epi32(idx, perm));
    n += __builtin_popcount(static_cast<unsigned>(mask));
  }
#endif
  for (; e < count; ++e) {
    out[n] = base + e;
    n += flags[e];
  }
  return n;
}

/// append_set_indices over the live lanes of a staged group's d gene rows (flags[j·P + l], l < live; the other
/// lanes are not read): appends base + j·P + l, row by row, as one call over all d·P flags would for live = P.
template <int P>
inline int append_live_lanes(const std::int32_t* flags, int d, int live, std::int32_t base, std::int32_t* out, int n) {
  for (int j = 0; j < d; ++j) n = append_set_indices(flags + j * P, live, base + j * P, out, n);
  return n;
}

/// Elements per SIMD batch in compacted loops: lists are padded to a multiple of it.
inline constexpr int kCompactBatch = 16;

/// Pads a non-empty list of n entries with copies of its first entry up to a
/// multiple of kCompactBatch (so SIMD loops run full width) and returns that length.
inline int pad_to_batch(std::int32_t* list, int n) {
  const int padded = (n + kCompactBatch - 1) / kCompactBatch * kCompactBatch;
  for (int k = n; k < padded; ++k) list[k] = list[0];
  return padded;
}

/// Compacted SBX over a staged group (P > 1, real genes; lanes l < live); see the file comment.
template <int P, class Problem>
inline void sbx_compact(const kernel_params<Problem>& kp, std::uint32_t first_pair, std::uint32_t generation,
                        const pair_plan<P>& plan, gene_t<Problem>* FUSEDGA_RESTRICT c1,
                        gene_t<Problem>* FUSEDGA_RESTRICT c2, int live, const sbx op) {
  using G = gene_t<Problem>;
  constexpr int E = kStagedGenes * P + kCompactBatch;
  const int d = kp.dimension;
  alignas(64) std::int32_t active[E];
  alignas(64) std::uint32_t u[E];
  alignas(64) std::int32_t swap[E];
  for_each_gene_draw<P>(kp, first_pair, generation, stream::gene_a, live, [&](int j, int l, const draws4& g) {
    const int e = j * P + l;
    const G spread = c1[e] < c2[e] ? c2[e] - c1[e] : c1[e] - c2[e];
    active[e] = plan.crosses[l] && sbx::crosses(g, spread) ? 1 : 0;
    u[e] = g.v[1];
    swap[e] = static_cast<std::int32_t>(g.v[2] >> 31);
  });
  alignas(64) std::int32_t list[E + 8];
  const int n = append_live_lanes<P>(active, d, live, 0, list, 0);
  if (n == 0) return;
  const int padded = pad_to_batch(list, n);
  alignas(64) G a[E], b[E], lo[E], hi[E];
  alignas(64) std::uint32_t uk[E];
  alignas(64) std::int32_t sk[E];
  for (int k = 0; k < padded; ++k) {
    const int e = list[k];
    const int j = e / P;
    a[k] = c1[e];
    b[k] = c2[e];
    lo[k] = kp.bounds.lower[j];
    hi[k] = kp.bounds.upper[j];
    uk[k] = u[e];
    sk[k] = swap[e];
  }
  // sbx::cross in its three stages, one loop each: the float-only stage runs at full SIMD width
  // (measured: one loop of cross() made a serial generation about 10 % slower)
  alignas(64) float f1[E], f2[E];  // the spread ratios β1, β2, then (in place) the spread factors
  for (int k = 0; k < padded; ++k) sbx::ratios(a[k], b[k], lo[k], hi[k], f1[k], f2[k]);
  for (int k = 0; k < padded; ++k) op.powers(f1[k], f2[k], uk[k], f1[k], f2[k]);
  for (int k = 0; k < padded; ++k) sbx::children(a[k], b[k], lo[k], hi[k], f1[k], f2[k], sk[k] != 0);
  for (int k = 0; k < n; ++k) {
    c1[list[k]] = a[k];
    c2[list[k]] = b[k];
  }
}

/// Compacted mutation of both children of a staged group (P > 1, real genes; lanes l < live), then repair.
template <int P, class Problem, class Op>
inline void mutate_compact(const kernel_params<Problem>& kp, std::uint32_t first_pair, std::uint32_t generation,
                           gene_t<Problem>* FUSEDGA_RESTRICT c1, gene_t<Problem>* FUSEDGA_RESTRICT c2, int live,
                           Op op) {
  using G = gene_t<Problem>;
  using R = coin_real_t<G>;
  constexpr int E = kStagedGenes * P;
  const int d = kp.dimension;
  alignas(64) std::int32_t hit[2][E];
  alignas(64) std::uint32_t u1[E], u3[E];
  const R rate = R(op.rate);
  for_each_gene_draw<P>(kp, first_pair, generation, stream::gene_b, live, [&](int j, int l, const draws4& m) {
    const int e = j * P + l;
    hit[0][e] = coin<R>(m.v[0], rate) ? 1 : 0;
    hit[1][e] = coin<R>(m.v[2], rate) ? 1 : 0;
    u1[e] = m.v[1];
    u3[e] = m.v[3];
  });
  // list entries: element e of child 0, or E + e for child 1
  alignas(64) std::int32_t list[2 * E + kCompactBatch];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // hit[.][j·P, j·P + live) is written above
#endif
  int n = append_live_lanes<P>(hit[0], d, live, 0, list, 0);  // child 0's elements first
  n = append_live_lanes<P>(hit[1], d, live, E, list, n);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  if (n == 0) return;
  const int padded = pad_to_batch(list, n);
  alignas(64) G y[2 * E + kCompactBatch], lo[2 * E + kCompactBatch], hi[2 * E + kCompactBatch];
  alignas(64) std::uint32_t a1[2 * E + kCompactBatch], a3[2 * E + kCompactBatch];
  alignas(64) std::int32_t ch[2 * E + kCompactBatch];
  for (int k = 0; k < padded; ++k) {
    const int child = list[k] >= E ? 1 : 0;
    const int e = list[k] - child * E;
    const int j = e / P;
    y[k] = child ? c2[e] : c1[e];
    lo[k] = kp.bounds.lower[j];
    hi[k] = kp.bounds.upper[j];
    a1[k] = u1[e];
    a3[k] = u3[e];
    ch[k] = child;
  }
  for (int k = 0; k < padded; ++k) {
    const draws4 m{{0u, a1[k], 0u, a3[k]}};
    y[k] = clamp_to_bounds(op.perturb(y[k], lo[k], hi[k], m, ch[k]), lo[k], hi[k]);
  }
  for (int k = 0; k < n; ++k) {
    const int child = list[k] >= E ? 1 : 0;
    (child ? c2 : c1)[list[k] - child * E] = y[k];
  }
}

/**
 * Crossover then mutation then repair of lanes [0, live) of P pairs, in place on c1/c2 (which
 * hold the parents on entry and the children on exit; the other lanes are not read or written). Dispatches on the
 * operator kinds once per group, outside the element loops (dispatch.hpp's
 * visit; vary is forced inline into the tile as it was before the dispatch
 * moved into a lambda). Operators that need real genes are only instantiated for
 * floating-point genes; `solve` rejects the other combinations before any
 * pass runs.
 */
template <int P, class Problem>
FUSEDGA_INLINE void vary(const kernel_params<Problem>& kp, std::uint32_t first_pair, std::uint32_t generation,
                         const pair_plan<P>& plan, gene_t<Problem>* c1, gene_t<Problem>* c2, int live = P) {
  using G = gene_t<Problem>;
  constexpr bool compact = std::is_floating_point_v<G> && P > 1;
  visit<G>(kp.crossover, [&](const auto& op) {
    if constexpr (compact && std::is_same_v<std::decay_t<decltype(op)>, sbx>) {
      sbx_compact<P>(kp, first_pair, generation, plan, c1, c2, live, op);
    } else {
      cross_loop<P>(kp, first_pair, generation, plan, c1, c2, live,
                    [op](G& a, G& b, G lo, G hi, int j, int cut_lo, int cut_hi, const draws4& g) {
                      cross_gene(op, a, b, lo, hi, j, cut_lo, cut_hi, g);
                    });
    }
  });
  visit<G>(kp.mutation, [&](const auto& op) {
    if constexpr (compact)
      mutate_compact<P>(kp, first_pair, generation, c1, c2, live, op);
    else
      mutate_loop<P>(kp, first_pair, generation, c1, c2, live, op);
  });
  round_integer_genes(kp.bounds, kp.dimension, c1, P, live);
  round_integer_genes(kp.bounds, kp.dimension, c2, P, live);
}

}  // namespace fusedga::detail
