#pragma once
/// @file rosenbrock.hpp
/// Classic benchmark: the Rosenbrock function (De Jong's F2, generalized).

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>

namespace fusedga::problems {

/**
 * Rosenbrock function (Rosenbrock 1960, Computer J. 3; De Jong 1975, F2), in
 * the chained d-dimensional form: minimize
 *   f(x) = Σ_{j<d−1} [100·(x_{j+1} − x_j²)² + (1 − x_j)²]
 * over De Jong's box [−2.048, 2.048]^d. Unconstrained, non-separable, a
 * narrow curved valley. Optimum f* = 0 at x = (1, ..., 1). Genes: `dim`
 * reals x[0..d), d >= 2 for a non-trivial problem (d = 1 gives f = 0
 * everywhere). Cost O(d).
 */
template <class Real = double>
struct Rosenbrock {
  using gene_type = Real;
  static constexpr Sense sense = Sense::minimize;

  int dim = 30;  ///< dimension d >= 1

  int dimension() const { return dim; }
  Bounds<Real> bounds() const { return Bounds<Real>::uniform(dim, Real(-2.048), Real(2.048)); }

  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    Real s = 0;
    Real xj = x[0];
    for (int j = 0; j + 1 < dim; ++j) {
      const Real xn = x[j + 1];
      const Real a = xn - xj * xj;
      const Real b = Real(1) - xj;
      s += Real(100) * a * a + b * b;
      xj = xn;
    }
    return s;
  }
};

}  // namespace fusedga::problems
