#pragma once
// A problem for the gradient repair's GPU parity tests (parity_checks.hpp: de_repair_parity, ga_repair_parity): a
// nonlinear equality and a linear inequality that random points violate, with and without an exact Jacobian.
#include <fusedga/core/bounds.hpp>
#include <fusedga/core/macros.hpp>
#include <vector>

namespace cuda_test {

/// minimize Σ (x_j − 1)² over `genes` genes (>= 2) in [−3, 3] subject to Σ x_j² = 4 and 0.5 − x0 − x1 <= 0. Genes,
/// objective and constraints in Real; no `jacobian`: the repair takes finite differences (1 + d evaluations for
/// the first step, then Broyden's update and 1 a step). The length is a member, not a
/// template argument, so that each real type instantiates the kernels once.
template <class Real>
struct sphere_line {
  using gene_type = Real;
  int genes = 5;
  int dimension() const { return genes; }
  int inequality_count() const { return 1; }
  int equality_count() const { return 1; }
  fusedga::Bounds<Real> bounds() const {
    return {std::vector<Real>(static_cast<std::size_t>(genes), Real(-3)),
            std::vector<Real>(static_cast<std::size_t>(genes), Real(3))};
  }
  template <class X>
  FUSEDGA_HD Real objective(const X& x) const {
    Real s = 0;
    for (int j = 0; j < genes; ++j) s += (x[j] - Real(1)) * (x[j] - Real(1));
    return s;
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& x, G& g) const {
    g[0] = Real(0.5) - x[0] - x[1];
  }
  template <class X, class H>
  FUSEDGA_HD void equalities(const X& x, H& h) const {
    Real s = 0;
    for (int j = 0; j < genes; ++j) s += x[j] * x[j];
    h[0] = s - Real(4);
  }
};

/// The same with its exact Jacobian (1 evaluation per Newton step).
template <class Real>
struct sphere_line_exact : sphere_line<Real> {
  FUSEDGA_HD void jacobian(const Real* x, Real* c, Real* J) const {
    const int d = this->genes;
    Real s = 0;
    for (int j = 0; j < d; ++j) s += x[j] * x[j];
    c[0] = Real(0.5) - x[0] - x[1];
    c[1] = s - Real(4);
    for (int j = 0; j < d; ++j) {
      J[j] = j < 2 ? Real(-1) : Real(0);
      J[d + j] = Real(2) * x[j];
    }
  }
};

/// sphere_line's problem of `genes` genes.
template <class P>
P with_genes(int genes) {
  P p;
  p.genes = genes;
  return p;
}

}  // namespace cuda_test
