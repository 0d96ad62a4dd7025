#pragma once
/// @file interpreter.hpp
/// The expression interpreter: evaluates a program node by node over a tile
/// of individuals, one SIMD-friendly pass per node with a temporary per node
/// (the NumPy way). Always available; the reference for the JIT and the
/// "unfused vectorized" tier of reports.

#include <memory>

#include "fusedga/expr/ast.hpp"
#include "fusedga/expr/evaluator.hpp"

namespace fusedga::expr {

/**
 * An interpreter for `p` (copied) in precision Real (float or double).
 *
 * `evaluate` runs chunks of 64 individuals: one vectorizable loop over the 64
 * lanes per operation, into temporaries assigned when the interpreter is
 * built (they stay in L1); gene-free subexpressions are computed once, not per
 * lane. Thread-safe: concurrent calls share nothing but the immutable plan
 * (scratch memory is per thread, allocated on a thread's first call and
 * reused). Results of an individual do not depend on its position in the
 * batch, the batch size or the layout.
 *
 * Semantics, shared with the code generator so the JIT agrees to rounding
 * (src/expr/interp_ops.hpp has the details): arithmetic in Real; the
 * functions are std:: ones; min(a, b) = (a < b || a != a) ? a : b and max
 * alike, NaN if either argument is; a^n for a literal integer exponent
 * |n| <= 32 (also -n written as `x^-n`) is repeated multiplication
 * ((a·a)·a)···a, a^-n = 1/a^n, a^0 = 1; a^0.5 = sqrt(a); other powers
 * std::pow; reductions accumulate from lo to hi from 0, 1, +inf, -inf;
 * violation = Σ in declaration order of (g or |h| − eps), each added as
 * `e <= 0 ? 0 : e` (NaN propagates).
 *
 * @throws std::invalid_argument for a structurally unusable program (no
 *   objective, node indices out of range; never for a checked program).
 */
template <class Real>
std::unique_ptr<evaluator<Real>> make_interpreter(const program& p);

/**
 * The straightforward reference: one individual, recursive, in double, no
 * tiles. `x` holds the d genes. Used by tests to check the interpreter and
 * the JIT. Returns the objective and the raw constraint values in
 * declaration order (g or h, before max/abs).
 * Power is std::pow always; min/max are NaN if either argument is; an empty
 * reduction range gives 0, 1, +inf, -inf. Thread-safe (no shared state).
 */
double reference_objective(const program& p, const double* x);
double reference_constraint(const program& p, int constraint_index, const double* x);

}  // namespace fusedga::expr
