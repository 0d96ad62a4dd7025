#pragma once
/// @file interp_scalar.hpp
/// The interpreter's lane-independent path: values of subtrees that read no
/// gene (literals, index variables, integer index expressions, reduction
/// bounds, gene-free reductions), computed once per use instead of per lane,
/// with the element semantics of interp_ops.hpp. Private to src/expr/.

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "fusedga/expr/ast.hpp"
#include "expr/interp_ops.hpp"

namespace fusedga::expr::interp {

template <class Real>
Real uniform_value(const program& p, int i, int* idx);

/**
 * An integer expression (gene index or reduction bound; `node::integer`:
 * literals, index variables, negation, +, −, ·) as int, given the current
 * index values `idx[depth]`. Computed in double, where every intermediate up
 * to 2^53 is exact and none can overflow, then rounded; the checker keeps the
 * value itself within ±2^24.
 */
inline int integer_value(const program& p, int i, int* idx) {
  return static_cast<int>(std::lround(uniform_value<double>(p, i, idx)));
}

/**
 * A subtree that reads no gene, in Real, given the current index values
 * `idx[depth]` (a gene-free reduction inside it writes its own depth's entry).
 * Precondition: the subtree contains no gene node.
 */
template <class Real>
Real uniform_value(const program& p, int i, int* idx) {
  const node& n = p.nodes[static_cast<std::size_t>(i)];
  switch (n.kind) {
    case node_kind::number: return static_cast<Real>(n.value);
    case node_kind::gene: return Real(0);  // unreachable for gene-free subtrees
    case node_kind::index_var: return static_cast<Real>(idx[n.slot]);
    case node_kind::negate: return -uniform_value<Real>(p, n.a, idx);
    case node_kind::add:
    case node_kind::subtract:
    case node_kind::multiply:
    case node_kind::divide: {
      const Real a = uniform_value<Real>(p, n.a, idx), b = uniform_value<Real>(p, n.b, idx);
      return visit(binary_of(n.kind), [&](auto f) { return f(a, b); });
    }
    case node_kind::power: {
      int k = 0;
      const Real a = uniform_value<Real>(p, n.a, idx);
      switch (classify_power(p, n.b, k)) {
        case power_rule::integer: return power_integer(a, k);
        case power_rule::square_root: return std::sqrt(a);
        case power_rule::general: break;
      }
      return std::pow(a, uniform_value<Real>(p, n.b, idx));
    }
    case node_kind::call: {
      const Real a = uniform_value<Real>(p, n.a, idx);
      if (!is_binary(n.fn)) return visit(unary_of(n.fn), [&](auto f) { return f(a); });
      const Real b = uniform_value<Real>(p, n.b, idx);
      return visit(binary_of(n.fn), [&](auto f) { return f(a, b); });
    }
    case node_kind::lookup: {
      const std::vector<double>& t = p.tables[static_cast<std::size_t>(n.slot)].values;
      return jit_lookup(t.data(), static_cast<int>(t.size()), uniform_value<Real>(p, n.a, idx));
    }
    case node_kind::reduce: break;
  }
  const int lo = integer_value(p, n.a, idx), hi = integer_value(p, n.b, idx);
  Real acc = n.red == reduction::sum    ? Real(0)
             : n.red == reduction::prod ? Real(1)
             : n.red == reduction::min  ? std::numeric_limits<Real>::infinity()
                                        : -std::numeric_limits<Real>::infinity();
  for (int k = lo; k <= hi; ++k) {
    idx[n.slot] = k;
    const Real v = uniform_value<Real>(p, n.c, idx);
    switch (n.red) {
      case reduction::sum: acc = acc + v; break;
      case reduction::prod: acc = acc * v; break;
      case reduction::min: acc = min2(acc, v); break;
      case reduction::max: acc = max2(acc, v); break;
    }
  }
  return acc;
}

}  // namespace fusedga::expr::interp
