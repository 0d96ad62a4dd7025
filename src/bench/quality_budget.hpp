#pragma once
/// @file quality_budget.hpp
/// The evaluations each run of `ga-bench --quality` may spend: one number for
/// every problem, or the rule of the suite's own competition by dimension.

#include <cstdint>
#include <string>

namespace fusedga {

/**
 * `--budget N` (every problem N evaluations) or `--budget cec2020`: the maximum function evaluations of the
 * CEC 2020 competition on real-world constrained problems (A. Kumar et al., "A test-suite of non-convex
 * constrained optimization problems from the real-world and some baseline results", Swarm and Evolutionary
 * Computation 56 (2020) 100693, evaluation criteria): 10⁵ for d ≤ 10, 2·10⁵ for d ≤ 30, 4·10⁵ for d ≤ 50,
 * 8·10⁵ for d ≤ 150, 10⁶ above, d the number of variables. Value type; thread-safe to share.
 */
struct quality_budget {
  std::uint64_t fixed = 500000;  ///< evaluations per run when `!cec2020`, > 0
  bool cec2020 = false;          ///< by dimension, as above

  /// Evaluations for a problem of `dimension` (>= 1) variables.
  std::uint64_t for_dimension(int dimension) const;
  /// "500000 evaluations per run" or the rule in words, for reports.
  std::string describe() const;
  /// "500000" or "cec2020": what `--budget` was given, and what parse_quality_budget reads back.
  std::string text() const;
};

/// Reads `--budget`'s value: a positive integer (digits only) or `cec2020`.
/// @throws config_error "--budget: expected a positive number of evaluations or cec2020, got 'TEXT'".
quality_budget parse_quality_budget(const std::string& text);

}  // namespace fusedga
