#pragma once
/// @file constraint_handler.hpp
/// The host side of the dynamic constraint handlers: the parameters of each
/// generation (core/constraint_key.hpp's handler_state) computed from the run's
/// options and the current population's objectives and violations. The engine
/// owns this state and hands it to its executor, whose re-key pass applies it.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "fusedga/core/constraint_key.hpp"
#include "fusedga/core/sense.hpp"

namespace fusedga::detail {

/**
 * Takahama & Sakai's initial ε level: the violation of the ceil(θ·N)-th best
 * individual by violation (θ in (0, 1]; the 1st best is the least violated).
 * NaN violations count as +inf. `scratch` is resized to N. O(N).
 */
template <class F>
F initial_epsilon(const F* violation, std::size_t n, double theta, std::vector<F>& scratch) {
  scratch.assign(violation, violation + n);
  for (F& v : scratch)
    if (v != v) v = static_cast<F>(INFINITY);
  const double rank = std::ceil(theta * static_cast<double>(n));
  const std::size_t k = static_cast<std::size_t>(std::min(std::max(rank, 1.0), static_cast<double>(n))) - 1;
  std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(k), scratch.end());
  return scratch[k];
}

/**
 * Takahama & Sakai's ε control: ε(t) = ε(0)·(1 − t/Tc)^cp for 0 <= t < Tc,
 * 0 for t >= Tc (so ε = 0, feasibility rules, from generation Tc on; Tc = 0
 * gives feasibility rules throughout).
 */
inline double epsilon_at(double epsilon0, int generation, double tc, double cp) {
  const double t = static_cast<double>(generation);
  if (!(t < tc)) return 0.0;
  return epsilon0 * std::pow(1.0 - t / tc, cp);
}

/**
 * The self-adaptive penalty's parameters from a population of `n` individuals
 * (Farmani & Wright 2003, "Self-adaptive fitness formulation for constrained
 * optimization", IEEE TEC 7(5), in the form of pagmo's cstrs_self_adaptive:
 * the same choice of x̂ (best), x̌ (worst) and x̃ (highest objective) and the
 * same ties). Objectives are minimized (the sign of `sense` applied). The
 * infeasibility of an individual is its total violation v(x) — the engine
 * folds the constraints into that one number during evaluation — where pagmo
 * averages each constraint's violation divided by its population maximum. NaN
 * individuals are ignored. O(N), host.
 *
 * - all feasible: no penalty (γ = 0, no first penalty);
 * - x̂ = the feasible one with the lowest objective, or, when none is
 *   feasible, the least violated one (ties: lower objective);
 * - if an infeasible one has a lower objective than f̂, x̌ = the most violated
 *   of those (ties: lower objective) and the first penalty applies; otherwise
 *   x̌ = the most violated infeasible one (ties: higher objective), no first
 *   penalty;
 * - γ = (f̃ − f̂)/|f̂| when f̌ <= f̂, else (f̃ − f̌)/|f̌|; γ = 0 when f̌ = f̃ or
 *   γ is not finite (f̂ or f̌ = 0).
 *
 * Two departures from pagmo, both so that a penalty never rewards violation
 * (docs/operators.md): pagmo divides γ by f̂ (or f̌), not by its magnitude,
 * which turns the second penalty into a bonus where that objective is
 * negative; and with no feasible individual pagmo always applies the first
 * penalty, which adds ĩ·(f̂ − f̌) < 0 when x̌'s objective is the higher, so
 * more violation scores better. Here the first penalty applies only where it
 * raises the score, as when some individual is feasible.
 */
template <class F>
handler_state<F> self_adaptive_state(const F* objective, const F* violation, std::size_t n, Sense sense) {
  handler_state<F> h{};
  const auto f = [&](std::size_t i) { return sense == Sense::maximize ? -objective[i] : objective[i]; };
  const auto valid = [&](std::size_t i) { return objective[i] == objective[i] && violation[i] == violation[i]; };
  const auto infeasible = [&](std::size_t i) { return valid(i) && violation[i] > F(0); };
  constexpr std::size_t none = ~std::size_t(0);
  std::size_t down = none, up = none, round = none, infeasible_count = 0, counted = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!valid(i)) continue;
    ++counted;
    if (violation[i] > F(0)) {
      ++infeasible_count;
    } else if (down == none || f(i) < f(down)) {
      down = i;
    }
    if (round == none || f(i) > f(round)) round = i;
  }
  if (infeasible_count == 0) return h;  // all feasible (or nothing valid): no penalty
  if (infeasible_count == counted)      // none feasible: x̂ is the least violated
    for (std::size_t i = 0; i < n; ++i)
      if (valid(i) &&
          (down == none || violation[i] < violation[down] || (violation[i] == violation[down] && f(i) < f(down))))
        down = i;
  for (std::size_t i = 0; i < n; ++i)  // x̌ among those better than x̂
    if (infeasible(i) && f(i) < f(down) &&
        (up == none || violation[i] > violation[up] || (violation[i] == violation[up] && f(i) < f(up))))
      up = i;
  h.penalty1 = up != none;
  if (up == none)
    for (std::size_t i = 0; i < n; ++i)
      if (infeasible(i) &&
          (up == none || violation[i] > violation[up] || (violation[i] == violation[up] && f(i) > f(up))))
        up = i;
  h.f_down = f(down);
  h.f_up = f(up);
  h.i_down = violation[down];
  h.i_up = violation[up];
  const F f_round = f(round);
  const F ref = h.f_up <= h.f_down ? h.f_down : h.f_up;
  F scale = (f_round - ref) / (ref < F(0) ? -ref : ref);
  if (h.f_up == f_round || !std::isfinite(static_cast<double>(scale))) scale = F(0);
  h.scale = scale;
  return h;
}

}  // namespace fusedga::detail
