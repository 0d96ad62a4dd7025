#pragma once
/// @file constraint_jacobian.hpp
/// Constraint values and Jacobian of one individual, whatever the problem
/// provides: its own `jacobian` member (problem_traits.hpp; expression
/// problems get an exact symbolic one, expr/derivative.hpp), else forward
/// finite differences over its `inequalities` / `equalities`, kept up to date
/// along a Newton iteration by Broyden's secant update.

#include <cmath>

#include "fusedga/core/constraint_sink.hpp"
#include "fusedga/core/gene_view.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/core/problem_traits.hpp"

namespace fusedga {

/// Constraint values c (ni inequalities then ne equalities, raw) at the d contiguous genes x. One evaluation.
template <class P>
FUSEDGA_HD inline void constraint_values(const P& p, const gene_t<P>* x, int ni, int ne, fitness_t<P>* c) {
  using F = fitness_t<P>;
  const gene_view<gene_t<P>, 1> xv{x};
  F spill = F(0);
  if constexpr (detail::has_inequalities<P>::value) {
    recording_sink<F> g{c, ni, &spill};
    p.inequalities(xv, g);
  }
  if constexpr (detail::has_equalities<P>::value) {
    recording_sink<F> h{c + ni, ne, &spill};
    p.equalities(xv, h);
  }
  (void)ni, (void)ne;
}

/// Whether the constraints' Jacobian is available for `P`: its own jacobian, or per-individual constraints for
/// difference_jacobian.
template <class P>
inline constexpr bool has_constraint_jacobian_v =
    detail::has_jacobian<P>::value ||
    (!detail::has_batch_evaluation<P>::value && !detail::has_population_evaluation<P>::value);

/**
 * Writes J (m × d row-major) at the d contiguous genes x by forward differences, given c = the constraint values
 * at x (constraint_values): J[k·d + j] = (c_k(x + h_j e_j) − c_k(x)) / h_j with h_j = sqrt(ε)·max(1, |x_j|)
 * (ε the machine epsilon of the fitness type), stepping backwards (−h_j) where x_j + h_j would pass `upper[j]`.
 * Cost d evaluations (c's own is the caller's). `xh` (d genes) and `c2` (m values) are scratch. Returns d.
 * Real genes, per-individual constraints only.
 */
template <class P>
FUSEDGA_HD inline int difference_jacobian(const P& p, const gene_t<P>* x, int d, int ni, int ne, const gene_t<P>* upper,
                                          const fitness_t<P>* c, fitness_t<P>* J, gene_t<P>* xh, fitness_t<P>* c2) {
  using F = fitness_t<P>;
  using G = gene_t<P>;
  static_assert(!detail::has_batch_evaluation<P>::value && !detail::has_population_evaluation<P>::value,
                "finite differences need per-individual constraints; batch problems must provide jacobian()");
  const int m = ni + ne;
  const G root_eps = sizeof(G) == sizeof(float) ? G(3.4526698e-04) : G(1.4901161193847656e-08);
  for (int j = 0; j < d; ++j) xh[j] = x[j];
  for (int j = 0; j < d; ++j) {
    const G ax = x[j] < G(0) ? -x[j] : x[j];
    G h = root_eps * (ax > G(1) ? ax : G(1));
    if (x[j] + h > upper[j]) h = -h;
    xh[j] = x[j] + h;
    const G hj = xh[j] - x[j];  // the step actually taken (exact in floating point)
    constraint_values(p, xh, ni, ne, c2);
    for (int k = 0; k < m; ++k) J[k * d + j] = static_cast<F>((c2[k] - c[k]) / static_cast<F>(hj));
    xh[j] = x[j];
  }
  return d;
}

/**
 * Broyden's rank-one secant update of an m × d row-major Jacobian approximation J after the step s (d values,
 * nonzero) changed the constraint values from `before` to `c` (m values each):
 * J ← J + (Δc − J·s)·sᵀ / (sᵀ·s), Δc = c − before. The updated J maps s to Δc exactly (the secant condition)
 * and is the change of least Frobenius norm that does; a linear constraint's exact row stays exact (to rounding).
 * Costs no evaluation: the gradient repair's iterations after the first take their Jacobian so, not by
 * differences (d evaluations each).
 *
 * Source: C. G. Broyden 1965, "A class of methods for solving nonlinear simultaneous equations", Mathematics of
 * Computation 19(92), 577–593 (the "good" update).
 */
template <class F>
FUSEDGA_HD inline void broyden_update(F* J, const F* c, const F* before, const F* s, int m, int d) {
  F ss = F(0);
  for (int j = 0; j < d; ++j) ss += s[j] * s[j];
  if (!(ss > F(0))) return;
  for (int k = 0; k < m; ++k) {
    F predicted = F(0);
    for (int j = 0; j < d; ++j) predicted += J[k * d + j] * s[j];
    const F u = (c[k] - before[k] - predicted) / ss;
    for (int j = 0; j < d; ++j) J[k * d + j] += u * s[j];
  }
}

}  // namespace fusedga
