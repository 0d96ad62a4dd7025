#pragma once
/// @file check.hpp
/// Semantic checks of expression problems (internal to src/expr): the
/// declarations (names, sizes, bounds) and the integer interval analysis that
/// proves indices and reduction bounds stay inside their vectors.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fusedga/expr/ast.hpp"
#include "fusedga/expr/parse.hpp"

namespace fusedga::expr::parsing {

/// A declared name: a variable (its index in program::variables), a constant (its value) or a table
/// constant (its index in program::tables).
struct symbol {
  bool is_variable = false;
  int variable = -1;
  double value = 0;
  int table = -1;
};

/// The variables, constants and table constants of a problem, by name.
struct symbol_table {
  std::map<std::string, symbol, std::less<>> by_name;
  std::vector<std::string> names;  ///< declaration order, for "did you mean"

  const symbol* find(std::string_view name) const {
    const auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : &it->second;
  }
};

/**
 * Checks the declarations of `source` and copies the variables into
 * `out.variables` (genes numbered in declaration order) and the table
 * constants into `out.tables` (in declaration order).
 * @throws expression_error at the declaration, for: a name that is not an
 *   identifier, reserved or declared twice; a size below 1 (or a scalar of size
 *   other than 1); bound lists not of the variable's size; non-finite bounds or
 *   lower > upper; a non-finite constant; a table that is empty, longer than
 *   max_table_entries or holds a non-finite entry; no variables; more than
 *   2^31-1 genes.
 */
symbol_table check_declarations(const problem_source& source, program& out);

/// Largest magnitude of an integer expression (2^24): exact in float as well
/// as double, and far beyond any sensible vector size or reduction length.
inline constexpr double integer_limit = 16777216.0;

/// Most reduction loop iterations per individual, objective and constraints together (a reduction counts
/// upper - lower + 1 iterations, times those of the reductions nested in it). 10^7 keeps the worst generation of
/// a default population (100 individuals) to about a second interpreted; the issue's
/// `sum(i=0:100000, sum(j=0:100000, x))` is 10^10 and never finished a generation.
inline constexpr double max_reduction_work = 1e7;

/// The values an integer expression can take: every integer in [lo, hi].
struct int_range {
  double lo = 0, hi = 0;
  bool single() const { return lo == hi; }
  bool within(double min, double max) const { return lo >= min && hi <= max; }
};

/**
 * The range of a new node from its operands' ranges, or nullopt when the node
 * is not an integer expression. Integer expressions are integer-valued
 * literals and constants (`number`), index variables (whose range the caller
 * knows) and + - * and unary minus of integer expressions; anything else
 * (division, powers, calls, genes, reductions) is not. Ranges saturate far
 * beyond integer_limit, so arbitrarily long products stay finite.
 */
std::optional<int_range> integer_range(const node& n, const std::optional<int_range>& a, const std::optional<int_range>& b);

/// For a node that is not an integer expression: its first offending
/// subexpression and why (e.g. "'y' is a variable, not an integer"). `ranges`
/// holds each node's integer_range.
std::pair<int, std::string> why_not_integer(const program& p, const std::vector<std::optional<int_range>>& ranges, int node);

}  // namespace fusedga::expr::parsing
