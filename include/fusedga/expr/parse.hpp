#pragma once
/// @file parse.hpp
/// Expression problems from text: the parser and checker (source → program),
/// and the printer that shows a program back in normalized form.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fusedga/core/sense.hpp"
#include "fusedga/expr/ast.hpp"

namespace fusedga::expr {

/// One expression as it appears in the config file.
struct source_text {
  std::string text;      ///< the expression (or constraint) text
  std::string key_path;  ///< e.g. "problem.objective", "problem.constraints[1]"
  /// Line/column of the text's first character in the file. A newline in the
  /// text (YAML multi-line scalar) advances the line and restarts columns at 1.
  /// Line 0 (unknown): positions are counted from 1:1 within the text.
  location where;
  /// When not empty: the file position of each byte of `text`, plus one for
  /// the end of the text (text.size() + 1 entries), and `where` is unused.
  /// The YAML layer fills it for folded, block and multi-line quoted scalars,
  /// whose bytes do not sit where counting from `where` would put them.
  std::vector<location> positions = {};
  /// When not empty, where the text was given instead of the problem's file (`--set problem.objective=...`):
  /// errors name it, and `where` counts from the text's first character (1:1), shown as `column C`.
  std::string given_by = {};
};

/// A variable declaration from `problem.variables`.
struct variable_decl {
  std::string name;
  int size = 1;                      ///< 1 for scalars
  bool vector = false;               ///< declared with `size:` (then it must be indexed)
  /// `integer:` per element (true: all `size` elements, or a list of booleans): 1 = takes integer values
  /// (Bounds::integer); empty when none does.
  std::vector<std::uint8_t> integer;
  bool is_integer(std::size_t k) const { return !integer.empty() && integer[k] != 0; }
  std::vector<double> lower, upper;  ///< one pair per element (a single pair is broadcast by the caller)
  std::string key_path;              ///< "problem.variables.x"
  location where;
};

/// Most entries of a table constant.
inline constexpr std::size_t max_table_entries = 65536;

/// What is wrong with the size of table constant `name` of `size` entries ("" when 1..max_table_entries):
/// one message for the config reader, which locates it at the YAML list, and the checker (C++ callers).
inline std::string table_size_error(const std::string& name, std::size_t size) {
  if (size == 0) return "table constant '" + name + "' is empty; expected a list of at least one number";
  if (size > max_table_entries)
    return "table constant '" + name + "' has " + std::to_string(size) + " entries; at most " +
           std::to_string(max_table_entries) + " are allowed";
  return "";
}

/// A named constant from `problem.constants`: a number, or a table (a list of numbers, indexed as T[e]).
struct constant_decl {
  std::string name;
  double value = 0;                                   ///< a number constant
  std::string key_path;
  location where;
  std::optional<std::vector<double>> table = std::nullopt;  ///< set for a table constant (then `value` is unused)
};

/// Everything the YAML layer extracts from an expression `problem:` section.
struct problem_source {
  std::string file;  ///< config file name, for messages
  Sense sense = Sense::minimize;
  std::vector<variable_decl> variables;
  std::vector<constant_decl> constants;
  source_text objective;
  std::vector<source_text> constraints;
};

/**
 * Parses and checks an expression problem.
 *
 * Grammar (DESIGN.md): numbers (`1`, `2.5`, `.5`, `1e-3`, `3E+2`; finite, no
 * hex, no inf/nan), variables (`x`, `x[k]`), constants, table constants
 * (`T[e]`: e any expression, rounded half up at run time, NaN outside the
 * table; see ast.hpp's table_constant), `+ - * /`, `^` and
 * `**` (right associative, binding tighter than unary minus: -x^2 = -(x^2);
 * `2^-1` allowed), unary `-` and `+`, parentheses, the functions of
 * `function` plus `pow(a, b)`, `pi`, `e`, and `sum/prod/min/max(i=a:b, expr)`
 * with inclusive integer bounds (nestable, `x[i+1]` allowed; `min(a, b)` with
 * two arguments is the function). Constraints are `lhs <= rhs`, `lhs >= rhs`,
 * `lhs == rhs` (`<`, `>` read as `<=`, `>=`). Names match
 * [A-Za-z_][A-Za-z0-9_]*; function, reduction names, `pi` and `e` are
 * reserved. Whitespace is space, tab, CR, LF; anything else outside the
 * grammar (other control characters, non-ASCII) is an error.
 *
 * Integer expressions (indices, reduction bounds) are integer-valued literals
 * and constants and index variables combined with + - * and unary minus. Each
 * is checked by interval arithmetic over the enclosing reductions' ranges: an
 * index must stay in [0, size-1] for every value the indices can take, a bound
 * within ±2^24. A sum or product whose range is empty for some outer index
 * values is allowed (its value is 0 or 1, as in a loop that never runs); a
 * min or max whose range may be empty, and any range that is always empty, are
 * errors.
 *
 * Limits, so malformed input cannot exhaust the stack of the parser or of
 * the consumers that recurse over the tree: 256 levels of nesting
 * (parentheses, calls, unary operators, exponents) and a tree height of 1024.
 * Work limit, so a valid problem cannot stall a generation for hours: at most
 * 10^7 reduction loop iterations per individual, objective and constraints
 * together, where a reduction counts upper - lower + 1 iterations (the widest
 * its bounds reach) times one plus those of the reductions in its body:
 * `sum(i=0:999, sum(j=0:999, x))` is 1000 * (1 + 1000) = 1,001,000.
 *
 * @throws expression_error `file:line:col: key.path: message` (`<input>` for
 *   an empty file name; no line:col where unknown), the message naming the
 *   offending token and what was expected, e.g.
 *   `unexpected ')'; expected an operator or the end of the expression`, for:
 *   syntax errors, malformed numbers, unknown names (with a "did you mean"),
 *   wrong arity, a vector or table used without an index, an indexed scalar or
 *   constant, an index or reduction range outside a vector (checked
 *   statically), non-integer indices or reduction bounds, division by a
 *   literal zero (or a constant equal to 0), the work limit (located at the
 *   reduction that exceeds it, or at the text that brings the total over it,
 *   naming the iterations and the limit), empty constraint sides, a missing
 *   or repeated comparison, a comparison in the objective, an index variable
 *   that shadows a variable, constant or outer index, and the nesting limits.
 *   Declaration errors (invalid, reserved or duplicate names, size < 1, bound
 *   lists not of the variable's size, non-finite bounds or lower > upper,
 *   non-finite constants, tables that are empty, longer than max_table_entries
 *   or hold a non-finite entry (named by its index), no variables) are located at the declaration with
 *   its key path.
 * Never executes or echoes more of the input than the offending token
 * (quoted, at most 40 characters, unprintable bytes escaped).
 */
program parse_program(const problem_source& source);

/// A node printed back in normalized form: `^` for powers, constants, pi and
/// e by name, table lookups as `T[...]`, reductions as `sum(i=0:4, x[i])`, and the fewest parentheses
/// that parse back to the same tree (so `x + (y + z)` keeps its parentheses:
/// its rounding differs from x + y + z). Parsing the result gives the same
/// text again (nesting limits permitting). @throws std::out_of_range for a node index outside the program.
std::string to_string(const program& p, int node);

/// A multi-line description (for `--explain`): variables with bounds, table
/// constants (their first entries), the objective with its sense, and each constraint in its normalized form
/// `g1(x) = ... <= 0` or `h1(x) = ... == 0 (|h| <= eps)` followed by
/// `# from "text as written"`; `eps` is printed as `equality_tolerance` when that is >= 0.
std::string describe(const program& p, double equality_tolerance = -1);

}  // namespace fusedga::expr
