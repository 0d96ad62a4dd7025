#pragma once
/// @file bounds.hpp
/// Box constraints: per-gene lower and upper bounds.

#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "fusedga/core/error.hpp"

namespace fusedga {

/**
 * Per-gene box constraints `lower[j] <= x[j] <= upper[j]` (both inclusive).
 *
 * Strict bounds of a model (`3 < y`) are given as the closed bound; the
 * difference is below any GA's resolution. Integer genes use integer bounds.
 * Host-side owning type; kernels receive a `bounds_view`.
 */
template <class Gene>
struct Bounds {
  std::vector<Gene> lower;  ///< size = dimension
  std::vector<Gene> upper;  ///< size = dimension

  Bounds() = default;
  Bounds(std::vector<Gene> lo, std::vector<Gene> hi) : lower(std::move(lo)), upper(std::move(hi)) {}
  /// The same bounds [lo, hi] for all `dimension` genes.
  static Bounds uniform(int dimension, Gene lo, Gene hi) {
    return Bounds(std::vector<Gene>(static_cast<std::size_t>(dimension), lo),
                  std::vector<Gene>(static_cast<std::size_t>(dimension), hi));
  }

  /**
   * Checks that both vectors have `dimension` entries, are finite and ordered, and (real genes) that each
   * width upper − lower is finite.
   * @throws config_error naming the first offending gene.
   */
  void validate(int dimension) const {
    if (lower.size() != static_cast<std::size_t>(dimension) ||
        upper.size() != static_cast<std::size_t>(dimension))
      throw config_error("bounds: expected " + std::to_string(dimension) + " lower and upper bounds, got " +
                         std::to_string(lower.size()) + " and " + std::to_string(upper.size()));
    for (std::size_t j = 0; j < lower.size(); ++j) {
      if constexpr (std::is_floating_point_v<Gene>) {
        if (!std::isfinite(lower[j]) || !std::isfinite(upper[j]))
          throw config_error("bounds: gene " + std::to_string(j) + ": bounds must be finite");
        // Initial genes are lower + u·(upper − lower): an infinite width would make infinite genes.
        if (!std::isfinite(upper[j] - lower[j]))
          throw config_error("bounds: gene " + std::to_string(j) + ": the width upper - lower overflows " +
                             (sizeof(Gene) == 4 ? "float" : "double") + "; expected a range narrower than the largest finite value");
      }
      if constexpr (std::is_integral_v<Gene>) {
        // uniform integer draws use 32 random bits (rng.hpp: below)
        if (static_cast<long double>(upper[j]) - static_cast<long double>(lower[j]) >= 4294967295.0L)
          throw config_error("bounds: gene " + std::to_string(j) + ": an integer range of 2^32 or more values is not supported");
      }
      if (lower[j] > upper[j])
        throw config_error("bounds: gene " + std::to_string(j) + ": lower bound " + std::to_string(lower[j]) +
                           " is greater than upper bound " + std::to_string(upper[j]));
    }
  }
};

/// Non-owning, trivially copyable view of bounds for kernels: two arrays of `dimension` genes.
template <class Gene>
struct bounds_view {
  const Gene* lower;
  const Gene* upper;
};

}  // namespace fusedga
