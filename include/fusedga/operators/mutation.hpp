#pragma once
/// @file mutation.hpp
/// The shared shape of every mutation operator.
///
/// A mutation functor has a per-gene probability `rate` and
/// `perturb(y, lo, hi, m, child)`, the mutated value of gene y of child 0 or 1
/// given the (pair, gene) draws m. The coins are m.v[0] (child 0) and m.v[2]
/// (child 1); perturbations read m.v[1] and m.v[3]. `mutate_pair` applies the
/// coins (one GPU thread, or a row); CPU tiles evaluate the coins first and
/// call `perturb` only for the genes that mutate.

#include <type_traits>

#include "fusedga/core/macros.hpp"
#include "fusedga/core/rng.hpp"

namespace fusedga {

/// Real type in which a mutation coin for `Gene` is compared (the gene's own for float/double).
template <class Gene>
using coin_real_t = std::conditional_t<std::is_floating_point_v<Gene>, Gene, double>;

/// Mutates gene j of both children of a pair with `op`, each with probability op.rate.
template <class Op, class Gene>
FUSEDGA_HD FUSEDGA_INLINE void mutate_pair(const Op& op, Gene& c1, Gene& c2, Gene lo, Gene hi, const draws4& m) {
  using R = coin_real_t<Gene>;
  const Gene n1 = op.perturb(c1, lo, hi, m, 0);
  const Gene n2 = op.perturb(c2, lo, hi, m, 1);
  c1 = coin<R>(m.v[0], R(op.rate)) ? n1 : c1;
  c2 = coin<R>(m.v[2], R(op.rate)) ? n2 : c2;
}

}  // namespace fusedga
