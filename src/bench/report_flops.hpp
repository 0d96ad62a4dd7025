#pragma once
/// @file report_flops.hpp
/// Arithmetic operations per evaluation of one individual: the numerator of
/// the roofline's arithmetic intensity (flop per byte moved, with the bytes
/// of bytes_model.hpp). Counted from the source, not from hardware counters,
/// with one convention for built-in and expression problems:
///  - + − × ÷, unary minus, sqrt, abs, floor, ceil, min, max: 1 each;
///  - sin cos tan asin acos atan exp log log10 atan2, and a power with a
///    non-integer exponent: `transcendental_flops` each (the arithmetic of a
///    vectorized polynomial implementation such as libmvec's);
///  - x^n with a literal integer n: the multiplications of binary exponentiation (plus a division for n < 0);
///  - a reduction over n terms: n × (its body + 1 to combine);
///  - the total violation: 2 per inequality (max, add), 4 per equality (abs, subtract eps, max, add);
///  - index arithmetic, loads and stores: 0 (they are integer work or memory traffic).
/// Integer problems (seed/gene-sum) count their integer additions.

#include <string>

#include "fusedga/config/run_config.hpp"
#include "fusedga/expr/ast.hpp"

namespace fusedga {

/// Operations charged for one transcendental function call.
inline constexpr double transcendental_flops = 20;

/// An operation count and how it was obtained.
struct flops_estimate {
  double flops = 0;   ///< operations per individual; 0 = unknown
  std::string basis;  ///< one line: what was counted (empty when unknown)
};

/**
 * The count for a built-in problem by registry name with `dimension` genes:
 * the seed problems and the classic benchmarks (counted by hand from
 * problems/seed/ and problems/classic/); {0, ""} for any other name.
 */
flops_estimate builtin_flops_per_evaluation(const std::string& problem, int dimension);

/**
 * The count for an expression problem, from its AST: every node reachable
 * from the objective and the constraint roots, with reduction bounds
 * evaluated (nested bounds may depend on outer indices). O(operations counted);
 * gives {0, reason} beyond 10^8 node visits.
 */
flops_estimate expression_flops_per_evaluation(const expr::program& p);

/// The count for what `cfg` runs: its expression problem, else its built-in problem by name.
flops_estimate estimate_flops_per_evaluation(const run_config& cfg, int dimension);

}  // namespace fusedga
