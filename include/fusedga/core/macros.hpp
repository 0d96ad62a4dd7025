#pragma once
/// @file macros.hpp
/// Portability macros shared by every header.

/// Marks a function callable from host and device code. Expands to
/// `__host__ __device__` under nvcc and to nothing otherwise, so every
/// operator and problem is written once for all backends.
#if defined(__CUDACC__)
#define FUSEDGA_HD __host__ __device__
#else
#define FUSEDGA_HD
#endif

/// Forces inlining of small per-element functions so tile loops stay vectorizable.
#if defined(__CUDACC__)
#define FUSEDGA_INLINE __forceinline__
#elif defined(__GNUC__)
#define FUSEDGA_INLINE inline __attribute__((always_inline))
#else
#define FUSEDGA_INLINE inline
#endif

/// Keeps a function out of line, so every caller runs the same compiled body (the same vectorization, so the
/// same libm variants and the same bits), whichever pass calls it.
#if defined(__GNUC__) && !defined(__CUDACC__)
#define FUSEDGA_NOINLINE __attribute__((noinline))
#else
#define FUSEDGA_NOINLINE
#endif

/// Non-aliasing pointer qualifier, for the tile loops the vectorizer must see through.
#define FUSEDGA_RESTRICT __restrict__

/// Library version, also part of the JIT cache key (see DESIGN.md).
#define FUSEDGA_VERSION_MAJOR 0
#define FUSEDGA_VERSION_MINOR 1
#define FUSEDGA_VERSION_PATCH 0
#define FUSEDGA_VERSION_STRING "0.1.0"
