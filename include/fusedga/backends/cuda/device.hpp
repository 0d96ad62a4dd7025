#pragma once
/// @file device.hpp
/// Is a GPU usable, and if not, why: the run-time half of "CUDA is optional"
/// (`backend: auto` falls back to TBB with a notice, `backend: cuda` fails with
/// the reason). Host code; compiles without nvcc.

#include <cstddef>
#include <cstdio>
#include <string>

#include <cuda_runtime_api.h>

namespace fusedga {

/// What `probe_cuda_device` found.
struct cuda_device_status {
  bool usable = false;         ///< a device with this ordinal exists and the driver can run this build's runtime
  int device_count = 0;        ///< GPUs visible to the process (0 when the query failed)
  std::string reason;          ///< why not usable (one line); empty when usable
  std::string name;            ///< device name, e.g. "NVIDIA H100 80GB HBM3"
  int driver_version = 0;      ///< CUDA version the driver supports, e.g. 12040 (0 = no driver)
  int runtime_version = 0;     ///< CUDA runtime version of this build, e.g. 13000
  int compute_major = 0, compute_minor = 0;
  int multiprocessors = 0;
  std::size_t total_memory = 0;  ///< bytes
};

namespace detail {

/// "13.0" from 13000.
inline std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

/**
 * The one-line reason a GPU cannot be used, from the status of
 * cudaGetDeviceCount (or a requested ordinal past the count). Pure, so the
 * wording is unit-tested without a GPU.
 */
inline std::string describe_unusable(cudaError_t count_status, int device_count, int device, int driver_version,
                                     int runtime_version, const char* error_string) {
  switch (count_status) {
    case cudaSuccess:
      if (device_count == 0) return "no CUDA-capable GPU was found";
      if (device < 0 || device >= device_count)
        return "device " + std::to_string(device) + " was requested but " + std::to_string(device_count) +
               " GPU(s) are present (ordinals 0.." + std::to_string(device_count - 1) + ")";
      return "";
    case cudaErrorNoDevice:
      return "no CUDA-capable GPU was found";
    case cudaErrorInsufficientDriver:
      if (driver_version == 0) return "no NVIDIA driver is installed (the CUDA driver library could not be loaded)";
      return "the NVIDIA driver supports CUDA " + cuda_version_string(driver_version) + " but this build needs CUDA " +
             cuda_version_string(runtime_version) + " (update the driver)";
    case cudaErrorStubLibrary:
      return "only the CUDA driver stub library was found (no NVIDIA driver is installed)";
    default:
      return std::string("the CUDA runtime cannot query devices: ") + (error_string ? error_string : "unknown error");
  }
}

}  // namespace detail

/**
 * Queries the CUDA runtime for `device` (no context is created beyond what
 * cudaGetDeviceCount / cudaGetDeviceProperties create). Never throws; the
 * failure is in `reason`. Clears the runtime's last-error state it causes.
 */
inline cuda_device_status probe_cuda_device(int device = 0) {
  cuda_device_status s;
  cudaDriverGetVersion(&s.driver_version);
  cudaRuntimeGetVersion(&s.runtime_version);
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  (void)cudaGetLastError();
  s.device_count = status == cudaSuccess ? count : 0;
  s.reason = detail::describe_unusable(status, s.device_count, device, s.driver_version, s.runtime_version,
                                       cudaGetErrorString(status));
  if (!s.reason.empty()) return s;
  cudaDeviceProp prop{};
  const cudaError_t p = cudaGetDeviceProperties(&prop, device);
  (void)cudaGetLastError();
  if (p != cudaSuccess) {
    s.reason = std::string("cannot read the properties of device ") + std::to_string(device) + ": " + cudaGetErrorString(p);
    return s;
  }
  s.usable = true;
  s.name = prop.name;
  s.compute_major = prop.major;
  s.compute_minor = prop.minor;
  s.multiprocessors = prop.multiProcessorCount;
  s.total_memory = prop.totalGlobalMem;
  return s;
}

/// "NVIDIA H100 80GB HBM3 (compute 9.0, 132 SMs, 79.6 GiB), driver CUDA 12.4, runtime 13.0", or "none: REASON".
inline std::string describe(const cuda_device_status& s) {
  if (!s.usable) return "none: " + s.reason;
  const double gib = static_cast<double>(s.total_memory) / (1024.0 * 1024.0 * 1024.0);
  char mem[32];
  std::snprintf(mem, sizeof mem, "%.1f GiB", gib);
  return s.name + " (compute " + std::to_string(s.compute_major) + "." + std::to_string(s.compute_minor) + ", " +
         std::to_string(s.multiprocessors) + " SMs, " + mem + "), driver CUDA " +
         detail::cuda_version_string(s.driver_version) + ", runtime " + detail::cuda_version_string(s.runtime_version);
}

}  // namespace fusedga
