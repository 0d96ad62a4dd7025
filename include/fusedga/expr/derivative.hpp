#pragma once
/// @file derivative.hpp
/// Exact constraint Jacobians of an expression problem by symbolic
/// differentiation of its AST.
///
/// The constraints are first lowered to a *tape*: a straight-line program
/// (one entry per operation, operands before their users) in which
/// reductions are unrolled (index variables become numbers, `x[i+1]` a fixed
/// gene), identical subexpressions are shared (hash-consing) and constants
/// are folded. Every entry is then differentiated with respect to every gene
/// it depends on, by the chain rule, appending the derivative entries to the
/// same tape with the same sharing and the 0/1 rules (0·u = 0, 1·u = u,
/// u + 0 = u, ...), so a partial derivative that is identically zero costs
/// nothing and is marked structurally zero.
///
/// Derivative rules (u' = ∂u/∂x_j): the usual ones for + − · / and
/// sin cos tan asin acos atan exp log log10 sqrt atan2; a^n (literal n)
/// → n·a^(n−1)·a'; a^b → b·a^(b−1)·a' + a^b·log a·b' (so x^1.5 at x = 0 has
/// the derivative 0, not 0·∞). At points where a function
/// is not differentiable, the tape returns one element of the subdifferential
/// (a *subgradient*), fixed as follows:
///  - abs(u)' = sign(u)·u' with sign(0) = 0 (the minimum-norm subgradient);
///  - min(a, b)' = a' where min picks a (a < b, or a is NaN), else b' — at a
///    tie a = b it is b' (the same choice as the value); max alike;
///  - reduction min/max: the derivative of the term the left-to-right
///    accumulation selects (the last of equal terms);
///  - floor, ceil and table lookups T[e]: 0 (their derivative almost everywhere,
///    piecewise constant functions; at the jumps none exists);
///  - sqrt at 0, log at 0, a^n with n < 1 at 0, a^b with b a variable at
///    a = 0 (its ∂/∂b: 0·log 0): ±inf or NaN as IEEE arithmetic gives it (the
///    repair step rejects non-finite steps).
///
/// The simplification rules treat 0·u as 0 and u − u as 0 even where u is
/// infinite or NaN, so the tape's constraint values can differ from the
/// interpreter's at such points; elsewhere they agree up to rounding.
///
/// Sources: the chain rule on expression DAGs is the forward mode of
/// automatic differentiation (Griewank & Walther 2008, "Evaluating
/// Derivatives", 2nd ed., SIAM), carried out symbolically once.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fusedga/expr/ast.hpp"

namespace fusedga::expr {

/// Operations of a tape entry. Operands are tape indices `a`, `b`, `c`, `e`.
enum class tape_op : std::uint8_t {
  constant,   ///< `value`
  gene,       ///< gene number `a`
  neg, add, sub, mul, div,
  powi,       ///< a^n, n = `value` an integer with |n| <= 32: repeated multiplication ((a·a)·a)…, 1/a^|n| for n < 0
  pow,        ///< std::pow(a, b)
  sqrt, sin, cos, tan, asin, acos, atan, exp, log, log10, abs, floor, ceil,
  sign,       ///< 1, −1 or 0 (NaN stays NaN)
  min,        ///< (a < b || a != a) ? a : b, as the interpreter's min
  max,        ///< (a > b || a != a) ? a : b
  atan2,      ///< std::atan2(a, b)
  select_min, ///< (a < b || a != a) ? c : e — the derivative of min(a, b)
  select_max, ///< (a > b || a != a) ? c : e — the derivative of max(a, b)
  lookup,     ///< jit_lookup(tables[value], a): table entry floor(a + 0.5), NaN outside the table
};

/// One tape entry.
struct tape_entry {
  tape_op op = tape_op::constant;
  int a = -1, b = -1, c = -1, e = -1;
  double value = 0;  ///< constant: its value; powi: the exponent; lookup: the table (index into jacobian_tape::tables)
};

/**
 * The constraints of a program and their Jacobian as one tape.
 *
 * Constraint order (here and in every Jacobian buffer of the library): the
 * inequalities g in declaration order, then the equalities h in declaration
 * order; m = inequality_count + equality_count. `jacobian` is m × d
 * row-major: entry (k, j) is the tape index of ∂c_k/∂x_j, or -1 where it is
 * identically zero.
 */
struct jacobian_tape {
  int dimension = 0;
  int inequality_count = 0;
  int equality_count = 0;
  std::vector<tape_entry> entries;  ///< operands precede their users
  std::vector<int> constraint;      ///< m tape indices: the constraint values c_k(x)
  std::vector<int> jacobian;        ///< m·d tape indices or -1
  std::vector<int> source;          ///< m: each row's index in program::constraints
  std::vector<std::vector<double>> tables;  ///< the program's table constants (program::tables), for lookups

  int constraint_count() const { return inequality_count + equality_count; }
  /// Entries that an evaluation has to compute (reachable from the outputs).
  std::vector<bool> live() const;
};

/// Entries above which build_jacobian gives up by default (unrolled reductions too large).
inline constexpr std::size_t kMaxTapeEntries = 4'000'000;

/**
 * Lowers and differentiates the constraints of `p` (see the file comment).
 * Cost: O(T·d) time for T tape entries of the lowered constraints, plus the
 * derivative entries. Thread-safe (pure).
 * @throws fusedga::error when the tape would exceed `max_entries` entries
 *   (reductions unrolled over very long ranges; min, max and prod reductions
 *   of N terms take ~N²/2 derivative entries), or when T·d exceeds 4·10⁸ (the
 *   dependency bitsets): the gradient repair cannot run on such a problem
 *   (ga-run says to set its rate to 0).
 */
jacobian_tape build_jacobian(const program& p, std::size_t max_entries = kMaxTapeEntries);

}  // namespace fusedga::expr
