#pragma once
// The GPU JIT's loaded image (device_jit.hpp builds it): a CUDA library with
// the kernels a run of one expression problem launches. Host code; compiles
// without nvcc. Private to the runtime.

#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "fusedga/backends/cuda/error.hpp"
#include "fusedga/backends/cuda/geometry.hpp"
#include "fusedga/backends/cuda/kernel_set.hpp"
#include "fusedga/core/sense.hpp"
#include "fusedga/expr/ast.hpp"

namespace fusedga::detail {

/// Name of the prebuilt kernel `kernel` (init, evaluate, offspring_short, offspring_long, de) for sense `s`.
inline std::string expr_kernel_name(const char* kernel, Sense s) {
  return std::string("fusedga_expr_") + kernel + (s == Sense::maximize ? "_max" : "_min");
}

/**
 * The prebuilt kernels a run of `p` launches: init and evaluate of its sense, and the variation kernels of the
 * algorithms its islands run — with `genetic_algorithm` the offspring kernel its genome length takes (the
 * engine's cuda_geometry::short_genome), with `differential_evolution` the DE kernel (both for islands that mix
 * `ga.algorithm` ga and de). The GPU JIT links only these (nvJitLink -kernels-used: a sixth of the link time of
 * all ten).
 */
inline std::vector<std::string> expr_kernels_used(const expr::program& p, bool genetic_algorithm = true,
                                                  bool differential_evolution = false) {
  std::vector<std::string> used{expr_kernel_name("init", p.sense), expr_kernel_name("evaluate", p.sense)};
  if (genetic_algorithm)
    used.push_back(
        expr_kernel_name(cuda_geometry::short_genome(p.dimension()) ? "offspring_short" : "offspring_long", p.sense));
  if (differential_evolution) used.push_back(expr_kernel_name("de", p.sense));
  return used;
}

/**
 * A linked GPU JIT image of `p` loaded as a CUDA library
 * (cudaLibraryLoadData: not tied to one context), with the kernels of
 * expr_kernels_used(p, genetic_algorithm, differential_evolution); the variation kernels it
 * does not use are null. Not copyable; must outlive every engine that runs its kernels.
 * Needs a usable GPU.
 * @throws cuda_error when the image cannot be loaded or lacks a kernel.
 */
class cuda_expr_module {
 public:
  cuda_expr_module(const std::vector<char>& image, const expr::program& p, bool genetic_algorithm = true,
                   bool differential_evolution = false) {
    FUSEDGA_CUDA_TRY(cudaLibraryLoadData(&library_, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    try {
      kernels_.init = kernel(expr_kernel_name("init", p.sense));
      kernels_.evaluate = kernel(expr_kernel_name("evaluate", p.sense));
      if (genetic_algorithm) {
        const bool short_genome = cuda_geometry::short_genome(p.dimension());
        (short_genome ? kernels_.offspring_short : kernels_.offspring_long) =
            kernel(expr_kernel_name(short_genome ? "offspring_short" : "offspring_long", p.sense));
      }
      if (differential_evolution) kernels_.de = kernel(expr_kernel_name("de", p.sense));
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
