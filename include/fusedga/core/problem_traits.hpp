#pragma once
/// @file problem_traits.hpp
/// The problem concept (DESIGN.md, "The problem concept"), checked with the
/// detection idiom, and uniform accessors for its optional parts.
///
/// Required members of a problem type `P`:
///  - `using gene_type = double | float | an integer type;`
///  - `int dimension() const;`                        number of genes d >= 1
///  - `fusedga::Bounds<gene_type> bounds() const;`     per-gene box constraints (and, for real genes, which
///                                                    are integer variables: Bounds::integer)
///  - `template <class X> FUSEDGA_HD double objective(const X& x) const;`
/// Optional members (defaults in brackets):
///  - `static constexpr fusedga::Sense sense`          [minimize]
///  - `int inequality_count() const;` + `template <class X, class G> FUSEDGA_HD void inequalities(const X&, G& g)
///  const;`
///    each `g[j]` assigned once; `g_j(x) <= 0` is satisfied                           [none]
///  - `int equality_count() const;` + `equalities(x, h)`, `|h_j(x)| <= eps` satisfied [none]
///  - `std::vector<std::string> variable_names() const;` one per gene               [x[0], x[1], ...]
///  - `using fitness_type = float | double;` objective/violation storage            [float for float genes, else
///  double]
///  - `void evaluate_batch(const gene_type* x, std::ptrdiff_t lane_stride, std::ptrdiff_t gene_stride, int count,
///     fitness_type eps, fitness_type* objective, fitness_type* violation) const;`
///    host-only problems (expression problems) that evaluate a whole tile per call:
///    gene j of individual l at x[l·lane_stride + j·gene_stride]; then objective(),
///    inequalities() and equalities() are not called by the engine           [per-individual evaluation]
///  - `FUSEDGA_HD void jacobian(const gene_type* x, fitness_type* c, fitness_type* J) const;`
///    constraint values and their exact Jacobian at the d contiguous genes x: c[k] for the m = inequality_count +
///    equality_count constraints, inequalities g first then equalities h (raw values, before max/abs), and
///    J[k·d + j] = ∂c_k/∂x_j (m × d row-major, every entry written). Read by the gradient repair
///    (operators/gradient_repair.hpp) only                     [forward finite differences, core/constraint_jacobian.hpp]
///  - `void evaluate_population(const gene_type* genes, std::size_t n, fitness_type* objective,
///     fitness_type* inequalities, fitness_type* equalities) const;`
///    population-batch evaluation (pagmo2's batch fitness evaluator, `bfe`): ONE call per generation over all
///    the individuals to evaluate — genes n × d row-major (the engine's own population rows, consecutive
///    slots, read-only, no copy); writes objective[n], inequalities n × m and equalities n × p row-major
///    (m = inequality_count, p = equality_count; raw values, g <= 0 and |h| <= eps satisfied). A host function,
///    called on the thread that drives the engine. On the CPU backends (serial, tbb) every pointer is host
///    memory; on backend::cuda every pointer is device memory of the run's device (the population's own rows:
///    hand them to CUDA code, PyTorch or CuPy as they are), the engine's kernels that wrote the rows have
///    finished, and the call must return only when its writes are complete (e.g. after synchronizing the stream
///    it used). May throw: the exception leaves `solve`. objective(), inequalities(), equalities() are
///    then not called by the engine, and the gradient repair (per-individual constraints) is a config_error.
///    The violations are folded from the values by the same sinks, in index order   [per-individual evaluation]
///  - `using partial_type = <an integer type>;` + `template <class X> FUSEDGA_HD partial_type partial_objective(const X&
///    x, int begin, int end) const;` + `FUSEDGA_HD double objective_of(partial_type total) const;`
///    a *separable* objective: objective(x) == objective_of(the sum of partial_objective(x, b_k, e_k) over any
///    partition of [0, d) into ranges [b_k, e_k)), for which only the genes x[begin, end) may be read. Integer
///    partials make every order of that sum exact, so results stay bitwise the same on every backend. Only for
///    problems without constraints; the CUDA backend then evaluates long rows a warp per row (each lane a slice of
///    the genes, coalesced 16-byte loads) and the long-genome offspring kernel sums each child's partials while
///    its lanes build the genes (backends/cuda/kernels.cuh). Declaring it changes no result             [not separable]
/// Problems are copied by value into kernels: keep them small and trivially copyable.
/// Thread safety: on backend::tbb, `objective`, `inequalities`, `equalities`, `partial_objective`, `jacobian` and
/// `evaluate_batch` run concurrently on worker threads (on backend::cuda, in device threads): they must not modify
/// shared state. `evaluate_population` runs on the calling thread only.

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "fusedga/core/bounds.hpp"
#include "fusedga/core/constraint_sink.hpp"
#include "fusedga/core/gene_view.hpp"
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

/// Whether `P` evaluates a whole population per call (`evaluate_population`, see the top).
template <class P, class = void>
struct has_population_evaluation : std::false_type {};
template <class P>
struct has_population_evaluation<P, void_t<decltype(&P::evaluate_population)>> : std::true_type {};

template <class P, class = void>
struct has_gene_type : std::false_type {};
template <class P>
struct has_gene_type<P, void_t<typename P::gene_type>> : std::true_type {};

/// `P::gene_type`, or void when it is missing (keeps the other detectors well-formed).
template <class P, class = void>
struct gene_or_void {
  using type = void;
};
template <class P>
struct gene_or_void<P, void_t<typename P::gene_type>> {
  using type = typename P::gene_type;
};

template <class P, class = void>
struct fitness_of {
  using type = std::conditional_t<std::is_same_v<typename gene_or_void<P>::type, float>, float, double>;
};
template <class P>
struct fitness_of<P, void_t<typename P::fitness_type>> {
  using type = typename P::fitness_type;
};

/// Whether `P` provides `jacobian(const gene_type* x, fitness_type* c, fitness_type* J) const` (see the top).
template <class P, class = void>
struct has_jacobian : std::false_type {};
template <class P>
struct has_jacobian<P, void_t<decltype(std::declval<const P&>().jacobian(
                           std::declval<const typename P::gene_type*>(),
                           std::declval<typename fitness_of<P>::type*>(), std::declval<typename fitness_of<P>::type*>()))>>
    : std::true_type {};

/// Whether `P` has a (non-template) member named `jacobian`, whatever its signature: one that has_jacobian does not
/// accept would otherwise be ignored without a word (finite differences instead).
template <class P, class = void>
struct has_jacobian_member : std::false_type {};
template <class P>
struct has_jacobian_member<P, void_t<decltype(&P::jacobian)>> : std::true_type {};

/// Whether `P` declares a separable objective (`partial_type`, `partial_objective`, `objective_of`; see the top).
template <class P, class = void>
struct has_partial_type : std::false_type {};
template <class P>
struct has_partial_type<P, void_t<typename P::partial_type>> : std::true_type {};

template <class P, class = void>
struct has_partial_functions : std::false_type {};
template <class P>
struct has_partial_functions<
    P, void_t<typename P::partial_type,
              decltype(std::declval<const P&>().partial_objective(
                  std::declval<const gene_view<typename gene_or_void<P>::type, 1>&>(), int{}, int{})),
              decltype(std::declval<const P&>().objective_of(std::declval<typename P::partial_type>()))>>
    : std::true_type {};

/// `P::partial_type` is an integer type (false when `P` declares no separable objective).
template <class P, bool = has_partial_functions<P>::value>
struct integral_partial : std::false_type {};
template <class P>
struct integral_partial<P, true> : std::is_integral<typename P::partial_type> {};

// --- One detector per member of the concept, each safe to ask of any type (no hard error when another member is
// missing), so that check_problem() reports every defect with its own message. ---

/// The `X` and `G` the engine passes: a row view of the genes and a violation sink (evaluate.hpp).
template <class P>
using probe_view = gene_view<typename gene_or_void<P>::type, 1>;
template <class P>
using probe_sink = violation_sink<typename fitness_of<P>::type>;

template <class P, class = void>
struct has_dimension : std::false_type {};
template <class P>
struct has_dimension<P, void_t<decltype(std::declval<const P&>().dimension())>>
    : std::is_convertible<decltype(std::declval<const P&>().dimension()), int> {};

template <class P, class = void>
struct has_bounds : std::false_type {};
template <class P>
struct has_bounds<P, void_t<typename P::gene_type, decltype(std::declval<const P&>().bounds())>>
    : std::is_convertible<decltype(std::declval<const P&>().bounds()), Bounds<typename P::gene_type>> {};

template <class P, class = void>
struct has_objective : std::false_type {};
template <class P>
struct has_objective<P, void_t<typename P::gene_type,
                               decltype(std::declval<const P&>().objective(std::declval<const probe_view<P>&>()))>>
    : std::is_convertible<decltype(std::declval<const P&>().objective(std::declval<const probe_view<P>&>())), double> {
};

template <class P, class = void>
struct has_inequality_function : std::false_type {};
template <class P>
struct has_inequality_function<
    P, void_t<typename P::gene_type, decltype(std::declval<const P&>().inequalities(
                                         std::declval<const probe_view<P>&>(), std::declval<probe_sink<P>&>()))>>
    : std::true_type {};

template <class P, class = void>
struct has_equality_function : std::false_type {};
template <class P>
struct has_equality_function<
    P, void_t<typename P::gene_type, decltype(std::declval<const P&>().equalities(std::declval<const probe_view<P>&>(),
                                                                                  std::declval<probe_sink<P>&>()))>>
    : std::true_type {};

template <class P, class = void>
struct has_batch_signature : std::false_type {};
template <class P>
struct has_batch_signature<
    P, void_t<typename P::gene_type,
              decltype(std::declval<const P&>().evaluate_batch(
                  std::declval<const typename P::gene_type*>(), std::ptrdiff_t{}, std::ptrdiff_t{}, int{},
                  std::declval<typename fitness_of<P>::type>(), std::declval<typename fitness_of<P>::type*>(),
                  std::declval<typename fitness_of<P>::type*>()))>> : std::true_type {};

template <class P, class = void>
struct has_population_signature : std::false_type {};
template <class P>
struct has_population_signature<
    P, void_t<typename P::gene_type,
              decltype(std::declval<const P&>().evaluate_population(
                  std::declval<const typename P::gene_type*>(), std::size_t{},
                  std::declval<typename fitness_of<P>::type*>(), std::declval<typename fitness_of<P>::type*>(),
                  std::declval<typename fitness_of<P>::type*>()))>> : std::true_type {};

/// `P::sense` is optional; when present it must be a `fusedga::Sense` constant.
template <class P, class = void>
struct sense_is_valid : std::true_type {};
template <class P>
struct sense_is_valid<P, void_t<decltype(P::sense)>>
    : std::is_same<std::remove_cv_t<std::remove_reference_t<decltype(P::sense)>>, Sense> {};

template <class P>
struct is_problem : std::bool_constant<has_gene_type<P>::value && has_dimension<P>::value && has_bounds<P>::value &&
                                       (has_objective<P>::value || has_batch_evaluation<P>::value ||
                                        has_population_evaluation<P>::value)> {};

}  // namespace detail

/// Gene type of problem `P`.
template <class P>
using gene_t = typename P::gene_type;

/// Storage type of objective and violation values for `P` (float or double).
template <class P>
using fitness_t = typename detail::fitness_of<P>::type;

/**
 * True when `P`'s objective is separable with exact (integer) partial sums and `P` has no constraints: the CUDA
 * backend's warp-per-row evaluation and partial-summing long offspring kernel apply (see the top). Never for a
 * population-batch problem: its `evaluate_population` call is its only evaluation on every backend.
 */
template <class P>
inline constexpr bool separable_objective_v =
    detail::integral_partial<P>::value && !detail::has_inequalities<P>::value && !detail::has_equalities<P>::value &&
    !detail::has_population_evaluation<P>::value;

/// True when `P` has the required members of the problem concept.
template <class P>
inline constexpr bool is_problem_v = detail::is_problem<P>::value;

/// Optimization sense of `P` (minimize unless `P::sense` says otherwise).
template <class P>
constexpr Sense sense_of() {
  if constexpr (detail::has_sense<P>::value)
    return P::sense;
  else
    return Sense::minimize;
}

/// Number of inequality constraints of `p` (0 when it declares none).
template <class P>
int inequality_count(const P& p) {
  if constexpr (detail::has_inequalities<P>::value)
    return p.inequality_count();
  else
    return 0;
}

/// Number of equality constraints of `p` (0 when it declares none).
template <class P>
int equality_count(const P& p) {
  if constexpr (detail::has_equalities<P>::value)
    return p.equality_count();
  else
    return 0;
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

/// d marks, 1 where a gene of `p` takes integer values only: every gene of an integer gene_type, else the genes
/// its bounds() mark integer (Bounds::integer).
template <class P>
std::vector<std::uint8_t> integer_variables(const P& p) {
  const auto d = static_cast<std::size_t>(p.dimension());
  if constexpr (std::is_integral_v<gene_t<P>>) {
    return std::vector<std::uint8_t>(d, 1);
  } else {
    std::vector<std::uint8_t> marks = p.bounds().integer;
    marks.resize(d, 0);  // empty: no integer variable
    return marks;
  }
}

namespace detail {
/// Whether `P` has the members every use of a problem type needs (gene_type, dimension, bounds): solve checks the
/// concept (check_problem), then compiles the run only when this holds, so a missing member gives check_problem's
/// one message instead of a cascade of errors from inside the engine.
template <class P>
inline constexpr bool has_problem_basics_v = std::conjunction_v<has_gene_type<P>, has_dimension<P>, has_bounds<P>>;
}  // namespace detail

/**
 * Fails compilation with one message per missing or ill-formed member of the problem concept (see the top of this
 * file), each naming the member and the signature expected. Compile time only; the host-side check of the constraint
 * counts is check_constraint_counts (core/check_constraint_counts.hpp).
 */
template <class P>
constexpr void check_problem() {
  using namespace detail;
  // Members that mention gene_type are only checked once it exists: one message per defect, not a cascade.
  constexpr bool typed = has_gene_type<P>::value;
  constexpr bool population = has_population_evaluation<P>::value;
  constexpr bool batch = has_batch_evaluation<P>::value || population;  // objective() etc. not needed
  static_assert(has_gene_type<P>::value,
                "FusedGA problem: missing member `using gene_type = double | float | an integer type;`");
  static_assert(!has_gene_type<P>::value || std::is_arithmetic_v<typename gene_or_void<P>::type>,
                "FusedGA problem: `gene_type` must be a floating-point or integer type");
  static_assert(has_dimension<P>::value, "FusedGA problem: missing member `int dimension() const;`");
  static_assert(!typed || has_bounds<P>::value,
                "FusedGA problem: missing member `fusedga::Bounds<gene_type> bounds() const;`");
  static_assert(sense_is_valid<P>::value,
                "FusedGA problem: `sense` must be `static constexpr fusedga::Sense sense = Sense::minimize | "
                "Sense::maximize;`");
  static_assert(!(has_batch_evaluation<P>::value && population),
                "FusedGA problem: give either the tile-level `evaluate_batch` or the population-level "
                "`evaluate_population`, not both");
  static_assert(!typed || !population || has_population_signature<P>::value,
                "FusedGA problem: `evaluate_population` must be `void evaluate_population(const gene_type* genes, "
                "std::size_t n, fitness_type* objective, fitness_type* inequalities, fitness_type* equalities) "
                "const;`");
  static_assert(!typed || !has_batch_evaluation<P>::value || has_batch_signature<P>::value,
                "FusedGA problem: `evaluate_batch` must be `void evaluate_batch(const gene_type* x, std::ptrdiff_t "
                "lane_stride, std::ptrdiff_t gene_stride, int count, fitness_type eps, fitness_type* objective, "
                "fitness_type* violation) const;`");
  static_assert(!typed || batch || has_objective<P>::value,
                "FusedGA problem: missing member `template <class X> FUSEDGA_HD double objective(const X& x) const;`");
  static_assert(!typed || batch || !has_inequalities<P>::value || has_inequality_function<P>::value,
                "FusedGA problem: inequality_count() is declared, so it needs `template <class X, class G> FUSEDGA_HD "
                "void inequalities(const X& x, G& g) const;`");
  static_assert(!typed || has_inequalities<P>::value || !has_inequality_function<P>::value,
                "FusedGA problem: inequalities(x, g) is defined, so it needs `int inequality_count() const;`");
  static_assert(!typed || batch || !has_equalities<P>::value || has_equality_function<P>::value,
                "FusedGA problem: equality_count() is declared, so it needs `template <class X, class H> FUSEDGA_HD "
                "void equalities(const X& x, H& h) const;`");
  static_assert(!typed || has_equalities<P>::value || !has_equality_function<P>::value,
                "FusedGA problem: equalities(x, h) is defined, so it needs `int equality_count() const;`");
  static_assert(!typed || !has_partial_type<P>::value || has_partial_functions<P>::value,
                "FusedGA problem: partial_type is declared, so it needs `template <class X> FUSEDGA_HD partial_type "
                "partial_objective(const X& x, int begin, int end) const;` and `FUSEDGA_HD double "
                "objective_of(partial_type total) const;`");
  static_assert(!typed || !has_partial_functions<P>::value || integral_partial<P>::value,
                "FusedGA problem: `partial_type` must be an integer type (partial sums exact in any order)");
  static_assert(!typed || !has_partial_functions<P>::value ||
                    (!has_inequalities<P>::value && !has_equalities<P>::value),
                "FusedGA problem: a separable objective (partial_objective) is for problems without constraints");
  static_assert(!typed || !has_jacobian_member<P>::value || has_jacobian<P>::value,
                "FusedGA problem: `jacobian` must be `FUSEDGA_HD void jacobian(const gene_type* x, fitness_type* c, "
                "fitness_type* J) const;` (c: m constraint values, J: m x d row-major)");
  static_assert(std::is_trivially_copyable_v<P>,
                "FusedGA problem: problems are copied into kernels: make them trivially copyable");
}

}  // namespace fusedga
