#pragma once
/// @file problem_traits.hpp
/// The problem concept (DESIGN.md, "The problem concept"), checked with the
/// detection idiom, and uniform accessors for its optional parts.
///
/// Required members of a problem type `P`:
///  - `using gene_type = double | float | an integer type;`
///  - `int dimension() const;`                        number of genes d >= 1
///  - `fusedga::Bounds<gene_type> bounds() const;`     per-gene box constraints
///  - `template <class X> FUSEDGA_HD double objective(const X& x) const;`
/// Optional members (defaults in brackets):
///  - `static constexpr fusedga::Sense sense`          [minimize]
///  - `int inequality_count() const;` + `template <class X, class G> FUSEDGA_HD void inequalities(const X&, G& g) const;`
///    each `g[j]` assigned once; `g_j(x) <= 0` is satisfied                           [none]
///  - `int equality_count() const;` + `equalities(x, h)`, `|h_j(x)| <= eps` satisfied [none]
///  - `std::vector<std::string> variable_names() const;` one per gene               [x[0], x[1], ...]
///  - `using fitness_type = float | double;` objective/violation storage            [float for float genes, else double]
///  - `void evaluate_batch(const gene_type* x, std::ptrdiff_t lane_stride, std::ptrdiff_t gene_stride, int count,
///     fitness_type eps, fitness_type* objective, fitness_type* violation) const;`
///    host-only problems (expression problems) that evaluate a whole tile per call:
///    gene j of individual l at x[l·lane_stride + j·gene_stride]; then objective(),
///    inequalities() and equalities() are not called by the engine           [per-individual evaluation]
/// Problems are copied by value into kernels: keep them small and trivially copyable.

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "fusedga/core/sense.hpp"

namespace fusedga {
namespace detail {

template <class...>
using void_t = void;

template <class P, class = void>
struct has_sense : std::false_type {};
template <class P>
struct has_sense<P, void_t<decltype(P::sense)>> : std::true_type {};

template <class P, class = void>
struct has_inequalities : std::false_type {};
template <class P>
struct has_inequalities<P, void_t<decltype(std::declval<const P&>().inequality_count())>> : std::true_type {};

template <class P, class = void>
struct has_equalities : std::false_type {};
template <class P>
struct has_equalities<P, void_t<decltype(std::declval<const P&>().equality_count())>> : std::true_type {};

template <class P, class = void>
struct has_variable_names : std::false_type {};
template <class P>
struct has_variable_names<P, void_t<decltype(std::declval<const P&>().variable_names())>> : std::true_type {};

template <class P, class = void>
struct has_batch_evaluation : std::false_type {};
template <class P>
struct has_batch_evaluation<P, void_t<decltype(&P::evaluate_batch)>> : std::true_type {};

template <class P, class = void>
struct fitness_of {
  using type = std::conditional_t<std::is_same_v<typename P::gene_type, float>, float, double>;
};
template <class P>
struct fitness_of<P, void_t<typename P::fitness_type>> {
  using type = typename P::fitness_type;
};

template <class P, class = void>
struct is_problem : std::false_type {};
template <class P>
struct is_problem<P, void_t<typename P::gene_type, decltype(std::declval<const P&>().dimension()),
                            decltype(std::declval<const P&>().bounds())>> : std::true_type {};

}  // namespace detail

/// Gene type of problem `P`.
template <class P>
using gene_t = typename P::gene_type;

/// Storage type of objective and violation values for `P` (float or double).
template <class P>
using fitness_t = typename detail::fitness_of<P>::type;

/// True when `P` has the required members of the problem concept.
template <class P>
inline constexpr bool is_problem_v = detail::is_problem<P>::value;

/// Optimization sense of `P` (minimize unless `P::sense` says otherwise).
template <class P>
constexpr Sense sense_of() {
  if constexpr (detail::has_sense<P>::value) return P::sense;
  else return Sense::minimize;
}

/// Number of inequality constraints of `p` (0 when it declares none).
template <class P>
int inequality_count(const P& p) {
  if constexpr (detail::has_inequalities<P>::value) return p.inequality_count();
  else return 0;
}

/// Number of equality constraints of `p` (0 when it declares none).
template <class P>
int equality_count(const P& p) {
  if constexpr (detail::has_equalities<P>::value) return p.equality_count();
  else return 0;
}

/// Gene names of `p`: its `variable_names()`, else `x[0]`, `x[1]`, ...
template <class P>
std::vector<std::string> variable_names(const P& p) {
  if constexpr (detail::has_variable_names<P>::value) {
    return p.variable_names();
  } else {
    std::vector<std::string> names;
    for (int j = 0; j < p.dimension(); ++j) names.push_back("x[" + std::to_string(j) + "]");
    return names;
  }
}

/// Fails compilation with a readable message when `P` is not a problem type.
template <class P>
constexpr void check_problem() {
  static_assert(is_problem_v<P>, "FusedGA problem types need gene_type, dimension() and bounds(); see problem_traits.hpp");
  static_assert(std::is_arithmetic_v<gene_t<P>>, "gene_type must be a floating-point or integer type");
  static_assert(std::is_trivially_copyable_v<P>, "problems are copied into kernels: make them trivially copyable");
}

}  // namespace fusedga
