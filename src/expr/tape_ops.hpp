#pragma once
// Arithmetic of one Jacobian tape entry (derivative.hpp), shared by constant
// folding, the tape interpreter and — as text — the generated C++ and CUDA
// (jacobian_codegen.cpp emits the same operations in the same order, so the
// interpreter and the CPU JIT agree bitwise). Private to src/expr/.

#include <cmath>
#include <vector>

#include "fusedga/expr/derivative.hpp"
#include "fusedga/expr/jit_elements.hpp"

namespace fusedga::expr::detail {

template <class R>
R tape_powi(R a, int n) {
  const int m = n < 0 ? -n : n;
  if (m == 0) return R(1);
  R r = a;
  for (int k = 1; k < m; ++k) r = r * a;
  return n < 0 ? R(1) / r : r;
}

template <class R>
R tape_sign(R a) {
  return a > R(0) ? R(1) : (a < R(0) ? R(-1) : a * R(0));
}

/// The value of entry `t` given its operands' values (unused operands ignored) and the tape's tables.
template <class R>
R apply_tape(const tape_entry& t, R a, R b, R c, R e, const std::vector<std::vector<double>>& tables) {
  switch (t.op) {
    case tape_op::constant: return static_cast<R>(t.value);
    case tape_op::gene: return a;
    case tape_op::neg: return -a;
    case tape_op::add: return a + b;
    case tape_op::sub: return a - b;
    case tape_op::mul: return a * b;
    case tape_op::div: return a / b;
    case tape_op::powi: return tape_powi(a, static_cast<int>(t.value));
    case tape_op::pow: return std::pow(a, b);
    case tape_op::sqrt: return std::sqrt(a);
    case tape_op::sin: return std::sin(a);
    case tape_op::cos: return std::cos(a);
    case tape_op::tan: return std::tan(a);
    case tape_op::asin: return std::asin(a);
    case tape_op::acos: return std::acos(a);
    case tape_op::atan: return std::atan(a);
    case tape_op::exp: return std::exp(a);
    case tape_op::log: return std::log(a);
    case tape_op::log10: return std::log10(a);
    case tape_op::abs: return std::abs(a);
    case tape_op::floor: return std::floor(a);
    case tape_op::ceil: return std::ceil(a);
    case tape_op::sign: return tape_sign(a);
    case tape_op::min: return (a < b || a != a) ? a : b;
    case tape_op::max: return (a > b || a != a) ? a : b;
    case tape_op::atan2: return std::atan2(a, b);
    case tape_op::select_min: return (a < b || a != a) ? c : e;
    case tape_op::select_max: return (a > b || a != a) ? c : e;
    case tape_op::lookup: {
      const std::vector<double>& table = tables[static_cast<std::size_t>(t.value)];
      return jit_lookup(table.data(), static_cast<int>(table.size()), a);
    }
  }
  return R(0);
}

/// Number of operands an op reads (a, b, c, e in that order); gene reads none (its `a` is a gene number).
inline int tape_arity(tape_op op) {
  switch (op) {
    case tape_op::constant:
    case tape_op::gene: return 0;
    case tape_op::add:
    case tape_op::sub:
    case tape_op::mul:
    case tape_op::div:
    case tape_op::pow:
    case tape_op::min:
    case tape_op::max:
    case tape_op::atan2: return 2;
    case tape_op::select_min:
    case tape_op::select_max: return 4;
    default: return 1;
  }
}

}  // namespace fusedga::expr::detail
