#pragma once
/// @file ackley.hpp
/// Classic benchmark: the Ackley function.

#include <cmath>

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>
#include <fusedga/core/simd_math.hpp>

namespace fusedga::problems {

/**
 * Ackley function (Ackley 1987, "A connectionist machine for genetic
 * hillclimbing"; d-dimensional form of Bäck 1996): minimize
 *   f(x) = −20·exp(−0.2·√(Σ x_j² / d)) − exp(Σ cos(2π·x_j) / d) + 20 + e
 * over the box [−32.768, 32.768]^d. Unconstrained, multimodal with a
 * nearly flat outer region. Optimum f* = 0 at x = 0 (up to rounding: about
 * 4e-16 in double). Genes: `dim` reals x[0..d). Cost O(d), one cos per gene.
 */
template <class Real = double>
struct Ackley {
  using gene_type = Real;
  static constexpr Sense sense = Sense::minimize;

  int dim = 30;  ///< dimension d >= 1

  int dimension() const { return dim; }
  Bounds<Real> bounds() const { return Bounds<Real>::uniform(dim, Real(-32.768), Real(32.768)); }

  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    const Real two_pi = Real(6.283185307179586);
    Real squares = 0, cosines = 0;
    for (int j = 0; j < dim; ++j) {
      const Real xj = x[j];
      squares += xj * xj;
      cosines += std::cos(two_pi * xj);
    }
    const Real inv_d = Real(1) / Real(dim);
    return -Real(20) * std::exp(-Real(0.2) * std::sqrt(squares * inv_d)) - std::exp(cosines * inv_d) + Real(20) +
           Real(2.718281828459045);
  }
};

}  // namespace fusedga::problems
