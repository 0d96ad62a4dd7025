#pragma once
/// @file numpy_source.hpp
/// An expression problem as a Python/NumPy module, generated from the checked
/// AST, so that Python peers (pymoo, `ga-bench --quality`) evaluate the very
/// same expressions as the interpreter and the JITs.

#include <string>

#include "fusedga/expr/ast.hpp"

namespace fusedga::expr {

/**
 * Python source of a module that evaluates `p` for a whole population:
 *
 * ```python
 * DIMENSION, N_INEQUALITY, N_EQUALITY, LOWER, UPPER, SENSE, GENE_NAMES
 * def evaluate(X):  # X: (n, d) float64 array, row i = individual i
 *     return f, G, H  # f: (n,); G: (n, N_INEQUALITY) with g <= 0 feasible; H: (n, N_EQUALITY), |h| <= eps feasible
 * ```
 *
 * Objective in the problem's sense (SENSE is "minimize" or "maximize"),
 * constraints in declaration order within each kind, normalized as in
 * ast.hpp (g = lhs − rhs for `<=`). Semantics follow the reference evaluator
 * (interpreter.hpp): `^` is `**` (NumPy's power), min/max propagate NaN
 * (np.minimum/np.maximum), reductions are Python loops over the index range
 * (an empty sum is 0, product 1), a table lookup T[e] is entry floor(e + 0.5)
 * of the table (a module constant), NaN outside it or for a NaN e. Division by zero and invalid operations
 * give inf/NaN without warnings (np.errstate). Numbers are printed with 17
 * significant digits, so the module's constants equal the parsed values.
 * Needs only NumPy. Pure; no user text reaches the source (genes by number).
 */
std::string generate_numpy_source(const program& p);

}  // namespace fusedga::expr
