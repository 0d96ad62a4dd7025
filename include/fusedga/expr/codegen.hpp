#pragma once
/// @file codegen.hpp
/// C++ source for an expression problem: a problem type that satisfies the
/// problem concept (problem_traits.hpp) like any built-in, plus the C entry
/// points of jit_abi.hpp (CPU JIT) or of the GPU kernels (GPU JIT). Generated only from the validated AST: identifiers
/// are mangled declared names, numbers are re-printed from their parsed
/// values with "%.17g", user text never reaches the output (not even in
/// comments).

#include <string>

#include "fusedga/expr/ast.hpp"

namespace fusedga::expr {

/// The generated translation unit for `p` with genes and arithmetic in
/// `real_type` ("float" or "double"). Deterministic: the same program gives
/// the same text (it is part of the JIT cache key).
std::string generate_source(const program& p, const std::string& real_type);

/**
 * The GPU JIT's translation unit for `p` (CUDA C++ for NVRTC, no standard
 * library): the same problem type, with device member functions, and three
 * C entry points for `suffix` = _f32 (float) or _f64 (double), which the
 * prebuilt GPU kernels (src/cuda/expr_device_problem.hpp) call and the link
 * step inlines into them:
 *
 *     R    fusedga_expr_objective<suffix>(const R* x);                // x: d genes, contiguous
 *     void fusedga_expr_inequalities<suffix>(const R* x, R* total);   // adds Σ max(0, g_j(x))
 *     void fusedga_expr_equalities<suffix>(const R* x, R eps, R* total);  // adds Σ max(0, |h_k(x)| − eps)
 *     void fusedga_expr_jacobian<suffix>(const R* x, R* c, R* J);     // m raw constraint values, m × d Jacobian
 *
 * The last is the gradient repair's (expr_device_problem::jacobian: inequalities then equalities, J row-major,
 * the symbolic derivative's tape, derivative.hpp) when `jacobian` is true and `p` has constraints; otherwise a
 * stub that traps if called (the kernels call it only when the run repairs, whose source has the real one).
 * Deterministic, and like generate_source free of user text.
 * @throws fusedga::error for a real type other than "float"/"double" or a program without objective or genes;
 *   with `jacobian`, as build_jacobian does (a tape too large).
 */
std::string generate_device_source(const program& p, const std::string& real_type, bool jacobian = false);

}  // namespace fusedga::expr
