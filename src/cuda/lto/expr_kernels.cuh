#pragma once
// The GPU JIT's prebuilt kernels: the engine's five problem-dependent kernel
// bodies (kernels.cuh) instantiated for expr_device_problem under extern "C"
// names (expr_kernel_name), for both senses. Compiled to LTO-IR at build
// time (src/CMakeLists.txt: -dc -dlto, code=lto_<arch>), embedded in the
// library, and linked at run time with the generated problem (device_jit.cpp).
#include "cuda/expr_device_problem.hpp"

#define FUSEDGA_EXPR_KERNELS(Real, S, suffix)                                                                      \
  extern "C" __global__ void fusedga_expr_init_##suffix(                                                          \
      ::fusedga::detail::cuda_kernels::init_args<::fusedga::detail::expr_device_problem<Real, S>> a) {             \
    ::fusedga::detail::cuda_kernels::init_genes(a);                                                                 \
  }                                                                                                                 \
  extern "C" __global__ void fusedga_expr_evaluate_##suffix(                                                      \
      ::fusedga::detail::cuda_kernels::evaluate_args<::fusedga::detail::expr_device_problem<Real, S>> a) {         \
    ::fusedga::detail::cuda_kernels::evaluate_tile(a);                                                              \
  }                                                                                                                 \
  extern "C" __global__ void FUSEDGA_OFFSPRING_SHORT_BOUNDS fusedga_expr_offspring_short_##suffix(                \
      ::fusedga::detail::cuda_kernels::offspring_args<::fusedga::detail::expr_device_problem<Real, S>> a) {        \
    ::fusedga::detail::cuda_kernels::offspring_short(a);                                                            \
  }                                                                                                                 \
  extern "C" __global__ void fusedga_expr_offspring_long_##suffix(                                                \
      ::fusedga::detail::cuda_kernels::offspring_args<::fusedga::detail::expr_device_problem<Real, S>> a) {        \
    ::fusedga::detail::cuda_kernels::offspring_long(a);                                                             \
  }                                                                                                                 \
  extern "C" __global__ void FUSEDGA_DE_BOUNDS fusedga_expr_de_##suffix(                                          \
      ::fusedga::detail::cuda_kernels::de_args<::fusedga::detail::expr_device_problem<Real, S>> a) {               \
    ::fusedga::detail::cuda_kernels::de_targets(a);                                                                 \
  }

#define FUSEDGA_EXPR_KERNELS_BOTH_SENSES(Real)                      \
  FUSEDGA_EXPR_KERNELS(Real, ::fusedga::Sense::minimize, min)       \
  FUSEDGA_EXPR_KERNELS(Real, ::fusedga::Sense::maximize, max)
