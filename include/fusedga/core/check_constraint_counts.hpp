#pragma once
/// @file check_constraint_counts.hpp
/// The host-side half of the problem concept check: the declared constraint counts against the indices that
/// `inequalities(x, g)` and `equalities(x, h)` really write (the violation sink ignores its index, so a wrong
/// count would otherwise go unnoticed).

#include <string>
#include <type_traits>
#include <vector>

#include "fusedga/core/error.hpp"
#include "fusedga/core/gene_view.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/core/problem_traits.hpp"

namespace fusedga {
namespace detail {

/// Whether a problem's members can run on the host (FUSEDGA_HD ones can). Specialized false for problems whose
/// members exist only in device code (the GPU JIT's expr_device_problem), which the host check must skip.
template <class Problem>
struct host_evaluable : std::true_type {};

/// The `G` of one checking evaluation: records which indices were written, and the first one outside [0, count).
/// Plain pointers and FUSEDGA_HD members, so a problem's FUSEDGA_HD constraint functions may write into it under
/// nvcc too (it only ever runs on the host).
struct counting_sink {
  char* written;   ///< count flags; written[j] = 1 once g[j] was assigned
  int count;       ///< the declared count
  int* bad_index;  ///< first index outside [0, count), or -1
  struct slot {
    const counting_sink* sink;
    int j;
    template <class V>
    FUSEDGA_HD void operator=(V) const {
      if (j < 0 || j >= sink->count) {
        if (*sink->bad_index < 0) *sink->bad_index = j;
      } else {
        sink->written[j] = 1;
      }
    }
  };
  FUSEDGA_HD slot operator[](int j) const { return slot{this, j}; }
};

/// Throws config_error when `write(sink)` wrote an index outside [0, count) or left one of them unwritten.
template <class Write>
void check_constraint_family(const std::string& problem_name, const char* count_name, const char* function, char letter,
                             int count, Write write) {
  std::vector<char> written(static_cast<std::size_t>(count > 0 ? count : 0), 0);
  int bad = -1;
  counting_sink sink{written.data(), count, &bad};
  write(sink);
  const std::string declared = std::string(count_name) + "() is " + std::to_string(count);
  if (bad >= 0)
    throw config_error("problem " + problem_name + ": " + function + " wrote " + letter + "[" + std::to_string(bad) +
                       "] but " + declared + " (valid indices 0.." + std::to_string(count - 1) + ")");
  for (int j = 0; j < count; ++j)
    if (!written[static_cast<std::size_t>(j)])
      throw config_error("problem " + problem_name + ": " + function + " never wrote " + letter + "[" +
                         std::to_string(j) + "] but " + declared + " (each constraint is assigned exactly once)");
}

}  // namespace detail

/**
 * Runs `inequalities(x, g)` and `equalities(x, h)` of `problem` on the host at three points of its box (the
 * midpoint, then the lower and the upper corner: a write that a branch makes only in part of the box shows at a
 * corner more often), with sinks that record the indices written, and checks them against `inequality_count()`
 * and `equality_count()`. A wrong write at none of these points goes unnoticed; the gradient repair's sink
 * (recording_sink) drops writes past the declared count rather than overrun its buffer. Problems with `evaluate_batch`
 * or `evaluate_population`, and device-only ones
 * (`host_evaluable`), are not checked (they fold their constraints themselves, or write them a population at a time).
 * Cost: three evaluations of the constraints; host only (the problem's members must be callable on the host, as
 * FUSEDGA_HD ones are).
 * @pre check_problem<Problem>() holds and `problem.bounds()` has `dimension()` entries per side.
 * @throws config_error naming `problem_name`, the declared count and the index written out of range (or the
 *         first index never written).
 */
template <class Problem>
void check_constraint_counts(const Problem& problem, const std::string& problem_name) {
  if constexpr (detail::host_evaluable<Problem>::value && !detail::has_batch_evaluation<Problem>::value &&
                !detail::has_population_evaluation<Problem>::value &&
                (detail::has_inequalities<Problem>::value || detail::has_equalities<Problem>::value)) {
    using gene = gene_t<Problem>;
    const auto b = problem.bounds();
    std::vector<gene> mid(b.lower.size());
    // Midpoint: inside the box, away from singular edges. Halves added in long double: upper - lower overflows for
    // wide integer ranges, and for [-max, max] reals.
    for (std::size_t j = 0; j < mid.size(); ++j)
      mid[j] = static_cast<gene>(static_cast<long double>(b.lower[j]) / 2 + static_cast<long double>(b.upper[j]) / 2);
    const std::vector<gene>* points[] = {&mid, &b.lower, &b.upper};
    for (const std::vector<gene>* x : points) {
      const gene_view<gene, 1> xv{x->data()};
      if constexpr (detail::has_inequalities<Problem>::value)
        detail::check_constraint_family(problem_name, "inequality_count", "inequalities(x, g)", 'g',
                                        problem.inequality_count(),
                                        [&](detail::counting_sink& g) { problem.inequalities(xv, g); });
      if constexpr (detail::has_equalities<Problem>::value)
        detail::check_constraint_family(problem_name, "equality_count", "equalities(x, h)", 'h',
                                        problem.equality_count(),
                                        [&](detail::counting_sink& h) { problem.equalities(xv, h); });
    }
  }
}

}  // namespace fusedga
