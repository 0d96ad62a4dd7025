#pragma once
// Test helper of the JIT tests (tests/expr, tests/cuda): random points in a
// problem's bounds with the interpreter's objective and violation at each,
// the reference the JIT paths are held to (1e-12 relative).
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <fusedga/expr/ast.hpp>
#include <fusedga/expr/interpreter.hpp>

namespace expr_test {

struct interpreter_reference {
  std::vector<double> rows;  ///< points × dimension, row-major
  std::vector<double> objective, violation;
};

/// `points` individuals uniform in p's bounds (fixed seed), rounded to integers when `integer_points` (a problem
/// mirroring a built-in with integer genes), and the interpreter's values with equality tolerance `eps`.
inline interpreter_reference interpreter_at_random_points(const fusedga::expr::program& p, int points, double eps,
                                                          bool integer_points) {
  interpreter_reference r;
  std::mt19937_64 rng(11);
  for (int l = 0; l < points; ++l)
    for (const fusedga::expr::variable& v : p.variables)
      for (int k = 0; k < v.size; ++k) {
        const double x = std::uniform_real_distribution<double>(v.lower[k], v.upper[k])(rng);
        r.rows.push_back(integer_points ? std::round(x) : x);
      }
  r.objective.resize(points);
  r.violation.resize(points);
  fusedga::expr::make_interpreter<double>(p)->evaluate(r.rows.data(), p.dimension(), 1, points, eps, r.objective.data(),
                                                       r.violation.data());
  return r;
}

/// The JIT tests' agreement: within 1e-12 relative to max(1, |a|, |b|).
inline bool agree_to_1e12(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max({1.0, std::abs(a), std::abs(b)});
}

}  // namespace expr_test
