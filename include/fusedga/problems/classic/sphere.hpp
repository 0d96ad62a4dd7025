#pragma once
/// @file sphere.hpp
/// Classic benchmark: the sphere function (De Jong's F1).

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>

namespace fusedga::problems {

/**
 * Sphere function (De Jong 1975, PhD thesis, U. Michigan, F1): minimize
 *   f(x) = Σ_{j<d} x_j²
 * over the box [−5.12, 5.12]^d. Unconstrained, unimodal, separable.
 * Optimum f* = 0 at x = 0. Genes: `dim` reals x[0..d). Cost O(d).
 */
template <class Real = double>
struct Sphere {
  using gene_type = Real;
  static constexpr Sense sense = Sense::minimize;

  int dim = 30;  ///< dimension d >= 1

  int dimension() const { return dim; }
  Bounds<Real> bounds() const { return Bounds<Real>::uniform(dim, Real(-5.12), Real(5.12)); }

  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    Real s = 0;
    for (int j = 0; j < dim; ++j) {
      const Real xj = x[j];
      s += xj * xj;
    }
    return s;
  }
};

}  // namespace fusedga::problems
