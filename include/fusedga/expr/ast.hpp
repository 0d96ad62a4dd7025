#pragma once
/// @file ast.hpp
/// The typed, validated form of an expression problem (DESIGN.md, "YAML
/// config" and the expression grammar): what the parser produces and what the
/// interpreter, the reference evaluator and the code generator consume.
///
/// A `program` owns every node in one arena (`nodes`); nodes refer to their
/// operands by index. Everything in a program has been checked (names
/// resolved, arities, index ranges, reduction bounds), so consumers never
/// validate again and never see user text: identifiers are only kept for
/// printing and for mangled C++ names.
///
/// Conventions:
///  - Genes are numbered 0..d-1 in declaration order of the variables; a
///    vector variable of size n occupies n consecutive genes.
///  - Vector indices are 0-based (x[0] is the first element), like NumPy.
///  - Reduction bounds are inclusive: sum(i=0:2, x[i]) = x[0] + x[1] + x[2].
///  - Constants are folded into `number` nodes at parse time (the name is
///    kept for printing). Table constants stay tables (`program::tables`),
///    read by `lookup` nodes.
///  - Constraints are normalized: `lhs <= rhs` becomes g = lhs − rhs <= 0,
///    `lhs >= rhs` becomes g = rhs − lhs <= 0, `lhs == rhs` becomes
///    h = lhs − rhs with |h| <= eps. `<` and `>` are read as `<=` and `>=`.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "fusedga/core/sense.hpp"

namespace fusedga::expr {

/// 1-based line and column in the source file (0 = unknown).
struct location {
  int line = 0;
  int column = 0;
};

enum class node_kind : std::uint8_t {
  number,       ///< literal or folded constant: `value`
  gene,         ///< x or x[k]: gene `slot + index`, index = 0 (scalar) or the value of child `a` (integer expression)
  index_var,    ///< a reduction's index variable: `slot` = its reduction depth (0 = outermost)
  negate,       ///< −a
  add,          ///< a + b
  subtract,     ///< a − b
  multiply,     ///< a · b
  divide,       ///< a / b
  power,        ///< a ^ b (also `**` and pow(a, b))
  call,         ///< fn(a) or fn(a, b)
  reduce,       ///< red(i = a : b, c): index variable depth `slot`, bounds a and b (integer expressions), body c
  lookup,       ///< T[a]: table `slot` of program::tables at k = floor(a + 0.5); NaN when k is outside it (a: any expression)
};

/// Math functions of the grammar. `pow` is parsed into node_kind::power.
enum class function : std::uint8_t { sin, cos, tan, asin, acos, atan, exp, log, log10, sqrt, abs, floor, ceil, min, max, atan2 };

enum class reduction : std::uint8_t { sum, prod, min, max };

/// One AST node. Operand fields a, b, c are node indices (-1 = none).
struct node {
  node_kind kind = node_kind::number;
  function fn = function::sin;      ///< call
  reduction red = reduction::sum;   ///< reduce
  double value = 0;                 ///< number
  int slot = 0;                     ///< gene: first gene of the variable; index_var / reduce: depth; lookup: the table
  int size = 1;                     ///< gene: the variable's size (1 for scalars)
  int a = -1, b = -1, c = -1;
  /// Whether the value is an integer expression of index variables and
  /// literals only (legal as an index or reduction bound); set by the checker:
  /// integer-valued numbers, index variables, and + - * and unary minus of
  /// such nodes, whose value provably stays within ±2^24 (exact in float too).
  bool integer = false;
  std::string name;                 ///< variable, constant, table, index variable or function name, for printing
  location where;                   ///< where the node's first token starts
};

/// A declared variable: `size` consecutive genes from `first_gene`, each with its bounds.
struct variable {
  std::string name;
  int first_gene = 0;
  int size = 1;                     ///< 1 for a scalar
  bool vector = false;              ///< declared with `size:` (must be indexed)
  /// Per element: 1 = an integer variable (its bounds are integers, its genes kept integral); empty when no
  /// element is one.
  std::vector<std::uint8_t> integer;
  std::vector<double> lower, upper;  ///< per element, lower <= upper (integer elements: ceil and floor of the
                                     ///< declared bounds)
  bool is_integer(int k) const { return !integer.empty() && integer[static_cast<std::size_t>(k)] != 0; }
  location where;
};

/// A table constant (`P: [3.175, 5.715, 8.255]`): a lookup table for catalogue values, read as P[e]. Its
/// index e may be any expression; it is rounded half up, k = floor(e + 0.5), and P[e] is values[k] for
/// 0 <= k < size, else NaN (also for a NaN e), so an out-of-range lookup is visible, never a silent default.
struct table_constant {
  std::string name;
  std::vector<double> values;       ///< finite, 1 to max_table_entries (parse.hpp) of them
  location where;
};

enum class constraint_kind : std::uint8_t { inequality, equality };

/// A normalized constraint: g(x) = nodes[root] <= 0, or |h(x)| <= eps.
struct constraint {
  constraint_kind kind = constraint_kind::inequality;
  int root = -1;
  std::string text;                 ///< as written, for --explain
  location where;
};

/// A whole validated expression problem.
struct program {
  std::vector<node> nodes;
  std::vector<variable> variables;
  std::vector<table_constant> tables;   ///< in declaration order; lookup nodes refer to them by index
  Sense sense = Sense::minimize;
  int objective = -1;                   ///< root node of the objective
  std::string objective_text;           ///< as written
  std::vector<constraint> constraints;  ///< in declaration order, inequalities and equalities mixed
  int max_reduction_depth = 0;          ///< deepest nesting of reductions (index variables needed)

  int dimension() const { return variables.empty() ? 0 : variables.back().first_gene + variables.back().size; }
  /// Per-gene integer marks in gene order (Bounds::integer): 1 for each gene of an integer variable, 0 for the
  /// others; empty when no variable is an integer, so that problems without any take none of the rounding.
  std::vector<std::uint8_t> integer_marks() const {
    std::vector<std::uint8_t> marks;
    for (const variable& v : variables)
      for (int k = 0; k < v.size; ++k) marks.push_back(v.is_integer(k) ? 1 : 0);
    if (std::find(marks.begin(), marks.end(), 1) == marks.end()) marks.clear();
    return marks;
  }
  int inequality_count() const { return count(constraint_kind::inequality); }
  int equality_count() const { return count(constraint_kind::equality); }
  /// Gene names: "x" for scalars, "x[3]" for vector elements.
  std::vector<std::string> gene_names() const {
    std::vector<std::string> out;
    for (const variable& v : variables)
      for (int k = 0; k < v.size; ++k) out.push_back(v.vector ? v.name + "[" + std::to_string(k) + "]" : v.name);
    return out;
  }

 private:
  int count(constraint_kind k) const {
    int n = 0;
    for (const constraint& c : constraints) n += c.kind == k;
    return n;
  }
};

}  // namespace fusedga::expr
