#pragma once
/// @file evaluator.hpp
/// The batch-evaluation interface behind expression problems: the
/// interpreter and the JIT-compiled module both implement it, and the engine
/// calls it once per tile of individuals from inside its fused passes.

#include <cstddef>

namespace fusedga::expr {

/**
 * Evaluates `count` individuals at once.
 *
 * Gene j of individual l is `genes[l * lane_stride + j * gene_stride]`: rows
 * (lane_stride = d, gene_stride = 1) or a structure-of-arrays tile
 * (lane_stride = 1, gene_stride = tile width). Writes objective[l] and
 * violation[l] = Σ max(0, g_j) + Σ max(0, |h_j| − eps) for l < count
 * (NaN propagates; see constraint_sink.hpp). `Real` is float or double and
 * is the precision of all arithmetic. count >= 0, any size. Implementations
 * are immutable after construction: `evaluate` is thread-safe.
 */
template <class Real>
class evaluator {
 public:
  virtual ~evaluator() = default;
  virtual void evaluate(const Real* genes, std::ptrdiff_t lane_stride, std::ptrdiff_t gene_stride, int count, Real eps,
                        Real* objective, Real* violation) const = 0;
};

}  // namespace fusedga::expr
