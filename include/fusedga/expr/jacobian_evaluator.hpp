#pragma once
/// @file jacobian_evaluator.hpp
/// Evaluating an expression problem's constraint Jacobian (derivative.hpp)
/// for one individual: the tape interpreter, the CPU JIT (the tape as
/// generated C++, compiled like the problem itself) and the CUDA C++ of the
/// GPU JIT.

#include <memory>
#include <string>

#include "fusedga/expr/derivative.hpp"
#include "fusedga/expr/jit.hpp"

namespace fusedga::expr {

/**
 * Constraint values and Jacobian of one individual.
 *
 * `evaluate(x, c, J)`: x holds the d genes (contiguous); writes the m
 * constraint values c[k] (inequalities g, then equalities h, each in
 * declaration order; raw values, before max/abs) and the m × d row-major
 * Jacobian J[k·d + j] = ∂c_k/∂x_j (structural zeros written as 0). All
 * arithmetic in Real. Implementations are immutable: `evaluate` is
 * thread-safe. Cost: one pass over the tape's live entries.
 */
template <class Real>
class jacobian_evaluator {
 public:
  virtual ~jacobian_evaluator() = default;
  virtual void evaluate(const Real* x, Real* c, Real* J) const = 0;
  virtual int dimension() const = 0;
  virtual int constraint_count() const = 0;
};

/// The tape interpreter (host): one operation per live entry, in tape order,
/// with the arithmetic of src/expr/tape_ops.hpp. Scratch is per thread.
template <class Real>
std::unique_ptr<jacobian_evaluator<Real>> make_jacobian_interpreter(const jacobian_tape& tape);

/**
 * The tape as a C++ function body (`dialect` "host": std:: math; "device":
 * CUDA's global math overloads, no standard library), one `const R tN = ...;`
 * per live entry in tape order — the same operations in the same order as the
 * interpreter, so (compiled with -ffp-contract=off) the results agree bitwise:
 *
 *     extern "C" void <name>(const R* x, R* c, R* J);   // host
 *     extern "C" __device__ void <name>(const R* x, R* c, R* J);   // device
 *
 * Free of user text; deterministic. @throws fusedga::error for a real type
 * other than "float"/"double" or a dialect other than "host"/"device".
 */
std::string generate_jacobian_source(const jacobian_tape& tape, const std::string& real_type,
                                     const std::string& dialect, const std::string& name);

/**
 * The CPU JIT of the Jacobian: the host source above compiled with the JIT's
 * compiler and flags into the JIT cache (same key scheme, same checks as
 * jit_compile), loaded with dlopen. Thread-safe.
 * @throws fusedga::error as jit_compile does.
 */
template <class Real>
std::unique_ptr<jacobian_evaluator<Real>> jacobian_jit_compile(const jacobian_tape& tape,
                                                               const jit_options& options = {},
                                                               jit_stats* stats = nullptr);

}  // namespace fusedga::expr
