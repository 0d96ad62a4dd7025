#pragma once
/// @file interp_ops.hpp
/// Element semantics of the expression language, shared by the interpreter's
/// lane loops and its lane-independent (scalar) path, so both compute the same
/// thing. Private to src/expr/.
///
/// The code generator follows the same rules, so the JIT and the interpreter
/// agree to rounding (libm and libmvec may differ by a few ulp):
///  - All arithmetic in the evaluator's Real; literals are converted to Real.
///  - sin cos tan asin acos atan exp log log10 sqrt floor ceil: std:: of Real;
///    abs: std::abs (fabs). Out-of-domain arguments give NaN or ±inf as in libm.
///  - min(a, b) = (a < b || a != a) ? a : b, max(a, b) = (a > b || a != a) ? a : b:
///    NaN if either argument is NaN (a NaN never disappears into a feasible
///    value); on a tie (including -0 vs +0) the result is b.
///  - atan2(a, b) = std::atan2(a, b) (a is y, b is x).
///  - a ^ b where b is a literal: a `number` node (a literal or a named
///    constant) or the negation of one (the parser reads x^-2 as x^(-(2))):
///      b an integer with |b| <= max_integer_power (32): repeated multiplication left to right,
///        a^n = ((a·a)·a)···a (n−1 products, exactly what `a*a*a` computes),
///        a^0 = 1 (also for NaN a), a^−n = 1 / (a^n);
///      b == 0.5: std::sqrt(a);
///      otherwise std::pow(a, b).
///    Any other exponent (not a `number` node, e.g. an index variable): std::pow.
///  - Reductions accumulate in index order from lo to hi (inclusive), starting
///    from sum 0, prod 1, min +inf, max −inf (the value of an empty range,
///    lo > hi): acc = acc + v, acc·v, min(acc, v), max(acc, v) with min/max above.
///  - T[e] (a table constant): jit_lookup (jit_elements.hpp), in Real: entry
///    k = floor(e + 0.5) converted to Real, NaN when k is outside the table or e is NaN.
///  - Integer expressions (gene indices, reduction bounds) are computed in
///    double and rounded to int (exact: the checker keeps them within ±2^24).
///  - Subexpressions that read no gene are computed once per chunk (per index
///    value inside reductions) with these same rules, in Real; those that read
///    no index variable either are folded when the interpreter is built.
///  - Violation: starting from +0, for each constraint in declaration order
///    e = g (inequality) or |h| − eps (equality), total += e <= 0 ? 0 : e
///    (constraint_sink.hpp's expression; NaN propagates).

#include <cmath>
#include <cstdint>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/simd_math.hpp"  // libmvec declarations: vectorized sin/cos/exp/log/pow in lane loops
#include "fusedga/expr/ast.hpp"
#include "fusedga/expr/jit_elements.hpp"  // jit_lookup: table lookups, shared with the generated code

namespace fusedga::expr::interp {

/// One-argument operations of the lane loops (negation and the unary functions).
enum class unary_op : std::uint8_t { negate, sin, cos, tan, asin, acos, atan, exp, log, log10, sqrt, abs, floor, ceil };
/// Two-argument operations (arithmetic, general power and the binary functions).
enum class binary_op : std::uint8_t { add, subtract, multiply, divide, pow, min, max, atan2 };

template <class R>
FUSEDGA_INLINE R min2(R a, R b) { return (a < b || a != a) ? a : b; }
template <class R>
FUSEDGA_INLINE R max2(R a, R b) { return (a > b || a != a) ? a : b; }

// One functor per operation: the lane loops instantiate one loop per functor
// (vectorizable), the scalar path calls the same functor.
#define FUSEDGA_INTERP_UNARY(NAME, EXPR) \
  struct NAME##_fn {                     \
    template <class R>                   \
    FUSEDGA_INLINE R operator()(R a) const { return EXPR; } \
  };
FUSEDGA_INTERP_UNARY(negate, -a)
FUSEDGA_INTERP_UNARY(sin, std::sin(a))
FUSEDGA_INTERP_UNARY(cos, std::cos(a))
FUSEDGA_INTERP_UNARY(tan, std::tan(a))
FUSEDGA_INTERP_UNARY(asin, std::asin(a))
FUSEDGA_INTERP_UNARY(acos, std::acos(a))
FUSEDGA_INTERP_UNARY(atan, std::atan(a))
FUSEDGA_INTERP_UNARY(exp, std::exp(a))
FUSEDGA_INTERP_UNARY(log, std::log(a))
FUSEDGA_INTERP_UNARY(log10, std::log10(a))
FUSEDGA_INTERP_UNARY(sqrt, std::sqrt(a))
FUSEDGA_INTERP_UNARY(abs, std::abs(a))
FUSEDGA_INTERP_UNARY(floor, std::floor(a))
FUSEDGA_INTERP_UNARY(ceil, std::ceil(a))
#undef FUSEDGA_INTERP_UNARY

#define FUSEDGA_INTERP_BINARY(NAME, EXPR) \
  struct NAME##_fn {                      \
    template <class R>                    \
    FUSEDGA_INLINE R operator()(R a, R b) const { return EXPR; } \
  };
FUSEDGA_INTERP_BINARY(add, a + b)
FUSEDGA_INTERP_BINARY(subtract, a - b)
FUSEDGA_INTERP_BINARY(multiply, a* b)
FUSEDGA_INTERP_BINARY(divide, a / b)
FUSEDGA_INTERP_BINARY(pow, std::pow(a, b))
FUSEDGA_INTERP_BINARY(min, min2(a, b))
FUSEDGA_INTERP_BINARY(max, max2(a, b))
FUSEDGA_INTERP_BINARY(atan2, std::atan2(a, b))
#undef FUSEDGA_INTERP_BINARY

/// Calls `f(functor)` with the functor of `op`; returns what f returns.
template <class F>
decltype(auto) visit(unary_op op, F&& f) {
  switch (op) {
    case unary_op::negate: return f(negate_fn{});
    case unary_op::sin: return f(sin_fn{});
    case unary_op::cos: return f(cos_fn{});
    case unary_op::tan: return f(tan_fn{});
    case unary_op::asin: return f(asin_fn{});
    case unary_op::acos: return f(acos_fn{});
    case unary_op::atan: return f(atan_fn{});
    case unary_op::exp: return f(exp_fn{});
    case unary_op::log: return f(log_fn{});
    case unary_op::log10: return f(log10_fn{});
    case unary_op::sqrt: return f(sqrt_fn{});
    case unary_op::abs: return f(abs_fn{});
    case unary_op::floor: return f(floor_fn{});
    case unary_op::ceil: break;
  }
  return f(ceil_fn{});
}

template <class F>
decltype(auto) visit(binary_op op, F&& f) {
  switch (op) {
    case binary_op::add: return f(add_fn{});
    case binary_op::subtract: return f(subtract_fn{});
    case binary_op::multiply: return f(multiply_fn{});
    case binary_op::divide: return f(divide_fn{});
    case binary_op::pow: return f(pow_fn{});
    case binary_op::min: return f(min_fn{});
    case binary_op::max: return f(max_fn{});
    case binary_op::atan2: break;
  }
  return f(atan2_fn{});
}

/// Whether `fn` takes two arguments (min, max, atan2).
inline bool is_binary(function fn) { return fn == function::min || fn == function::max || fn == function::atan2; }

inline unary_op unary_of(function fn) {
  switch (fn) {
    case function::sin: return unary_op::sin;
    case function::cos: return unary_op::cos;
    case function::tan: return unary_op::tan;
    case function::asin: return unary_op::asin;
    case function::acos: return unary_op::acos;
    case function::atan: return unary_op::atan;
    case function::exp: return unary_op::exp;
    case function::log: return unary_op::log;
    case function::log10: return unary_op::log10;
    case function::sqrt: return unary_op::sqrt;
    case function::abs: return unary_op::abs;
    case function::floor: return unary_op::floor;
    default: return unary_op::ceil;
  }
}

inline binary_op binary_of(function fn) {
  return fn == function::min ? binary_op::min : fn == function::max ? binary_op::max : binary_op::atan2;
}

inline binary_op binary_of(node_kind k) {
  switch (k) {
    case node_kind::add: return binary_op::add;
    case node_kind::subtract: return binary_op::subtract;
    case node_kind::multiply: return binary_op::multiply;
    case node_kind::divide: return binary_op::divide;
    default: return binary_op::pow;
  }
}

/// How a power node is computed (see the file comment).
enum class power_rule : std::uint8_t { integer, square_root, general };

/// The largest |n| of a^n computed by multiplication: 31 roundings at most (<= 16 ulp, against pow's 1), and
/// cheaper than pow up to there (Michalewicz's sin(...)^20: pow was 30% of a run's instructions, and libmvec's
/// pow takes its scalar path for negative bases).
inline constexpr int max_integer_power = 32;

/// The rule for exponent node `b` of a power; sets `n` for power_rule::integer.
inline power_rule classify_power(const program& p, int b, int& n) {
  const node* e = &p.nodes[static_cast<std::size_t>(b)];
  const bool negated = e->kind == node_kind::negate;
  if (negated) e = &p.nodes[static_cast<std::size_t>(e->a)];
  if (e->kind != node_kind::number) return power_rule::general;
  const double v = negated ? -e->value : e->value;
  if (v == std::floor(v) && std::abs(v) <= max_integer_power) {
    n = static_cast<int>(v);
    return power_rule::integer;
  }
  return v == 0.5 ? power_rule::square_root : power_rule::general;
}

/// a^n by repeated multiplication, left to right; a^0 = 1, a^−n = 1 / a^n.
template <class R>
R power_integer(R a, int n) {
  const int m = n < 0 ? -n : n;
  R r = m == 0 ? R(1) : a;
  for (int k = 1; k < m; ++k) r = r * a;
  return n < 0 ? R(1) / r : r;
}

}  // namespace fusedga::expr::interp
