#pragma once
/// @file dispatch.hpp
/// The one dispatch from an operator kind to its functor, for CPU tiles
/// (engine/variation.hpp) and GPU threads (backends/cuda/pair_ops.hpp).
///
/// A run carries, per family, a small trivially copyable spec: the chosen kind
/// and that operator's parameters in the order of its row in catalog.hpp (not
/// every operator's parameters). `visit<Gene>(spec, f)` builds the functor and
/// calls `f(op)` once; callers hoist it out of their element loops. Operators
/// that cannot vary `Gene` (their `genes`) are never instantiated for it: the
/// visit does nothing for them (validation rejects such runs first).

#include <cstdint>
#include <type_traits>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/operators/catalog.hpp"

namespace fusedga {

/// Largest parameter count of one operator's row (catalog.hpp), family parameters excluded.
inline constexpr int kMaxOperatorParams = 2;

/// The chosen crossover: kind, crossing probability and the row's parameters. Trivially copyable.
struct crossover_spec {
  crossover_kind kind;
  double rate;                        ///< probability that a pair is crossed, [0, 1]
  double params[kMaxOperatorParams];  ///< spec_of(kind).params, in order; the rest 0
};

/// The chosen mutation: kind, per-gene probability (resolved: auto = 1/d) and the row's parameters.
struct mutation_spec {
  mutation_kind kind;
  double rate;                        ///< per-gene probability, [0, 1]
  double params[kMaxOperatorParams];  ///< spec_of(kind).params, in order; the rest 0
};

static_assert(std::is_trivially_copyable_v<crossover_spec> && std::is_trivially_copyable_v<mutation_spec>);

namespace detail {
template <class Gene, class Op, class F>
FUSEDGA_HD FUSEDGA_INLINE void call_if_accepted(F& f, const Op& op) {
  if constexpr (accepts_gene_v<Op, Gene>) f(op);
}
}  // namespace detail

/**
 * Calls `f(op)` with the crossover functor of `s`, when it accepts `Gene`.
 * Runs on host and device; O(1), no allocation.
 */
template <class Gene, class F>
FUSEDGA_HD FUSEDGA_INLINE void visit(const crossover_spec& s, F&& f) {
  switch (s.kind) {
    case crossover_kind::sbx:
      detail::call_if_accepted<Gene>(f, sbx{s.params[0]});
      break;
    case crossover_kind::blx_alpha:
      detail::call_if_accepted<Gene>(f, blx_alpha{s.params[0]});
      break;
    case crossover_kind::uniform:
      detail::call_if_accepted<Gene>(f, uniform_crossover{});
      break;
    case crossover_kind::one_point:
      detail::call_if_accepted<Gene>(f, point_crossover{1});
      break;
    case crossover_kind::two_point:
      detail::call_if_accepted<Gene>(f, point_crossover{2});
      break;
  }
}

/// Calls `f(op)` with the mutation functor of `s` (whose `rate` is s.rate), when it accepts `Gene`.
template <class Gene, class F>
FUSEDGA_HD FUSEDGA_INLINE void visit(const mutation_spec& s, F&& f) {
  switch (s.kind) {
    case mutation_kind::polynomial:
      detail::call_if_accepted<Gene>(f, polynomial_mutation{s.rate, s.params[0]});
      break;
    case mutation_kind::gaussian:
      detail::call_if_accepted<Gene>(f, gaussian_mutation{s.rate, s.params[0]});
      break;
    case mutation_kind::uniform_reset:
      detail::call_if_accepted<Gene>(f, uniform_reset_mutation{s.rate});
      break;
    case mutation_kind::creep:
      detail::call_if_accepted<Gene>(f, creep_mutation{s.rate, static_cast<int>(s.params[0])});
      break;
  }
}

/**
 * One gene of one pair through crossover functor `op`, in place, with the
 * pair's cut points [cut_lo, cut_hi) (k-point crossovers) and the gene's
 * draws `g` (the others): the one element call shared by every backend.
 */
template <class Op, class Gene>
FUSEDGA_HD FUSEDGA_INLINE void cross_gene(const Op& op, Gene& a, Gene& b, Gene lo, Gene hi, int j, int cut_lo,
                                          int cut_hi, const draws4& g) {
  if constexpr (std::is_same_v<Op, point_crossover>) {
    op(a, b, j, cut_lo, cut_hi);
  } else {
    op(a, b, lo, hi, g);
  }
}

/// The cut points [lo, hi) of a pair from its pair draws: drawn by k-point
/// crossovers (point_crossover::cuts), [d, d) (none) for the others.
template <class Op>
FUSEDGA_HD FUSEDGA_INLINE void pair_cuts(const Op& op, const draws4& pair, int d, int& lo, int& hi) {
  if constexpr (std::is_same_v<Op, point_crossover>) {
    op.cuts(pair, d, lo, hi);
  } else {
    lo = d;
    hi = d;
  }
}

}  // namespace fusedga
