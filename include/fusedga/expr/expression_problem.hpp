#pragma once
/// @file expression_problem.hpp
/// An expression problem as an engine problem type: the batch form of the
/// problem concept (problem_traits.hpp, `evaluate_batch`), so the engine's
/// fused passes call the interpreter or the JIT-compiled module once per tile
/// of individuals, from inside the same offspring pass that runs built-ins.

#include <cstddef>
#include <string>
#include <vector>

#include "fusedga/core/bounds.hpp"
#include "fusedga/core/sense.hpp"
#include "fusedga/expr/ast.hpp"
#include "fusedga/expr/evaluator.hpp"
#include "fusedga/expr/jacobian_evaluator.hpp"

namespace fusedga::expr {

/**
 * A problem type over `program` with genes and fitness in Real (float or
 * double) and sense S (the sense is a compile-time part of the concept).
 * Holds non-owning pointers: the program and the evaluator must outlive
 * every engine built from it. Trivially copyable; host only. Thread-safe as
 * far as the evaluator is (both built-in evaluators are).
 */
template <class Real, Sense S>
struct expression_problem {
  using gene_type = Real;
  using fitness_type = Real;
  static constexpr Sense sense = S;

  const program* source;
  const evaluator<Real>* eval;               ///< what the engine's passes call (JIT or interpreter)
  const evaluator<Real>* unfused = nullptr;  ///< the interpreter, for ga-bench's unfused tier
  /// Exact constraint Jacobian (derivative.hpp), for the gradient repair; null when the run does not repair
  /// (then `jacobian` must not be called: the engine calls it only when the repair rate is above 0).
  const jacobian_evaluator<Real>* jac = nullptr;

  int dimension() const { return source->dimension(); }
  Bounds<Real> bounds() const {
    Bounds<Real> b;
    b.lower.reserve(static_cast<std::size_t>(dimension()));
    b.upper.reserve(static_cast<std::size_t>(dimension()));
    for (const variable& v : source->variables)
      for (int k = 0; k < v.size; ++k) {
        b.lower.push_back(static_cast<Real>(v.lower[static_cast<std::size_t>(k)]));
        b.upper.push_back(static_cast<Real>(v.upper[static_cast<std::size_t>(k)]));
      }
    b.integer = source->integer_marks();
    return b;
  }
  std::vector<std::string> variable_names() const { return source->gene_names(); }
  int inequality_count() const { return source->inequality_count(); }
  int equality_count() const { return source->equality_count(); }
  /// Constraint values (inequalities, then equalities) and Jacobian at the d genes x (problem_traits.hpp). Host.
  void jacobian(const Real* x, Real* c, Real* J) const { jac->evaluate(x, c, J); }
  void evaluate_batch(const Real* genes, std::ptrdiff_t lane_stride, std::ptrdiff_t gene_stride, int count, Real eps,
                      Real* objective, Real* violation) const {
    eval->evaluate(genes, lane_stride, gene_stride, count, eps, objective, violation);
  }
};

}  // namespace fusedga::expr
