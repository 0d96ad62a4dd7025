#pragma once
/// @file unfused_check.hpp
/// How ga-bench checks an unfused tier (the NumPy-style CPU tier, the Thrust GPU tier) against the fused
/// evaluation of the same genes: the largest relative difference of objective and violation, and its tolerance.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace fusedga::detail {

/// |a - b| / max(|a|, |b|, 1): 0 when equal or NaN on both sides, +inf when NaN on one side only.
inline double relative_difference(double a, double b) {
  if (a == b || (std::isnan(a) && std::isnan(b))) return 0;
  const double d = std::fabs(a - b) / std::max({std::fabs(a), std::fabs(b), 1.0});
  return std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
}

/// The largest relative difference allowed: the two evaluations round differently (operation order,
/// temporaries in the fitness type), so 1e-5 in float and 1e-9 in double.
inline double unfused_tolerance(std::size_t fitness_bytes) { return fitness_bytes == 4 ? 1e-5 : 1e-9; }

}  // namespace fusedga::detail
