#pragma once
/// @file expr_device_problem.hpp
/// Private: the problem type of the GPU JIT (issue 4, "GPU JIT"); host code
/// compiles without nvcc (the registry builds it). Its member
/// functions call four extern "C" device functions that only the generated
/// source defines (codegen.hpp: generate_device_source); the kernels that
/// call them are compiled once, at build time, to LTO-IR (src/cuda/lto/), and
/// device_jit.hpp links the two with nvJitLink at run time, so that the
/// generated objective and constraints are inlined into the same fused
/// offspring kernel that built-in problems run. The engine takes the kernels
/// of such a problem from its loaded module (kernel_source below) instead
/// of the template kernels, which are never instantiated for it.

#include <string>
#include <type_traits>
#include <vector>

#include "cuda/expr_module.hpp"
#include "fusedga/core/bounds.hpp"
#include "fusedga/core/check_constraint_counts.hpp"
#include "fusedga/core/macros.hpp"
#include "fusedga/core/sense.hpp"
#include "fusedga/expr/ast.hpp"
#include "fusedga/expr/expression_problem.hpp"

#if defined(__CUDACC__)
#include "fusedga/backends/cuda/kernels.cuh"

// Defined by the generated source (one real type per module); see codegen.hpp.
extern "C" {
__device__ float fusedga_expr_objective_f32(const float* x);
__device__ void fusedga_expr_inequalities_f32(const float* x, float* total);
__device__ void fusedga_expr_equalities_f32(const float* x, float eps, float* total);
__device__ double fusedga_expr_objective_f64(const double* x);
__device__ void fusedga_expr_inequalities_f64(const double* x, double* total);
__device__ void fusedga_expr_equalities_f64(const double* x, double eps, double* total);
__device__ void fusedga_expr_jacobian_f32(const float* x, float* c, float* J);
__device__ void fusedga_expr_jacobian_f64(const double* x, double* c, double* J);
}
#endif

namespace fusedga::detail {

/**
 * An expression problem on the GPU: genes and fitness in Real (float or
 * double), sense S. Host members describe the problem (from the program);
 * device members call the generated functions. Trivially copyable (two
 * non-owning pointers: the program and the module must outlive the engine).
 */
template <class Real, Sense S>
struct expr_device_problem {
  static_assert(std::is_same_v<Real, float> || std::is_same_v<Real, double>, "Real must be float or double");
  using gene_type = Real;
  using fitness_type = Real;
  static constexpr Sense sense = S;

  const expr::program* source;      ///< host only
  const cuda_expr_module* module;   ///< host only: the linked kernels

  int dimension() const { return source->dimension(); }
  // The counts make the engine call inequalities() and equalities() (problem_traits.hpp: has_inequalities,
  // has_equalities); without them the prebuilt kernels would drop every constraint.
  int inequality_count() const { return source->inequality_count(); }
  int equality_count() const { return source->equality_count(); }
  Bounds<Real> bounds() const { return expr::expression_problem<Real, S>{source, nullptr}.bounds(); }
  std::vector<std::string> variable_names() const { return source->gene_names(); }

  // Device only (the engine never evaluates on the host); X is gene_view<Real, 1>, a contiguous row.
  template <class X>
  FUSEDGA_HD FUSEDGA_INLINE Real objective(const X& x) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<Real, float>)
      return fusedga_expr_objective_f32(x.data);
    else
      return fusedga_expr_objective_f64(x.data);
#else
    (void)x;
    return Real(0);
#endif
  }
  template <class X, class G>
  FUSEDGA_HD FUSEDGA_INLINE void inequalities(const X& x, G& g) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<Real, float>)
      fusedga_expr_inequalities_f32(x.data, g.total);
    else
      fusedga_expr_inequalities_f64(x.data, g.total);
#else
    (void)x;
    (void)g;
#endif
  }
  template <class X, class G>
  FUSEDGA_HD FUSEDGA_INLINE void equalities(const X& x, G& h) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<Real, float>)
      fusedga_expr_equalities_f32(x.data, h.eps, h.total);
    else
      fusedga_expr_equalities_f64(x.data, h.eps, h.total);
#else
    (void)x;
    (void)h;
#endif
  }
  /// The constraints' values and exact Jacobian (problem_traits.hpp's `jacobian`), for the kernels' gradient
  /// repair (DE's trials, the GA's children): the symbolic derivative's tape, generated into the module when the run
  /// repairs (codegen.hpp).
  FUSEDGA_HD FUSEDGA_INLINE void jacobian(const Real* x, Real* c, Real* J) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<Real, float>)
      fusedga_expr_jacobian_f32(x, c, J);
    else
      fusedga_expr_jacobian_f64(x, c, J);
#else
    (void)x, (void)c, (void)J;
#endif
  }
};

/// Its members exist only in device code: the engine's host check of the constraint counts skips it (the program's
/// counts are right by construction).
template <class Real, Sense S>
struct host_evaluable<expr_device_problem<Real, S>> : std::false_type {};

#if defined(__CUDACC__)
namespace cuda_kernels {
/// The engine runs an expression problem's kernels from its linked module.
template <class Real, Sense S>
struct kernel_source<expr_device_problem<Real, S>> {
  static kernel_set get(const expr_device_problem<Real, S>& p) { return p.module->kernels(); }
};
}  // namespace cuda_kernels
#endif

}  // namespace fusedga::detail
