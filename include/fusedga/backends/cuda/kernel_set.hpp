#pragma once
/// @file kernel_set.hpp
/// The launch handles of a run's problem-dependent kernels (kernels.cuh).
/// Host code; compiles without nvcc.

namespace fusedga::detail::cuda_kernels {

/**
 * The five problem-dependent kernels of a run as launch handles for
 * cudaLaunchKernel (each takes its args struct of kernels.cuh by value): a
 * `__global__` function's address, or a `cudaKernel_t` from a library loaded
 * at run time (the GPU JIT), cast to `const void*`.
 */
struct kernel_set {
  const void* init;             ///< init_args
  const void* evaluate;         ///< evaluate_args
  const void* offspring_short;  ///< offspring_args
  const void* offspring_long;   ///< offspring_args
  const void* de;               ///< de_args (null where the run's module lacks it: integer genes, a GA JIT image)
};

}  // namespace fusedga::detail::cuda_kernels
