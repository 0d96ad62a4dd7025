#pragma once
/// @file error.hpp
/// CUDA error translation: every failing CUDA runtime call becomes a
/// `fusedga::cuda_error` carrying the call, the CUDA error name and string and
/// where it happened. Host code only; compiles without nvcc (needs the CUDA
/// toolkit's headers and the CUDA runtime library).

#include <string>

#include <cuda_runtime_api.h>

#include "fusedga/core/error.hpp"

namespace fusedga::detail {

/// "CUDA call `call` failed at file:line: error string (error name)". Pure; unit-tested without a GPU.
inline std::string format_cuda_error(const char* call, const char* error_name, const char* error_string, const char* file,
                                     int line) {
  std::string m = "CUDA call `";
  m += call;
  m += "` failed";
  if (file) {
    m += " at ";
    m += file;
    m += ":" + std::to_string(line);
  }
  m += ": ";
  m += error_string ? error_string : "unknown error";
  m += " (";
  m += error_name ? error_name : "?";
  m += ")";
  return m;
}

/**
 * Throws `cuda_error` when `status` is not cudaSuccess, after clearing the
 * runtime's sticky "last error" state (so a later, unrelated check does not
 * report this failure again). Sticky errors (an illegal address in a kernel)
 * leave the context unusable; the message then says so.
 * @throws cuda_error naming `call`, the CUDA error and `file:line`.
 */
inline void cuda_check(cudaError_t status, const char* call, const char* file = nullptr, int line = 0) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();  // clear the non-sticky error state
  throw cuda_error(format_cuda_error(call, cudaGetErrorName(status), cudaGetErrorString(status), file, line));
}

}  // namespace fusedga::detail

/// Checks a CUDA runtime call: `FUSEDGA_CUDA_TRY(cudaMalloc(&p, n));` throws fusedga::cuda_error on failure.
#define FUSEDGA_CUDA_TRY(call) ::fusedga::detail::cuda_check((call), #call, __FILE__, __LINE__)
