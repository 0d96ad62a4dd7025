#pragma once
// The GPU JIT's loaded image (device_jit.hpp builds it): a CUDA library with
// the four kernels of one sense. Host code; compiles without nvcc. Private to
// the runtime.

#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "fusedga/backends/cuda/error.hpp"
#include "fusedga/backends/cuda/kernel_set.hpp"
#include "fusedga/core/sense.hpp"

namespace fusedga::detail {

/// Name of the prebuilt kernel `kernel` (init, evaluate, offspring_short, offspring_long) for sense `s`.
inline std::string expr_kernel_name(const char* kernel, Sense s) {
  return std::string("fusedga_expr_") + kernel + (s == Sense::maximize ? "_max" : "_min");
}

/**
 * A linked GPU JIT image loaded as a CUDA library (cudaLibraryLoadData: not
 * tied to one context), with the four kernels of sense `s`. Not copyable;
 * must outlive every engine that runs its kernels. Needs a usable GPU.
 * @throws cuda_error when the image cannot be loaded or lacks a kernel.
 */
class cuda_expr_module {
 public:
  cuda_expr_module(const std::vector<char>& image, Sense s) {
    FUSEDGA_CUDA_TRY(cudaLibraryLoadData(&library_, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    try {
      kernels_.init = kernel(expr_kernel_name("init", s));
      kernels_.evaluate = kernel(expr_kernel_name("evaluate", s));
      kernels_.offspring_short = kernel(expr_kernel_name("offspring_short", s));
      kernels_.offspring_long = kernel(expr_kernel_name("offspring_long", s));
    } catch (...) {
      cudaLibraryUnload(library_);
      throw;
    }
  }
  ~cuda_expr_module() { cudaLibraryUnload(library_); }
  cuda_expr_module(const cuda_expr_module&) = delete;
  cuda_expr_module& operator=(const cuda_expr_module&) = delete;

  const cuda_kernels::kernel_set& kernels() const { return kernels_; }

 private:
  const void* kernel(const std::string& name) {
    cudaKernel_t k = nullptr;
    FUSEDGA_CUDA_TRY(cudaLibraryGetKernel(&k, library_, name.c_str()));
    return reinterpret_cast<const void*>(k);  // cudaLaunchKernel accepts a cudaKernel_t cast to const void*
  }

  cudaLibrary_t library_ = nullptr;
  cuda_kernels::kernel_set kernels_{};
};

}  // namespace fusedga::detail
