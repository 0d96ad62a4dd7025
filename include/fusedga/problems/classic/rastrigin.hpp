#pragma once
/// @file rastrigin.hpp
/// Classic benchmark: the Rastrigin function.

#include <cmath>

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>
#include <fusedga/core/simd_math.hpp>

namespace fusedga::problems {

/**
 * Rastrigin function (Rastrigin 1974; generalized to d dimensions by
 * Mühlenbein, Schomisch & Born 1991, Parallel Computing 17): minimize
 *   f(x) = 10·d + Σ_{j<d} (x_j² − 10·cos(2π·x_j))
 * over the box [−5.12, 5.12]^d. Unconstrained, separable, highly multimodal
 * (a local minimum near every integer point). Optimum f* = 0 at x = 0.
 * Genes: `dim` reals x[0..d). Cost O(d), one cos per gene.
 */
template <class Real = double>
struct Rastrigin {
  using gene_type = Real;
  static constexpr Sense sense = Sense::minimize;

  int dim = 30;  ///< dimension d >= 1

  int dimension() const { return dim; }
  Bounds<Real> bounds() const { return Bounds<Real>::uniform(dim, Real(-5.12), Real(5.12)); }

  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    const Real two_pi = Real(6.283185307179586);
    Real s = Real(10) * Real(dim);
    for (int j = 0; j < dim; ++j) {
      const Real xj = x[j];
      s += xj * xj - Real(10) * std::cos(two_pi * xj);
    }
    return s;
  }
};

}  // namespace fusedga::problems
