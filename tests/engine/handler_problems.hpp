#pragma once
// Small constrained problems for the constraint-handler tests.

#include <cmath>
#include <cstdint>

#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <fusedga/core/sense.hpp>

namespace handler_test {

/**
 * Hock & Schittkowski problem 39 (Hock & Schittkowski 1981, "Test examples for
 * nonlinear programming codes", Lecture Notes in Economics and Mathematical
 * Systems 187): minimize −x1 subject to x2 − x1³ − x3² = 0 and
 * x1² − x2 − x4² = 0. Optimum −1 at (1, 1, 0, 0). Two nonlinear equalities,
 * here in the box [−2, 2]^4.
 */
struct HS39 {
  using gene_type = double;
  static constexpr fusedga::Sense sense = fusedga::Sense::minimize;
  int dimension() const { return 4; }
  int equality_count() const { return 2; }
  fusedga::Bounds<double> bounds() const { return fusedga::Bounds<double>::uniform(4, -2.0, 2.0); }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    return -x[0];
  }
  template <class X, class H>
  FUSEDGA_HD void equalities(const X& x, H& h) const {
    h[0] = x[1] - x[0] * x[0] * x[0] - x[2] * x[2];
    h[1] = x[0] * x[0] - x[1] - x[3] * x[3];
  }
};

/**
 * Integer genes in [0, 20], maximize Σ (j+1)·x_j subject to Σ x_j <= 40 and
 * x0 = x1: every value is a small integer held exactly in double, so every
 * backend (and every handler's keys) computes the same bits.
 */
struct IntegerConstrained {
  using gene_type = std::int32_t;
  static constexpr fusedga::Sense sense = fusedga::Sense::maximize;
  int dimension() const { return 6; }
  int inequality_count() const { return 1; }
  int equality_count() const { return 1; }
  fusedga::Bounds<std::int32_t> bounds() const { return fusedga::Bounds<std::int32_t>::uniform(6, 0, 20); }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    double s = 0;
    for (int j = 0; j < 6; ++j) s += (j + 1) * static_cast<double>(x[j]);
    return s;
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& x, G& g) const {
    double s = 0;
    for (int j = 0; j < 6; ++j) s += static_cast<double>(x[j]);
    g[0] = s - 40;
  }
  template <class X, class H>
  FUSEDGA_HD void equalities(const X& x, H& h) const {
    h[0] = static_cast<double>(x[0]) - static_cast<double>(x[1]);
  }
};

}  // namespace handler_test
