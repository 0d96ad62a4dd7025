#pragma once
/// @file constraint_key.hpp
/// The rank key of every constraint-handling rule, including the dynamic ones
/// whose order changes from generation to generation (ε-constrained, self-adaptive
/// penalty): their per-generation parameters travel in a `handler_state`,
/// computed on the host by engine/constraint_handler.hpp, and keys of individuals
/// kept across generations are recomputed from stored objective and violation
/// (the re-key pass) whenever that state changes.

#include <cmath>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rank_key.hpp"
#include "fusedga/core/sense.hpp"

namespace fusedga {

/**
 * The per-generation parameters of a dynamic constraint handler. Trivially
 * copyable; zero-initialized means "ε = 0, no penalty" (the feasibility-rules
 * order for `epsilon`, the bare objective for `self_adaptive_penalty`).
 * Objectives here are minimized (the sign of `sense` applied).
 */
template <class Real>
struct handler_state {
  Real epsilon;  ///< ε(t) >= 0: violations <= ε compare by objective (epsilon)
  // Self-adaptive penalty (Farmani & Wright 2003, as pagmo's cstrs_self_adaptive):
  Real f_down;   ///< minimized objective of x̂, the best individual
  Real f_up;     ///< minimized objective of x̌, the worst (highest-violation) individual
  Real i_down;   ///< violation of x̂
  Real i_up;     ///< violation of x̌
  Real scale;    ///< γ, scaling factor of the second (exponential) penalty
  int penalty1;  ///< 1 when the first (linear) penalty applies
};

/// Field-by-field equality (the re-key pass runs only when the state changed).
template <class Real>
FUSEDGA_HD inline bool operator==(const handler_state<Real>& a, const handler_state<Real>& b) {
  return a.epsilon == b.epsilon && a.f_down == b.f_down && a.f_up == b.f_up && a.i_down == b.i_down &&
         a.i_up == b.i_up && a.scale == b.scale && a.penalty1 == b.penalty1;
}

/**
 * Farmani & Wright's penalized objective of an infeasible individual
 * (violation `v` > 0; `f` minimized): with ĩ = (v − î)/(ǐ − î) (or v when
 * ǐ = î), first f += ĩ·(f̂ − f̌) when `penalty1`, then
 * f += γ·|f|·(e^{2ĩ} − 1)/(e² − 1). Pure, O(1).
 */
template <class Real>
FUSEDGA_HD inline Real sap_penalized(Real f, Real v, const handler_state<Real>& h) {
  const Real span = h.i_up - h.i_down;
  const Real it = span != Real(0) ? (v - h.i_down) / span : v;
  if (h.penalty1) f += it * (h.f_down - h.f_up);
  const Real e2m1 = Real(6.38905609893065022723);  // e^2 - 1
  f += h.scale * (f < Real(0) ? -f : f) * ((std::exp(Real(2) * it) - Real(1)) / e2m1);
  return f;
}

/**
 * Rank key of an individual under any constraint-handling rule (smaller = better).
 *
 * - feasibility_rules, penalty: make_rank_key, unchanged (bitwise today's keys).
 * - stochastic_ranking: the feasibility-rules key (elites and best are chosen
 *   by it; the stochastic comparison happens in the tournaments,
 *   operators/stochastic_ranking.hpp).
 * - epsilon: the feasibility-rules key with violations <= `h.epsilon` counted
 *   as feasible, i.e. Takahama & Sakai's ε-level comparison: both within ε →
 *   by objective, otherwise by violation (their tie-break "equal violations →
 *   by objective" is not kept: equal violations above ε tie).
 * - self_adaptive_penalty: feasible ones by objective, infeasible ones by
 *   `sap_penalized`, one ordered scale.
 *
 * A NaN objective or violation, or an objective infinitely good in its sense, gives the worst key (make_rank_key).
 * Pure, O(1).
 */
template <class Real>
FUSEDGA_HD inline rank_key_t<Real> make_handler_key(Real objective, Real violation, Sense sense, constraint_rule rule,
                                                    Real penalty_weight, const handler_state<Real>& h) {
  switch (rule) {
    case constraint_rule::epsilon:
      return make_rank_key(objective, violation <= h.epsilon ? Real(0) : violation, sense,
                           constraint_rule::feasibility_rules, penalty_weight);
    case constraint_rule::stochastic_ranking:
      return make_rank_key(objective, violation, sense, constraint_rule::feasibility_rules, penalty_weight);
    case constraint_rule::self_adaptive_penalty: {
      if (violation != violation) return ~rank_key_t<Real>(0);
      const Real f = sense == Sense::maximize ? -objective : objective;
      const Real score = violation > Real(0) ? sap_penalized(f, violation, h) : f;
      return make_rank_key(score, Real(0), Sense::minimize, constraint_rule::penalty, Real(0));
    }
    default:
      return make_rank_key(objective, violation, sense, rule, penalty_weight);
  }
}

/// True for the rules whose order changes during a run (their keys are recomputed by the re-key pass).
FUSEDGA_HD inline bool dynamic_rule(constraint_rule rule) {
  return rule == constraint_rule::epsilon || rule == constraint_rule::self_adaptive_penalty;
}

}  // namespace fusedga
