#pragma once
/// @file philox_lanes.hpp
/// Philox4x32-10 for many counters at once, for the CPU tile loops.
///
/// GCC vectorizes Random123's scalar Philox, but its 32×32→64-bit multiplies
/// become long widen/multiply/pack sequences (~9 ns per block on the
/// development machine). With AVX2 this file computes eight blocks per
/// instruction stream with `vpmuludq` on even and odd lanes (~3.5 ns per
/// block). Results are bitwise identical to `counter_rng::operator()` (tested),
/// so backends and thread counts still agree.

#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"

#if defined(__AVX2__) && !defined(__CUDACC__)
#include <immintrin.h>
#define FUSEDGA_PHILOX_AVX2 1
#endif

namespace fusedga::detail {

#if defined(FUSEDGA_PHILOX_AVX2)
/// Eight Philox4x32-10 blocks; counters (c0, c1, c2, c3) per lane.
inline void philox8(__m256i x0, __m256i x1, __m256i x2, __m256i x3, std::uint32_t key_lo, std::uint32_t key_hi,
                    __m256i out[4]) {
  const __m256i m0 = _mm256_set1_epi32(static_cast<int>(0xD2511F53u));
  const __m256i m1 = _mm256_set1_epi32(static_cast<int>(0xCD9E8D57u));
  const __m256i w0 = _mm256_set1_epi32(static_cast<int>(0x9E3779B9u));
  const __m256i w1 = _mm256_set1_epi32(static_cast<int>(0xBB67AE85u));
  __m256i k0 = _mm256_set1_epi32(static_cast<int>(key_lo));
  __m256i k1 = _mm256_set1_epi32(static_cast<int>(key_hi));
  const auto mulhilo = [](__m256i a, __m256i m, __m256i& hi, __m256i& lo) {
    const __m256i even = _mm256_mul_epu32(a, m);                                             // lanes 0,2,4,6
    const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(m, 32));  // lanes 1,3,5,7
    lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
    hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
  };
  for (int round = 0; round < 10; ++round) {
    __m256i hi0, lo0, hi1, lo1;
    mulhilo(x0, m0, hi0, lo0);
    mulhilo(x2, m1, hi1, lo1);
    x0 = _mm256_xor_si256(_mm256_xor_si256(hi1, x1), k0);
    x1 = lo1;
    x2 = _mm256_xor_si256(_mm256_xor_si256(hi0, x3), k1);
    x3 = lo0;
    k0 = _mm256_add_epi32(k0, w0);
    k1 = _mm256_add_epi32(k1, w1);
  }
  out[0] = x0;
  out[1] = x1;
  out[2] = x2;
  out[3] = x3;
}
#endif

/// out[w][l] = rng(index + l·index_step, generation, s, block + l·block_step).v[w] for l < L;
/// each step is 0 or 1.
template <int L>
FUSEDGA_INLINE void draw_counters(const counter_rng& rng, std::uint32_t index, std::uint32_t index_step,
                                  std::uint32_t generation, stream s, std::uint32_t block, std::uint32_t block_step,
                                  std::uint32_t (&out)[4][L]) {
#if defined(FUSEDGA_PHILOX_AVX2)
  if constexpr (L % 8 == 0) {
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const auto counter = [&](std::uint32_t base, std::uint32_t step, int l) {  // step is 0 or 1
      const __m256i steps = _mm256_and_si256(lane, _mm256_set1_epi32(-static_cast<int>(step)));
      return _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(base + l * step)), steps);
    };
    for (int l = 0; l < L; l += 8) {
      __m256i r[4];
      philox8(counter(index, index_step, l), _mm256_set1_epi32(static_cast<int>(generation)),
              _mm256_set1_epi32(static_cast<int>(s)), counter(block, block_step, l), rng.key_lo, rng.key_hi, r);
      for (int w = 0; w < 4; ++w) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out[w] + l), r[w]);
    }
    return;
  }
#endif
  for (int l = 0; l < L; ++l) {
    const auto u = static_cast<std::uint32_t>(l);
    const draws4 r = rng(index + u * index_step, generation, s, block + u * block_step);
    for (int w = 0; w < 4; ++w) out[w][l] = r.v[w];
  }
}

/// The draws of L consecutive pairs (or individuals) for one block: lane l = rng(first_index + l, ..., block).
template <int L>
FUSEDGA_INLINE void draw_lanes(const counter_rng& rng, std::uint32_t first_index, std::uint32_t generation, stream s,
                               std::uint32_t block, std::uint32_t (&out)[4][L]) {
  draw_counters<L>(rng, first_index, 1, generation, s, block, 0, out);
}

/// The draws of L consecutive genes of one pair (rows of long genomes): lane l = rng(index, ..., first_block + l).
template <int L>
FUSEDGA_INLINE void draw_blocks(const counter_rng& rng, std::uint32_t index, std::uint32_t generation, stream s,
                                std::uint32_t first_block, std::uint32_t (&out)[4][L]) {
  draw_counters<L>(rng, index, 0, generation, s, first_block, 1, out);
}

}  // namespace fusedga::detail
