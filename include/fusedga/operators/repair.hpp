#pragma once
/// @file repair.hpp
/// Bound repair: the last variation step before evaluation.

#include "fusedga/core/macros.hpp"

namespace fusedga {

/// Clamps a gene into [lo, hi] (projection onto the box, the repair used by
/// pymoo's default and Deb's NSGA-II code). NaN passes through and is ranked
/// worst by its NaN objective. Pure.
template <class Gene>
FUSEDGA_HD FUSEDGA_INLINE Gene clamp_to_bounds(Gene y, Gene lo, Gene hi) {
  return y < lo ? lo : (y > hi ? hi : y);
}

}  // namespace fusedga
