#pragma once
/// @file gradient_repair.hpp
/// Gradient-based repair of violated constraints: Newton steps through the
/// pseudo-inverse of the violated constraints' Jacobian.
///
/// Sources: Takahama & Sakai 2006, "Constrained optimization by the ε
/// constrained differential evolution with gradient-based mutation and
/// feasible elites", IEEE CEC 2006 (the operator, applied with a probability,
/// a few iterations, to infeasible children); Chootinan & Chen 2006,
/// "Constraint handling in genetic algorithms using a gradient-based repair
/// method", Computers & Operations Research 33(8) (the step
/// x ← x − ∇C⁺·ΔC on the violated constraints); Broyden 1965 (a Jacobian
/// by finite differences, then updated by secants: see gradient_repair's
/// cost).

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "fusedga/core/constraint_jacobian.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/core/problem_traits.hpp"
#include "fusedga/core/small_linear_solve.hpp"
#include "fusedga/operators/repair.hpp"

namespace fusedga {

/// The resolved parameters of the repair (kernel_params carries one).
struct gradient_repair_spec {
  double rate = 0;       ///< probability that a child is repaired, [0, 1]; 0 = off
  int iterations = 3;    ///< steps at most, >= 1
  int inequalities = 0;  ///< the problem's inequality count, resolved on the host (device code cannot ask the
                         ///< problem: the GPU JIT's counts live in its host-side program)
  int equalities = 0;    ///< the problem's equality count, likewise

  /// Whether the run repairs at all: a rate above 0 and some constraint to repair.
  FUSEDGA_HD bool enabled() const { return rate > 0 && inequalities + equalities > 0; }
};

/// Whether the gradient repair can run on `P`: real genes stored as the fitness type, and a Jacobian (its own or by
/// finite differences over per-individual constraints); never for population-batch problems, whose constraints
/// come a population at a time (validate_population_evaluation rejects the repair for them).
template <class P>
inline constexpr bool repairable_v =
    std::is_floating_point_v<gene_t<P>> && !detail::has_population_evaluation<P>::value &&
    std::is_same_v<gene_t<P>, fitness_t<P>> && has_constraint_jacobian_v<P>;

/// Values of pseudo_inverse_step's work for d genes and m constraints: n·n + n, n = min(m, d).
FUSEDGA_HD inline std::size_t gradient_repair_work(int d, int m) {
  const std::size_t n = static_cast<std::size_t>(m < d ? m : d);
  return n * n + n;
}

/// Scratch values (of the fitness type) that gradient_repair needs for d genes and m constraints.
FUSEDGA_HD inline std::size_t gradient_repair_scratch(int d, int m) {
  const std::size_t D = static_cast<std::size_t>(d), M = static_cast<std::size_t>(m);
  return M + M * D + M + D + gradient_repair_work(d, m) + D + M;  // c, J, ΔC, step, solve work, x+h (genes), c(x+h)
}

/**
 * Repairs the child x (d contiguous genes, in the bounds) in place: while
 * some constraint is violated (g_k > 0, or |h_k| > eps), up to `iterations`
 * times: C = the violated inequalities and *every* equality, ΔC their values
 * (g_k + eps/2 for inequalities, aiming just inside the boundary; h_k for
 * equalities), ∇C their rows of the Jacobian
 * (m' × d); x ← clip(x − ∇C⁺·ΔC, lower, upper) with ∇C⁺ the ridge-regularized
 * Moore–Penrose pseudo-inverse (small_linear_solve.hpp: minimum-norm step
 * for m' <= d, least squares for m' > d). Stops when no constraint is
 * violated, or when a step leaves x unchanged (the next would be the same),
 * or keeps the last x when the step is not finite or the system
 * is singular. Real genes only.
 *
 * Why every equality, not only the violated ones (Chootinan & Chen use the
 * violated set): a step on a violated inequality alone moves the point off
 * an equality it already met, and the next step back; with the equality's
 * row kept (ΔC = h, tiny when met) the step stays on it to first order.
 * Measured on a disc g plus a line h from 200 random starts
 * (tests/operators/test_gradient_repair.cpp): 21 feasible after 5 steps with
 * the violated set only, 183 after 6 with every equality kept.
 *
 * Cost, counted in evaluations as Takahama & Sakai count them: each
 * iteration evaluates the constraints at x (1 evaluation; with the
 * problem's own Jacobian, the same call gives it). By finite differences,
 * the first iteration that finds a constraint violated also takes the
 * Jacobian (d more evaluations, difference_jacobian); later iterations
 * update it from the step taken and the values' change at no evaluation
 * (broyden_update: Broyden's rank-one secant update). So a repair costs at
 * most `iterations` + d evaluations, not `iterations`·(1 + d) as Newton's
 * steps by differences did. Measured on the quality suite's 21 constrained
 * problems, 100 seeds (docs/quality.md, "Broyden's update"): fewer
 * evaluations to the target on 17 of 20 solved, but 2.9× more on rc11, whose
 * equalities Broyden's steps did not meet within 3 steps where Newton's did;
 * with 8 steps at most (measured_defaults' for a Jacobian by differences:
 * docs/quality.md, "repair steps by finite differences") rc11 is solved in
 * every run, with fewer evaluations than Newton's 3 steps took.
 * Taking the Jacobian by differences again after a step that did not reduce
 * the violation did worse, and so did stopping there. The final check of a
 * repaired child is the engine's regular evaluation (already counted).
 * Returns the evaluations spent.
 *
 * `integer` (null, or d marks: bounds_view::integer): the step's integer variables are rounded after the
 * clip (repair.hpp), so a step too short to reach the next integer leaves that gene unchanged (and the
 * repair stops once a step moves no gene).
 *
 * `scratch`: gradient_repair_scratch(d, m) values. Deterministic (no
 * randomness here; the caller draws the coin), `FUSEDGA_HD`, no allocation.
 */
template <class P>
FUSEDGA_HD inline int gradient_repair(const P& p, gene_t<P>* x, int d, int ni, int ne, const gene_t<P>* lower,
                                      const gene_t<P>* upper, fitness_t<P> eps, int iterations, fitness_t<P>* scratch,
                                      const std::uint8_t* integer = nullptr) {
  using F = fitness_t<P>;
  using G = gene_t<P>;
  const int m = ni + ne;
  const std::size_t D = static_cast<std::size_t>(d), M = static_cast<std::size_t>(m);
  F* c = scratch;
  F* J = c + M;
  F* r = J + M * D;
  F* s = r + M;
  F* work = s + D;
  G* xh = reinterpret_cast<G*>(work + gradient_repair_work(d, m));  // G is F for real genes (float genes: float)
  F* c2 = work + gradient_repair_work(d, m) + D;
  // Inequalities are aimed just inside, at g = −eps/2: the linear model of a convex constraint seen from outside
  // lands outside it (Newton approaches r² = 4 from above), and under feasibility rules g = 1e-12 is infeasible.
  const F margin = eps / F(2);
  int evaluations = 0;
  (void)xh, (void)c2;  // difference_jacobian's scratch and the values before a step; unused with its own Jacobian
  const auto violated = [&](int k) {
    const F v = c[k];
    return k < ni ? v > F(0) : (v < F(0) ? -v : v) > eps;
  };
  // A step's rows: the violated inequalities and every equality (see the doc comment).
  const auto in_step = [&](int k) { return k >= ni || violated(k); };
  constexpr bool own = detail::has_jacobian<P>::value;
  for (int it = 0; it < iterations; ++it) {
    // The values first, the Jacobian by differences only where a constraint is violated: the check after a step
    // that met every constraint (a linear constraint's first step does) then costs 1 evaluation, not 1 + d.
    if constexpr (own)
      p.jacobian(x, c, J);
    else
      constraint_values(p, x, ni, ne, c);
    ++evaluations;
    bool any_violated = false;
    for (int k = 0; k < m; ++k) any_violated = any_violated || violated(k);
    if (!any_violated) break;
    if constexpr (!own) {
      if (it == 0)
        evaluations += difference_jacobian(p, x, d, ni, ne, upper, c, J, xh, c2);
      else
        broyden_update(J, c, c2, s, m, d);  // c2: the values before the step s
    }
    // The step's rows (the violated inequalities, every equality) swapped to the top of J, in order; by
    // differences the swaps are undone after the step, so that the next update finds each constraint's row.
    int rows = 0;
    for (int k = 0; k < m; ++k) {
      if (!in_step(k)) continue;
      swap_rows(J, rows, k, d);
      r[rows++] = k < ni ? c[k] + margin : c[k];
    }
    if (!pseudo_inverse_step(J, r, rows, d, s, work)) break;
    if constexpr (!own)
      for (int k = m - 1; k >= 0; --k)
        if (in_step(k)) swap_rows(J, --rows, k, d);
    bool moved = false;
    for (int j = 0; j < d; ++j) {
      G v = static_cast<G>(x[j] - static_cast<G>(s[j]));
      v = v < lower[j] ? lower[j] : v;
      v = v > upper[j] ? upper[j] : v;
      if (integer != nullptr && integer[j]) v = round_integer_gene(v);
      moved = moved || v != x[j];
      if constexpr (!own) s[j] = static_cast<F>(v - x[j]);  // the step taken, clipped and rounded: for Broyden
      x[j] = v;
    }
    // An unmoved x would repeat this iteration exactly (a zero Jacobian, as through rounded integer genes, or a
    // step clipped away at the bounds): stop rather than pay for the same evaluation again.
    if (!moved) break;
    if constexpr (!own)
      for (int k = 0; k < m; ++k) c2[k] = c[k];
  }
  return evaluations;
}

}  // namespace fusedga
