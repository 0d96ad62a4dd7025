#pragma once
/// @file repair.hpp
/// Bound repair: the last variation step before evaluation.

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "fusedga/core/bounds.hpp"
#include "fusedga/core/macros.hpp"

namespace fusedga {

/// Clamps a gene into [lo, hi] (projection onto the box, the repair used by
/// pymoo's default and Deb's NSGA-II code). NaN passes through and is ranked
/// worst by its NaN objective. Pure.
template <class Gene>
FUSEDGA_HD FUSEDGA_INLINE Gene clamp_to_bounds(Gene y, Gene lo, Gene hi) {
  return y < lo ? lo : (y > hi ? hi : y);
}

/// An integer variable's gene (Bounds::integer) after a variation step: rounded half up, floor(y + 1/2) — the
/// rounding the expression grammar's table lookups use. In [lo, hi] for y in [lo, hi] (integer bounds).
template <class Gene>
FUSEDGA_HD FUSEDGA_INLINE Gene round_integer_gene(Gene y) {
  return std::floor(y + Gene(0.5));
}

/**
 * Rounds the integer variables (bounds_view::integer) among the genes of the first `live` (default: all) of
 * `lanes` individuals laid out gene-major, gene j of lane l at x[j·lanes + l] (lanes = 1: a row), after their
 * bound repair. No-op when no gene is an integer variable, and for genes of an integer type. Pure; thread-safe.
 */
template <class Gene>
FUSEDGA_HD FUSEDGA_INLINE void round_integer_genes(const bounds_view<Gene>& b, int d, Gene* x, int lanes, int live) {
  if constexpr (std::is_floating_point_v<Gene>) {
    if (b.integer == nullptr) return;
    for (int j = 0; j < d; ++j)
      if (b.integer[j])
        for (int l = 0; l < live; ++l) x[j * lanes + l] = round_integer_gene(x[j * lanes + l]);
  }
}

template <class Gene>
FUSEDGA_HD FUSEDGA_INLINE void round_integer_genes(const bounds_view<Gene>& b, int d, Gene* x, int lanes) {
  round_integer_genes(b, d, x, lanes, lanes);
}

}  // namespace fusedga
