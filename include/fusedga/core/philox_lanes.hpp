#pragma once
/// @file philox_lanes.hpp
/// Philox4x32-10 for many counters at once, for the CPU tile loops.
///
/// GCC vectorizes Random123's scalar Philox, but its 32×32→64-bit multiplies
/// become long widen/multiply/pack sequences (~9 ns per block on an earlier
/// development machine). With AVX2 this file computes eight blocks per
/// instruction stream with `vpmuludq` on even and odd lanes (~3.5 ns per block
/// there); with AVX-512F sixteen, the round's two XORs one ternary-logic op
/// (on the current development machine's Zen 5 cores, whose AVX-512 units are
/// full width: 1.07 ns per block against AVX2's 2.46). Results are bitwise
/// identical to `counter_rng::operator()` (tested), so backends, thread counts
/// and SIMD levels still agree.

#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"

#if defined(__AVX2__) && !defined(__CUDACC__)
#include <immintrin.h>
#define FUSEDGA_PHILOX_AVX2 1
#if defined(__AVX512F__)
#define FUSEDGA_PHILOX_AVX512 1
#endif
#endif

namespace fusedga::detail {

/// A tile's lanes are drawn and computed in groups of this many: a multiple of every SIMD width here (16 with
/// AVX-512, 8 with AVX2), so that a group is whole vectors with no scalar remainder.
inline constexpr int kLaneGroup = 16;

/// The lanes a tile of `count` live lanes (of at most `capacity`) draws and computes: count rounded up to whole
/// lane groups, at most `capacity`. The lanes past `count` are computed and never used: a remainder loop over
/// the last few lanes cost more than the whole group.
constexpr int live_lanes(int count, int capacity) {
  const int rounded = (count + kLaneGroup - 1) / kLaneGroup * kLaneGroup;
  return rounded < capacity ? rounded : capacity;
}

#if defined(FUSEDGA_PHILOX_AVX2)
/// The 32-bit lane operations Philox needs, eight lanes wide (AVX2).
struct avx2_lanes {
  using V = __m256i;
  static constexpr int width = 8;
  static V set1(std::uint32_t v) { return _mm256_set1_epi32(static_cast<int>(v)); }
  static V iota() { return _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7); }
  static V add(V a, V b) { return _mm256_add_epi32(a, b); }
  static V bit_and(V a, V b) { return _mm256_and_si256(a, b); }
  static V xor3(V a, V b, V c) { return _mm256_xor_si256(_mm256_xor_si256(a, b), c); }
  /// hi:lo = a·m per 32-bit lane: vpmuludq on the even lanes and on the odd ones shifted down.
  static void mulhilo(V a, V m, V& hi, V& lo) {
    const V even = _mm256_mul_epu32(a, m);
    const V odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(m, 32));
    lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
    hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
  }
  static void store(std::uint32_t* p, V v) { _mm256_storeu_si256(reinterpret_cast<V*>(p), v); }
};
#endif

#if defined(FUSEDGA_PHILOX_AVX512)
/// The same, sixteen lanes wide (AVX-512F). The zero-masking forms with every lane set are the plain
/// instructions; GCC 12's plain forms start from an "undefined" register that -Wmaybe-uninitialized reports.
struct avx512_lanes {
  using V = __m512i;
  static constexpr int width = 16;
  static constexpr __mmask8 all = 0xFF;
  static V set1(std::uint32_t v) { return _mm512_set1_epi32(static_cast<int>(v)); }
  static V iota() { return _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }
  static V add(V a, V b) { return _mm512_add_epi32(a, b); }
  static V bit_and(V a, V b) { return _mm512_and_si512(a, b); }
  static V xor3(V a, V b, V c) { return _mm512_ternarylogic_epi32(a, b, c, 0x96); }  // a ^ b ^ c
  /// `m` is a broadcast: every 32-bit lane holds the multiplier, so the odd lanes' products need only `a`
  /// shifted down. The halves are put in place by one masked in-lane swap each (vpshufd, pairs swapped)
  /// instead of a shift and a blend: 5 operations per mulhilo instead of 7.
  static void mulhilo(V a, V m, V& hi, V& lo) {
    const V even = _mm512_maskz_mul_epu32(all, a, m);                                   // [lo0 hi0] [lo2 hi2] ...
    const V odd = _mm512_maskz_mul_epu32(all, _mm512_maskz_srli_epi64(all, a, 32), m);  // [lo1 hi1] [lo3 hi3] ...
    lo = _mm512_mask_shuffle_epi32(even, 0xAAAA, odd, _MM_PERM_CDAB);                   // [lo0 lo1] [lo2 lo3] ...
    hi = _mm512_mask_shuffle_epi32(odd, 0x5555, even, _MM_PERM_CDAB);                   // [hi0 hi1] [hi2 hi3] ...
  }
  static void store(std::uint32_t* p, V v) { _mm512_storeu_si512(p, v); }
};
#endif

#if defined(FUSEDGA_PHILOX_AVX2)
/// Ops::width Philox4x32-10 blocks, counter (x0, x1, x2, x3) per lane, into x (Random123's rounds).
template <class Ops>
FUSEDGA_INLINE void philox_rounds(typename Ops::V (&x)[4], std::uint32_t key_lo, std::uint32_t key_hi) {
  using V = typename Ops::V;
  const V m0 = Ops::set1(0xD2511F53u), m1 = Ops::set1(0xCD9E8D57u);
  const V w0 = Ops::set1(0x9E3779B9u), w1 = Ops::set1(0xBB67AE85u);
  V k0 = Ops::set1(key_lo), k1 = Ops::set1(key_hi);
  for (int round = 0; round < 10; ++round) {
    V hi0, lo0, hi1, lo1;
    Ops::mulhilo(x[0], m0, hi0, lo0);
    Ops::mulhilo(x[2], m1, hi1, lo1);
    x[0] = Ops::xor3(hi1, x[1], k0);
    x[1] = lo1;
    x[2] = Ops::xor3(hi0, x[3], k1);
    x[3] = lo0;
    k0 = Ops::add(k0, w0);
    k1 = Ops::add(k1, w1);
  }
}

/// draw_counters for L a multiple of Ops::width: lanes [0, lanes) rounded up to a multiple of Ops::width.
template <class Ops, int L>
FUSEDGA_INLINE void draw_counters_simd(const counter_rng& rng, std::uint32_t index, std::uint32_t index_step,
                                       std::uint32_t generation, stream s, std::uint32_t block,
                                       std::uint32_t block_step, std::uint32_t (&out)[4][L], int lanes) {
  using V = typename Ops::V;
  const V lane = Ops::iota();
  const auto counter = [&](std::uint32_t base, std::uint32_t step, int l) {  // step is 0 or 1
    return Ops::add(Ops::set1(base + static_cast<std::uint32_t>(l) * step), Ops::bit_and(lane, Ops::set1(0u - step)));
  };
  for (int l = 0; l < lanes; l += Ops::width) {
    V x[4] = {counter(index, index_step, l), Ops::set1(generation), Ops::set1(static_cast<std::uint32_t>(s)),
              counter(block, block_step, l)};
    philox_rounds<Ops>(x, rng.key_lo, rng.key_hi);
    for (int w = 0; w < 4; ++w) Ops::store(out[w] + l, x[w]);
  }
}
#endif

/// out[w][l] = rng(index + l·index_step, generation, s, block + l·block_step).v[w] for l < lanes (<= L; lanes
/// past it, up to the SIMD width, may be written too, the rest are not); each step is 0 or 1.
template <int L>
FUSEDGA_INLINE void draw_counters(const counter_rng& rng, std::uint32_t index, std::uint32_t index_step,
                                  std::uint32_t generation, stream s, std::uint32_t block, std::uint32_t block_step,
                                  std::uint32_t (&out)[4][L], int lanes = L) {
#if defined(FUSEDGA_PHILOX_AVX512)
  if constexpr (L % avx512_lanes::width == 0) {
    draw_counters_simd<avx512_lanes>(rng, index, index_step, generation, s, block, block_step, out, lanes);
    return;
  }
#endif
#if defined(FUSEDGA_PHILOX_AVX2)
  if constexpr (L % avx2_lanes::width == 0) {
    draw_counters_simd<avx2_lanes>(rng, index, index_step, generation, s, block, block_step, out, lanes);
    return;
  }
#endif
  for (int l = 0; l < lanes; ++l) {
    const auto u = static_cast<std::uint32_t>(l);
    const draws4 r = rng(index + u * index_step, generation, s, block + u * block_step);
    for (int w = 0; w < 4; ++w) out[w][l] = r.v[w];
  }
}

/// Lane l's block of a draw_lanes or draw_blocks output: the four words rng() returns for it.
template <int L>
FUSEDGA_INLINE draws4 lane_draws(const std::uint32_t (&r)[4][L], int l) {
  return draws4{{r[0][l], r[1][l], r[2][l], r[3][l]}};
}

/// The draws of L consecutive pairs (or individuals) for one block: lane l = rng(first_index + l, ..., block),
/// for l < lanes (a tile's live lanes; draw_counters).
template <int L>
FUSEDGA_INLINE void draw_lanes(const counter_rng& rng, std::uint32_t first_index, std::uint32_t generation, stream s,
                               std::uint32_t block, std::uint32_t (&out)[4][L], int lanes = L) {
  draw_counters<L>(rng, first_index, 1, generation, s, block, 0, out, lanes);
}

/// The draws of L consecutive genes of one pair (rows of long genomes): lane l = rng(index, ..., first_block + l).
template <int L>
FUSEDGA_INLINE void draw_blocks(const counter_rng& rng, std::uint32_t index, std::uint32_t generation, stream s,
                                std::uint32_t first_block, std::uint32_t (&out)[4][L]) {
  draw_counters<L>(rng, index, 0, generation, s, first_block, 1, out);
}

}  // namespace fusedga::detail
