#pragma once
/// @file variation.hpp
/// Crossover, mutation and repair over a group of P pairs whose children are
/// laid out gene-major (`c[j * P + lane]`): P = kTilePairs for staged tiles
/// (the inner loop runs over lanes = pairs), P = 1 for in-place rows (the
/// inner loop runs over genes). Each loop applies one operator functor to
/// every (pair, gene) element, so GCC turns it into SIMD code.

#include <cstdint>
#include <type_traits>

#include "fusedga/core/rng.hpp"
#include "fusedga/engine/kernel_params.hpp"
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

/// Applies crossover element functor `op(a, b, lo, hi, j, cut_lo, cut_hi, gene_draws)` where the pair crosses.
template <int P, class Problem, class Op>
inline void cross_loop(const kernel_params<Problem>& kp, std::uint32_t first_pair, std::uint32_t generation,
                       const pair_plan<P>& plan, gene_t<Problem>* FUSEDGA_RESTRICT c1,
                       gene_t<Problem>* FUSEDGA_RESTRICT c2, Op op) {
  using G = gene_t<Problem>;
  const int d = kp.dimension;
  for (int j = 0; j < d; ++j) {
    const G lo = kp.bounds.lower[j];
    const G hi = kp.bounds.upper[j];
    for (int l = 0; l < P; ++l) {
      const draws4 g = kp.rng(first_pair + l, generation, stream::gene_a, static_cast<std::uint32_t>(j));
      G a = c1[j * P + l];
      G b = c2[j * P + l];
      op(a, b, lo, hi, j, plan.cut_lo[l], plan.cut_hi[l], g);
      c1[j * P + l] = plan.crosses[l] ? a : c1[j * P + l];
      c2[j * P + l] = plan.crosses[l] ? b : c2[j * P + l];
    }
  }
}

/// Applies mutation element functor `op(c1, c2, lo, hi, draws)` then clamps to the bounds.
template <int P, class Problem, class Op>
inline void mutate_loop(const kernel_params<Problem>& kp, std::uint32_t first_pair, std::uint32_t generation,
                        gene_t<Problem>* FUSEDGA_RESTRICT c1, gene_t<Problem>* FUSEDGA_RESTRICT c2, Op op) {
  using G = gene_t<Problem>;
  const int d = kp.dimension;
  for (int j = 0; j < d; ++j) {
    const G lo = kp.bounds.lower[j];
    const G hi = kp.bounds.upper[j];
    for (int l = 0; l < P; ++l) {
      const draws4 m = kp.rng(first_pair + l, generation, stream::gene_b, static_cast<std::uint32_t>(j));
      G a = c1[j * P + l];
      G b = c2[j * P + l];
      op(a, b, lo, hi, m);
      c1[j * P + l] = clamp_to_bounds(a, lo, hi);
      c2[j * P + l] = clamp_to_bounds(b, lo, hi);
    }
  }
}

/**
 * Crossover then mutation then repair of P pairs, in place on c1/c2 (which
 * hold the parents on entry and the children on exit). Dispatches on the
 * operator kinds once per group, outside the element loops. Operators that
 * need real genes are only instantiated for floating-point genes; `solve`
 * rejects the other combinations before any pass runs.
 */
template <int P, class Problem>
inline void vary(const kernel_params<Problem>& kp, std::uint32_t first_pair, std::uint32_t generation,
                 const pair_plan<P>& plan, gene_t<Problem>* c1, gene_t<Problem>* c2) {
  using G = gene_t<Problem>;
  constexpr bool real = std::is_floating_point_v<G>;
  switch (kp.crossover) {
    case crossover_kind::sbx:
      if constexpr (real) {
        const sbx op = kp.sbx_op;
        cross_loop<P>(kp, first_pair, generation, plan, c1, c2,
                      [op](G& a, G& b, G lo, G hi, int, int, int, const draws4& g) { op(a, b, lo, hi, g); });
      }
      break;
    case crossover_kind::blx_alpha:
      if constexpr (real) {
        const blx_alpha op = kp.blx_op;
        cross_loop<P>(kp, first_pair, generation, plan, c1, c2,
                      [op](G& a, G& b, G lo, G hi, int, int, int, const draws4& g) { op(a, b, lo, hi, g); });
      }
      break;
    case crossover_kind::uniform:
      cross_loop<P>(kp, first_pair, generation, plan, c1, c2,
                    [](G& a, G& b, G lo, G hi, int, int, int, const draws4& g) {
                      uniform_crossover{}(a, b, lo, hi, g);
                    });
      break;
    case crossover_kind::one_point:
    case crossover_kind::two_point: {
      const point_crossover op = kp.point_op;
      cross_loop<P>(kp, first_pair, generation, plan, c1, c2,
                    [op](G& a, G& b, G, G, int j, int lo, int hi, const draws4&) { op(a, b, j, lo, hi); });
      break;
    }
  }
  switch (kp.mutation) {
    case mutation_kind::polynomial:
      if constexpr (real) mutate_loop<P>(kp, first_pair, generation, c1, c2, kp.polynomial_op);
      break;
    case mutation_kind::gaussian:
      if constexpr (real) mutate_loop<P>(kp, first_pair, generation, c1, c2, kp.gaussian_op);
      break;
    case mutation_kind::uniform_reset:
      mutate_loop<P>(kp, first_pair, generation, c1, c2, kp.reset_op);
      break;
    case mutation_kind::creep:
      if constexpr (!real) mutate_loop<P>(kp, first_pair, generation, c1, c2, kp.creep_op);
      break;
  }
}

}  // namespace fusedga::detail
