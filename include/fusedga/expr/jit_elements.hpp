#pragma once
/// @file jit_elements.hpp
/// The element helpers that generated expression problems call (codegen.hpp):
/// the language's NaN-propagating min and max, the clamped index of computed
/// subscripts and reduction bounds, the non-finite constants and table lookups. Written once
/// for both JITs: the CPU JIT's translation units include it through
/// jit_abi.hpp, the GPU JIT's (compiled by NVRTC, which has no C++ standard
/// library) include it directly, so it includes nothing but macros.hpp and
/// <cmath> outside NVRTC.

#include "fusedga/core/macros.hpp"

#if !defined(__CUDACC_RTC__)
#include <cmath>
#include <limits>
#endif

namespace fusedga::expr {

/// min(a, b) of the expression language: a NaN argument gives NaN; on a tie, b (interp_ops.hpp).
template <class R>
FUSEDGA_HD FUSEDGA_INLINE R jit_min(R a, R b) { return (a < b || a != a) ? a : b; }
/// max(a, b) of the expression language: a NaN argument gives NaN; on a tie, b.
template <class R>
FUSEDGA_HD FUSEDGA_INLINE R jit_max(R a, R b) { return (a > b || a != a) ? a : b; }

/// An integer expression computed in double (one whose intermediates may leave
/// ±2^24), rounded like the interpreter (lround: half away from zero) and
/// clamped to [lo, hi]: the checker's range proof assumes exact arithmetic,
/// the clamp keeps the generated code memory-safe even where double rounding
/// would break it.
FUSEDGA_HD FUSEDGA_INLINE int jit_index(double v, int lo, int hi) {
#if defined(__CUDACC_RTC__)
  const long r = ::lround(v);  // NVRTC: the CUDA math library's lround, same rounding
#else
  const long r = std::lround(v);
#endif
  return r < lo ? lo : r > hi ? hi : static_cast<int>(r);
}

#if defined(__CUDACC_RTC__)
/// +infinity and a quiet NaN of R, for folded non-finite constants (NVRTC has no numeric_limits).
template <class R>
__device__ FUSEDGA_INLINE R jit_infinity();
template <>
__device__ FUSEDGA_INLINE float jit_infinity<float>() { return __int_as_float(0x7f800000); }
template <>
__device__ FUSEDGA_INLINE double jit_infinity<double>() { return __longlong_as_double(0x7ff0000000000000LL); }
template <class R>
__device__ FUSEDGA_INLINE R jit_quiet_nan();
template <>
__device__ FUSEDGA_INLINE float jit_quiet_nan<float>() { return __int_as_float(0x7fc00000); }
template <>
__device__ FUSEDGA_INLINE double jit_quiet_nan<double>() { return __longlong_as_double(0x7ff8000000000000LL); }
#else
template <class R>
FUSEDGA_INLINE R jit_infinity() { return std::numeric_limits<R>::infinity(); }
template <class R>
FUSEDGA_INLINE R jit_quiet_nan() { return std::numeric_limits<R>::quiet_NaN(); }
#endif

/// T[e] of the expression language (ast.hpp, table_constant): table[k] for k = floor(e + 0.5) (round half up)
/// when 0 <= k < n, else NaN, also for a NaN e (every comparison with it is false). Computed in R, as the
/// interpreter does; the entry is converted to R. Used by the generated problems and by the interpreter.
template <class R, class V>
FUSEDGA_HD FUSEDGA_INLINE R jit_lookup(const V* table, int n, R e) {
#if defined(__CUDACC_RTC__)
  const R k = ::floor(e + R(0.5));
#else
  const R k = std::floor(e + R(0.5));
#endif
  return k >= R(0) && k < R(n) ? R(table[static_cast<int>(k)]) : jit_quiet_nan<R>();
}

}  // namespace fusedga::expr
