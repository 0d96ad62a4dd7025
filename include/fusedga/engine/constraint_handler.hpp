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
 * the same choice of x̂ (best), x̌ (worst) and x̃ (highest objective), the same
 * ties and the same scaling factor γ). Objectives are minimized (the sign of
 * `sense` applied). One difference: the infeasibility of an individual is its
 * total violation v(x) — the engine folds the constraints into that one number
 * during evaluation — where pagmo averages each constraint's violation divided
 * by its population maximum. A γ that is not finite (pagmo divides by f̂ or f̌,
 * which may be 0) is taken as 0. NaN individuals are ignored. O(N), host.
 *
 * - all feasible: no penalty (γ = 0, no first penalty);
 * - some feasible: x̂ = the feasible one with the lowest objective; if an
 *   infeasible one has a lower objective than f̂, x̌ = the most violated of those
 *   (ties: lower objective) and the first penalty applies; otherwise x̌ = the
 *   most violated infeasible one (ties: higher objective), no first penalty;
 * - none feasible: x̂ = the least violated (ties: lower objective), x̌ = the most
 *   violated (ties: higher objective), the first penalty applies;
 * - γ = (f̃ − f̂)/f̂ when f̌ <= f̂, else (f̃ − f̌)/f̌; γ = 0 when f̌ = f̃.
 */
template <class F>
handler_state<F> self_adaptive_state(const F* objective, const F* violation, std::size_t n, Sense sense) {
  handler_state<F> h{};
  const auto f = [&](std::size_t i) { return sense == Sense::maximize ? -objective[i] : objective[i]; };
  const auto valid = [&](std::size_t i) { return objective[i] == objective[i] && violation[i] == violation[i]; };
  constexpr std::size_t none = ~std::size_t(0);
  std::size_t down = none, up = none, round = none, infeasible = 0, counted = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!valid(i)) continue;
    ++counted;
    if (violation[i] > F(0)) {
      ++infeasible;
    } else if (down == none || f(i) < f(down)) {
      down = i;
    }
    if (round == none || f(i) > f(round)) round = i;
  }
  if (infeasible == 0) return h;  // all feasible (or nothing valid): no penalty
  const bool any_feasible = infeasible < counted;
  if (any_feasible) {
    for (std::size_t i = 0; i < n && up == none; ++i)
      if (valid(i) && violation[i] > F(0) && f(i) < f(down)) up = i;
    h.penalty1 = up != none;
    if (up != none) {
      for (std::size_t i = 0; i < n; ++i)
        if (valid(i) && violation[i] > F(0) && f(i) < f(down) &&
            (violation[i] > violation[up] || (violation[i] == violation[up] && f(i) < f(up))))
          up = i;
    } else {
      for (std::size_t i = 0; i < n; ++i)
        if (valid(i) && violation[i] > F(0) &&
            (up == none || violation[i] > violation[up] || (violation[i] == violation[up] && f(i) > f(up))))
          up = i;
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      if (!valid(i)) continue;
      if (down == none || violation[i] < violation[down] || (violation[i] == violation[down] && f(i) < f(down)))
        down = i;
      if (up == none || violation[i] > violation[up] || (violation[i] == violation[up] && f(i) > f(up))) up = i;
    }
    h.penalty1 = 1;
  }
  h.f_down = f(down);
  h.f_up = f(up);
  h.i_down = violation[down];
  h.i_up = violation[up];
  const F f_round = f(round);
  F scale = h.f_up <= h.f_down ? (f_round - h.f_down) / h.f_down : (f_round - h.f_up) / h.f_up;
  if (h.f_up == f_round || !std::isfinite(static_cast<double>(scale))) scale = F(0);
  h.scale = scale;
  return h;
}

}  // namespace fusedga::detail
