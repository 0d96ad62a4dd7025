#pragma once
/// @file gene_kinds.hpp
/// Which gene kinds an operator can vary: each operator functor declares it
/// (`static constexpr gene_kinds genes`), the catalog shows it and the
/// dispatch instantiates an operator only for the gene types it accepts.

#include <type_traits>

namespace fusedga {

/// Gene kinds an operator accepts: real (float, double), integer, or both.
enum class gene_kinds : unsigned char {
  real = 1,     ///< floating-point genes only
  integer = 2,  ///< integer genes only
  any = 3,      ///< both
};

/// True when `kinds` includes real genes (`real_genes`) or integer genes (`!real_genes`).
constexpr bool accepts(gene_kinds kinds, bool real_genes) {
  return (static_cast<unsigned>(kinds) & (real_genes ? 1u : 2u)) != 0;
}

/// True when operator functor `Op` can vary genes of type `Gene`.
template <class Op, class Gene>
constexpr bool accepts_gene_v = accepts(Op::genes, std::is_floating_point_v<Gene>);

/// "real", "integer" or "real, integer", for messages and the operator table.
constexpr const char* to_string(gene_kinds kinds) {
  return kinds == gene_kinds::real ? "real" : kinds == gene_kinds::integer ? "integer" : "real, integer";
}

}  // namespace fusedga
