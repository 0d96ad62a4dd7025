#pragma once
/// @file gene_view.hpp
/// The `X` a problem's objective and constraints receive: one individual's genes.

#include "fusedga/core/macros.hpp"

namespace fusedga {

/**
 * Read-only view of one individual's `d` genes, `x[j]` at `data[j * Stride]`.
 *
 * `Stride == 1` is a row of the row-major (N × d) population; `Stride == P`
 * is one lane of a structure-of-arrays tile of P individuals, the layout the
 * vectorizer turns into SIMD lanes. Problems must only index it, never take
 * its address range. Trivially copyable; valid while the storage lives.
 */
template <class Gene, int Stride>
struct gene_view {
  const Gene* data;
  FUSEDGA_HD Gene operator[](int j) const { return data[j * Stride]; }
};

}  // namespace fusedga
