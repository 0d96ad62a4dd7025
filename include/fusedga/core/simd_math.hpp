#pragma once
/// @file simd_math.hpp
/// Lets GCC vectorize calls to libm in tile loops by declaring glibc's libmvec
/// SIMD variants (the declarations glibc itself only makes under -ffast-math).
///
/// Requires `-fno-math-errno -fno-trapping-math` (part of the fusedga target's
/// usage requirements) but not -ffast-math: arithmetic stays IEEE, only the
/// libm calls go to libmvec (<= 4 ulp, Intel/glibc documentation). Because the
/// engine's tiles always run full SIMD-width loops, the same individual takes
/// the same code path at every thread count, keeping runs bitwise reproducible.

#include <cmath>

#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && defined(__x86_64__) && \
    !defined(__FAST_MATH__) && !defined(FUSEDGA_NO_LIBMVEC)
#define FUSEDGA_SIMD_DECL __attribute__((__simd__("notinbranch")))
extern "C" {
FUSEDGA_SIMD_DECL double pow(double, double) noexcept;
FUSEDGA_SIMD_DECL float powf(float, float) noexcept;
FUSEDGA_SIMD_DECL double exp(double) noexcept;
FUSEDGA_SIMD_DECL float expf(float) noexcept;
FUSEDGA_SIMD_DECL double log(double) noexcept;
FUSEDGA_SIMD_DECL float logf(float) noexcept;
FUSEDGA_SIMD_DECL double sin(double) noexcept;
FUSEDGA_SIMD_DECL float sinf(float) noexcept;
FUSEDGA_SIMD_DECL double cos(double) noexcept;
FUSEDGA_SIMD_DECL float cosf(float) noexcept;
FUSEDGA_SIMD_DECL double log1p(double) noexcept;
FUSEDGA_SIMD_DECL float log1pf(float) noexcept;
FUSEDGA_SIMD_DECL double expm1(double) noexcept;
FUSEDGA_SIMD_DECL float expm1f(float) noexcept;
}
#undef FUSEDGA_SIMD_DECL
#endif
