#pragma once
/// @file unfused_expression.hpp
/// ga-bench's unfused tier for expression problems: the interpreter over the
/// whole population, single-threaded, into freshly allocated result arrays
/// (bench/unfused_seed.hpp's trait).

#include "bench/unfused_seed.hpp"
#include "fusedga/expr/expression_problem.hpp"

namespace fusedga {

template <class Real, Sense S>
struct unfused_evaluator<expr::expression_problem<Real, S>> {
  static constexpr bool available = true;
  using problem_type = expr::expression_problem<Real, S>;

  static unfused_result<Real> evaluate(const problem_type& p, const population_view<Real, Real>& pop,
                                       const constraint_options& c) {
    if (!p.unfused) throw error("ga-bench: expression problem without an interpreter");
    unfused::array<Real> objective(pop.size), violation(pop.size);
    p.unfused->evaluate(pop.genes, pop.dimension, 1, static_cast<int>(pop.size), static_cast<Real>(c.equality_tolerance),
                        objective.data(), violation.data());
    unfused_result<Real> r;
    r.objective = std::move(objective);
    r.violation = std::move(violation);
    r.rank_key = detail::unfused_rank_keys<problem_type>(r.objective, r.violation, c);
    return r;
  }
};

}  // namespace fusedga
