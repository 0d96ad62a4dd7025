#pragma once
/// @file rng.hpp
/// Counter-based random numbers: Philox4x32-10 (Salmon et al., "Parallel
/// random numbers: as easy as 1, 2, 3", SC 2011) from Random123.
///
/// Every draw is a pure function of (seed, generation, index, stream, block):
/// no generator state is carried between individuals, threads or kernels, so a
/// run is bitwise identical for any thread count and the CPU and GPU backends
/// draw the same numbers.

#include <cstdint>

#include <Random123/philox.h>

#include "fusedga/core/macros.hpp"

namespace fusedga {

/// What a block of four draws is for; part of the counter so purposes never share numbers.
enum class stream : std::uint32_t {
  init = 1,     ///< initial genes: index = individual, block = j / 4
  select = 2,   ///< tournament candidates: index = pair, block = b (4 candidates each)
  pair = 3,     ///< per-pair crossover decision and cut points: index = pair
  gene_a = 4,   ///< per (pair, gene) crossover draws and child 1 mutation
  gene_b = 5,   ///< per (pair, gene) child 2 mutation and spare draws
  rank = 9,     ///< stochastic ranking's comparison coins: index = pair, block = comparison / 4
  // differential evolution (engine/de_pass.hpp), numbered apart from the GA's
  de_select = 16,   ///< per target: block 0 indices, block 1 jrand, CR, F's first try, blocks 2.. F's later tries
  de_gene = 17,     ///< per target: binomial crossover coins, block = j / 4
  de_after = 18,    ///< per target, after its trial's evaluation: draw 0 its parent's archive slot, draw 1 its repair coin
  migrate = 24,     ///< island model: island i's random destination at epoch e (index = i, generation = e)
  repair = 6,   ///< GA's gradient repair coins: index = pair, draw 0 child 1, draw 1 child 2 (DE: de_after)
};

/// Four independent 32-bit draws.
struct draws4 {
  std::uint32_t v[4];
};

/**
 * The run's random source: a Philox4x32-10 key made from the 64-bit seed.
 * Trivially copyable; thread-safe (pure). Cost: one Philox block (10 rounds)
 * per call; GCC vectorizes it across SIMD lanes when called in a tile loop.
 */
struct counter_rng {
  std::uint32_t key_lo;
  std::uint32_t key_hi;

  static counter_rng from_seed(std::uint64_t seed) {
    return {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
  }

  /// Four draws for (index, generation, stream, block).
  FUSEDGA_HD FUSEDGA_INLINE draws4 operator()(std::uint32_t index, std::uint32_t generation, stream s,
                               std::uint32_t block) const {
    r123::Philox4x32 philox;
    const r123::Philox4x32::ctr_type ctr = {{index, generation, static_cast<std::uint32_t>(s), block}};
    const r123::Philox4x32::key_type key = {{key_lo, key_hi}};
    const auto r = philox(ctr, key);
    return {{r[0], r[1], r[2], r[3]}};
  }
};

/// Uniform in the open interval (0, 1) from 32 random bits (double: 2^-32 resolution).
FUSEDGA_HD inline double unit_double(std::uint32_t u) { return (double(u) + 0.5) * 2.3283064365386963e-10; }
/// Uniform in the open interval (0, 1) from the top 23 bits (float: exact, 2^-23 resolution).
FUSEDGA_HD inline float unit_float(std::uint32_t u) { return (float(u >> 9) + 0.5f) * 1.1920928955078125e-07f; }

/// Uniform in (0, 1) as `Real` (float or double).
template <class Real>
FUSEDGA_HD inline Real unit(std::uint32_t u) {
  if constexpr (sizeof(Real) == sizeof(float)) return unit_float(u);
  else return unit_double(u);
}

/// Uniform integer in [0, n) by multiply-shift (Lemire 2019); bias <= n / 2^32.
FUSEDGA_HD inline std::uint32_t below(std::uint32_t u, std::uint32_t n) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(u) * n) >> 32);
}

/// True with probability `rate` (rate in [0, 1]; 0 never, 1 always).
template <class Real>
FUSEDGA_HD inline bool coin(std::uint32_t u, Real rate) { return unit<Real>(u) < rate; }

}  // namespace fusedga
