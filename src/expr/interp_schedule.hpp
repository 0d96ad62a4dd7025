#pragma once
/// @file interp_schedule.hpp
/// The interpreter's precomputed plan: a program flattened into a post-order
/// list of lane instructions over 64-lane temporaries, with buffers assigned
/// at construction (reused as soon as a value is consumed, so the working set
/// stays in L1). Private to src/expr/.
///
/// Only nodes whose value differs between individuals (those that read a
/// gene) become instructions. Gene-free subtrees are operands: folded to a
/// constant at construction when they read no index variable either, else
/// recomputed by interp_scalar.hpp at each use. Gene reads are operands too,
/// resolved when consumed (interpreter.cpp keeps a per-chunk gene cache).

#include <cstdint>
#include <vector>

#include "fusedga/expr/ast.hpp"
#include "expr/interp_ops.hpp"

namespace fusedga::expr::interp {

/// Lanes per chunk: every lane loop runs exactly this many iterations.
inline constexpr int lanes = 64;

/// Where an instruction reads an input from.
enum class source : std::uint8_t {
  buffer,        ///< temporary `index`
  gene,          ///< gene `index` (a scalar variable or a literal vector index)
  indexed_gene,  ///< gene node `index` whose index expression depends on index variables
  constant,      ///< `value`, folded at construction
  uniform,       ///< gene-free node `index` that reads index variables: computed at each use
};

template <class Real>
struct operand {
  source from = source::constant;
  int index = 0;
  Real value = 0;
  /// Whether the operand is a lane array (else one value for all lanes).
  bool varying() const { return from == source::buffer || from == source::gene || from == source::indexed_gene; }
};

enum class opcode : std::uint8_t {
  unary,           ///< dst = op(x)
  binary,          ///< dst = op(x, y); x or y may be uniform, not both
  power_integer,   ///< dst = x^n by repeated multiplication (interp_ops.hpp)
  broadcast,       ///< dst = x (a uniform root)
  lookup,          ///< dst = table n at x (jit_lookup)
  reduce,          ///< dst = red over idx[depth] = lo..hi of the body [pc+1, end), whose value is x
  store_objective, ///< objective = x
  add_inequality,  ///< violation += max(0, x)
  add_equality,    ///< violation += max(0, |x| - eps)
};

template <class Real>
struct instruction {
  opcode code = opcode::unary;
  unary_op un = unary_op::negate;
  binary_op bin = binary_op::add;
  reduction red = reduction::sum;
  int dst = -1;           ///< destination buffer
  operand<Real> x, y;
  int n = 0;              ///< power_integer: exponent; reduce: index depth; lookup: the table
  int lo = -1, hi = -1;   ///< reduce: bound nodes (integer expressions)
  int end = 0;            ///< reduce: one past the body's last instruction
};

template <class Real>
struct schedule {
  std::vector<instruction<Real>> code;  ///< objective, then constraints in declaration order
  int buffers = 0;                      ///< temporaries of `lanes` values each
  int depth = 0;                        ///< index variables (deepest reduction nesting)
  int dimension = 0;
};

/**
 * Plans `p` (a checked program; see ast.hpp).
 * @throws std::invalid_argument if `p` is structurally unusable (no
 *   objective, a node index out of range or a cycle, a literal gene index
 *   outside the genes, an index variable deeper than the reductions,
 *   reductions nested deeper than 63, a lookup of a table that does not
 *   exist): the checker never produces these.
 */
template <class Real>
schedule<Real> make_schedule(const program& p);

}  // namespace fusedga::expr::interp
