#pragma once
/// @file rank_key.hpp
/// The rank key: one unsigned integer per individual that encodes the
/// comparison order of the constraint-handling rule, so a tournament is one
/// load and one compare per candidate (smaller key = better individual).

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/sense.hpp"

namespace fusedga {

/// Rank key type for a fitness type: 64 bits for double, 32 for float.
template <class Fitness>
using rank_key_t = std::conditional_t<sizeof(Fitness) == 8, std::uint64_t, std::uint32_t>;

/// How individuals are compared.
enum class constraint_rule {
  /// Deb's feasibility rules (Deb 2000, "An efficient constraint handling
  /// method for genetic algorithms", CMAME 186): feasible beats infeasible,
  /// two feasible compare by objective, two infeasible by total violation.
  feasibility_rules,
  /// Static penalty (Homaifar, Qi & Lai 1994): compare objective + weight × violation.
  penalty,
  /// ε-constrained method with dynamic ε control (Takahama & Sakai 2006): feasibility
  /// rules with violations <= ε(t) counted as feasible (constraint_key.hpp).
  epsilon,
  /// Stochastic ranking (Runarsson & Yao 2000): tournament comparisons by objective with
  /// probability pf unless both are feasible (operators/stochastic_ranking.hpp).
  stochastic_ranking,
  /// Self-adaptive penalty (Farmani & Wright 2003), recomputed every generation (constraint_key.hpp).
  self_adaptive_penalty,
};

namespace detail {
/// Maps a float/double to an unsigned integer with the same order (total order, -0 < +0).
template <class Real>
FUSEDGA_HD inline rank_key_t<Real> ordered_bits(Real x) {
  using U = rank_key_t<Real>;
  U b;
  std::memcpy(&b, &x, sizeof b);
  constexpr U top = U(1) << (sizeof(U) * 8 - 1);
  return (b & top) ? U(~b) : U(b | top);
}
}  // namespace detail

/**
 * Rank key of an individual.
 *
 * Feasibility rules: feasible keys lie in [0, 2^(w-1)) ordered by the
 * minimized objective, infeasible ones in [2^(w-1), 2^w) ordered by violation
 * (w = key width). One low bit of resolution is given up for the flag, so two
 * objectives within one ulp may tie. Penalty: key orders objective + weight·v.
 * A NaN objective, violation or penalized score gives the worst key, and so does an objective infinitely good in
 * the problem's sense (−∞ minimized, +∞ maximized: log(0) in a corner of the box): it would beat every finite
 * individual and leave the run without a usable best. Pure, O(1).
 *
 * @param objective  objective as the user states it (sign of `sense`)
 * @param violation  total violation, >= 0; 0 means feasible
 */
template <class Real>
FUSEDGA_HD inline rank_key_t<Real> make_rank_key(Real objective, Real violation, Sense sense, constraint_rule rule,
                                                 Real penalty_weight) {
  using U = rank_key_t<Real>;
  constexpr U top = U(1) << (sizeof(U) * 8 - 1);
  const Real minimized = sense == Sense::maximize ? -objective : objective;
  const bool penalized = rule == constraint_rule::penalty;
  const Real score = penalized ? minimized + penalty_weight * violation : minimized;
  const bool infeasible = !penalized && violation > Real(0);
  const U feasible_key = detail::ordered_bits(score) >> 1;
  const U infeasible_key = top | (detail::ordered_bits(violation) >> 1);
  const U key = infeasible ? infeasible_key : feasible_key;
  const bool bad = objective != objective || violation != violation || score != score ||  // NaN (also inf − inf)
                   minimized == -std::numeric_limits<Real>::infinity();
  return bad ? ~U(0) : key;
}

/// True for the key of an individual whose objective, violation or penalized score is NaN, or whose objective is
/// infinitely good (the worst key, which no rankable individual gets): such individuals are counted apart (the
/// history's nan_individuals) and left out of the mean objective.
template <class Key>
FUSEDGA_HD inline bool is_nan_key(Key key) {
  return key == static_cast<Key>(~Key(0));
}

}  // namespace fusedga
