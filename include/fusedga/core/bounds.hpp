#pragma once
/// @file bounds.hpp
/// A gene's domain: per-gene lower and upper bounds, and which real genes are
/// integer variables.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "fusedga/core/error.hpp"
#include "fusedga/core/macros.hpp"

namespace fusedga {

/// Non-owning, trivially copyable view of bounds for kernels: two arrays of `dimension` genes, and the integer
/// marks (`dimension` bytes; null when no gene is an integer variable).
template <class Gene>
struct bounds_view {
  const Gene* lower;
  const Gene* upper;
  const std::uint8_t* integer = nullptr;
  /// Whether gene j is an integer variable (Bounds::integer).
  FUSEDGA_HD bool is_integer(int j) const { return integer != nullptr && integer[j] != 0; }
};

/// Integer genes (of an integer type, or real genes marked integer) span fewer values than this: their uniform
/// draws use 32 random bits (rng.hpp: below).
inline constexpr long double integer_span_limit = 4294967295.0L;

/// An integer variable's bounds lie within ±integer_variable_limit<Gene>() = 2^(digits − 2): there rounding
/// half up, floor(y + 1/2) (repair.hpp), is exact.
template <class Gene>
double integer_variable_limit() {
  return std::ldexp(1.0, std::numeric_limits<Gene>::digits - 2);
}

/**
 * Per-gene box constraints `lower[j] <= x[j] <= upper[j]` (both inclusive).
 *
 * Strict bounds of a model (`3 < y`) are given as the closed bound; the
 * difference is below any GA's resolution. Integer genes use integer bounds.
 *
 * `integer` (real genes only; empty = none): `integer[j] != 0` makes real gene
 * j an integer variable (pagmo's integer part, pymoo's `Integer`): its bounds
 * must be integers within ±2^22 (float) or ±2^51 (double), where half-up
 * rounding is exact, and the engine keeps it integral — the initial gene is
 * one of the integers in [lower, upper], equally likely, and every variation
 * step (crossover, mutation, DE's trial, the gradient repair's step) rounds it
 * half up after the bound repair (repair.hpp: round_integer_genes), as pymoo's
 * RoundingRepair does (ties to even there). Rounding the population itself, rather than only inside
 * the evaluation (Lampinen & Zelinka 1999), lets DE's differences move on the
 * integer lattice; measured in docs/quality.md ("Integer variables").
 * Host-side owning type; kernels receive a `bounds_view`.
 */
template <class Gene>
struct Bounds {
  std::vector<Gene> lower;  ///< size = dimension
  std::vector<Gene> upper;  ///< size = dimension
  std::vector<std::uint8_t> integer;  ///< empty, or size = dimension: 1 = an integer variable (real genes only)

  Bounds() = default;
  Bounds(std::vector<Gene> lo, std::vector<Gene> hi) : lower(std::move(lo)), upper(std::move(hi)) {}
  /// The kernels' view of these bounds (valid while this object lives unchanged).
  bounds_view<Gene> view() const { return {lower.data(), upper.data(), integer.empty() ? nullptr : integer.data()}; }

  /// The same bounds [lo, hi] for all `dimension` genes.
  static Bounds uniform(int dimension, Gene lo, Gene hi) {
    return Bounds(std::vector<Gene>(static_cast<std::size_t>(dimension), lo),
                  std::vector<Gene>(static_cast<std::size_t>(dimension), hi));
  }

  /**
   * Checks that both vectors have `dimension` entries, are finite and ordered, and (real genes) that each
   * width upper − lower is finite; `integer`, when not empty: `dimension` entries of 0 or 1, real genes only,
   * and an integer gene's bounds are integers within ±2^(digits − 2) spanning fewer than 2^32 values.
   * @throws config_error naming the first offending gene.
   */
  void validate(int dimension) const {
    if (lower.size() != static_cast<std::size_t>(dimension) ||
        upper.size() != static_cast<std::size_t>(dimension))
      throw config_error("bounds: expected " + std::to_string(dimension) + " lower and upper bounds, got " +
                         std::to_string(lower.size()) + " and " + std::to_string(upper.size()));
    validate_integer_marks(dimension);
    for (std::size_t j = 0; j < lower.size(); ++j) {
      // the message's prefix, built only when thrown (for every gene, it was most of an engine's bounds check)
      const auto gene = [j] { return "bounds: gene " + std::to_string(j) + ": "; };
      if constexpr (std::is_floating_point_v<Gene>) {
        if (!std::isfinite(lower[j]) || !std::isfinite(upper[j])) throw config_error(gene() + "bounds must be finite");
        // Initial genes are lower + u·(upper − lower): an infinite width would make infinite genes.
        if (!std::isfinite(upper[j] - lower[j]))
          throw config_error(gene() + "the width upper - lower overflows " + (sizeof(Gene) == 4 ? "float" : "double") +
                             "; expected a range narrower than the largest finite value");
      }
      if (lower[j] > upper[j])
        throw config_error(gene() + "lower bound " + std::to_string(lower[j]) + " is greater than upper bound " +
                           std::to_string(upper[j]));
      const bool marked = !integer.empty() && integer[j] != 0;
      if constexpr (std::is_floating_point_v<Gene>) {
        if (marked) {
          if (std::floor(lower[j]) != lower[j] || std::floor(upper[j]) != upper[j])
            throw config_error(gene() + "an integer variable needs integer bounds, got [" + std::to_string(lower[j]) +
                               ", " + std::to_string(upper[j]) + "]");
          const double limit = integer_variable_limit<Gene>();
          if (std::fabs(static_cast<double>(lower[j])) > limit || std::fabs(static_cast<double>(upper[j])) > limit)
            throw config_error(gene() + "an integer variable's bounds must lie within +-2^" +
                               std::to_string(std::numeric_limits<Gene>::digits - 2) + " in " +
                               (sizeof(Gene) == 4 ? "float" : "double"));
        }
      }
      if ((std::is_integral_v<Gene> || marked) &&
          static_cast<long double>(upper[j]) - static_cast<long double>(lower[j]) >= integer_span_limit)
        throw config_error(gene() + "an integer range of 2^32 or more values is not supported");
    }
  }

 private:
  /// The marks' shape: real genes only, `dimension` entries, each 0 or 1.
  void validate_integer_marks(int dimension) const {
    if (integer.empty()) return;
    if constexpr (!std::is_floating_point_v<Gene>)
      throw config_error("bounds: integer marks are for real genes; genes of an integer type are integers already");
    if (integer.size() != static_cast<std::size_t>(dimension))
      throw config_error("bounds: expected " + std::to_string(dimension) + " integer marks (one per gene), got " +
                         std::to_string(integer.size()));
    for (std::size_t j = 0; j < integer.size(); ++j)
      if (integer[j] > 1) throw config_error("bounds: gene " + std::to_string(j) + ": integer mark must be 0 or 1");
  }
};

}  // namespace fusedga
