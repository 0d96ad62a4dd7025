// A stand-in for the CUDA runtime's device probe, preloaded (LD_PRELOAD) by
// the "cuda: fake GPU" tests (tests/CMakeLists.txt): cudaGetDeviceCount,
// cudaDriverGetVersion and cudaGetDeviceProperties report one H100 with a
// CUDA 13 driver, so what `backend: auto` does on a GPU machine — plans,
// explain, the CPU rows of ga-bench — is tested on machines without one.
// Nothing else is replaced: any real CUDA work still fails.
#include <cstring>

#include <cuda_runtime_api.h>

extern "C" {

cudaError_t CUDARTAPI cudaGetDeviceCount(int* count) {
  *count = 1;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDriverGetVersion(int* version) {
  *version = 13000;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDeviceProperties_v2(cudaDeviceProp* p, int) {
  std::memset(p, 0, sizeof *p);
  std::strcpy(p->name, "fake H100 (tests/cuda/fake_gpu)");
  p->major = 9;
  p->minor = 0;
  p->multiProcessorCount = 132;
  p->totalGlobalMem = std::size_t(80) << 30;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  return cudaGetDeviceProperties_v2(p, device);
}

}  // extern "C"
