#pragma once
// Runs the CUDA kernels of kernels.cuh on the host, for tests on machines
// without a GPU. kernels.cuh includes this header instead of
// <cuda_runtime.h> when FUSEDGA_KERNEL_EMULATION is defined.
//
// Each CUDA thread of a block is a fiber (ucontext) on the calling thread;
// blocks run one after another. __syncthreads() and the warp shuffles are
// barriers of the block's fibers or of a warp's 32 fibers, so every
// interleaving the kernels rely on is honoured, and a barrier that not every
// thread reaches (a __syncthreads in divergent code, a shuffle in a partial
// warp) is reported as an error instead of hanging. `__shared__` variables are
// statics (one block at a time, so one copy suffices); the dynamic shared
// memory is a fresh buffer per block filled with garbage, with a guard zone
// after it that is checked when the block ends.
//
// Not thread-safe: one launch at a time per process.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3() = default;
  constexpr dim3(unsigned x_, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct uint4 {
  unsigned x, y, z, w;
};

#define __global__
#define __launch_bounds__(...)
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static

/// The built-in indices of the running fiber (set by the scheduler before it switches to a fiber).
extern dim3 threadIdx, blockIdx, blockDim, gridDim;

/// Waits until every thread of the block has arrived.
void __syncthreads();

namespace cuda_emulation {

/**
 * Runs `body` as the kernel of a launch of `grid` × `block` threads (x only)
 * with `shared_bytes` of dynamic shared memory.
 * @throws std::runtime_error when a barrier cannot complete (divergent
 *         __syncthreads or shuffle), when a block wrote past its dynamic
 *         shared memory, or when a thread threw (its exception is rethrown).
 */
void launch(dim3 grid, dim3 block, std::size_t shared_bytes, const std::function<void()>& body);

/// The running block's dynamic shared memory.
unsigned char* dynamic_shared_memory();

/// Every lane of the warp publishes `mine`; on return `lanes` holds the 32 values. Needs the full mask.
void warp_exchange(unsigned mask, std::uint64_t mine, std::uint64_t (&lanes)[32]);

template <class T>
T shuffle(unsigned mask, T v, unsigned source) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "shuffles move at most 8 bytes");
  std::uint64_t bits = 0, lanes[32];
  std::memcpy(&bits, &v, sizeof v);
  warp_exchange(mask, bits, lanes);
  if (source < 32) std::memcpy(&v, &lanes[source], sizeof v);
  return v;
}

}  // namespace cuda_emulation

template <class T>
T __shfl_sync(unsigned mask, T v, int lane) {
  return cuda_emulation::shuffle(mask, v, static_cast<unsigned>(lane) % 32);
}
template <class T>
T __shfl_down_sync(unsigned mask, T v, unsigned delta) {
  return cuda_emulation::shuffle(mask, v, threadIdx.x % 32 + delta);  // beyond lane 31: v unchanged, as CUDA
}

template <class T>
T __shfl_up_sync(unsigned mask, T v, unsigned delta) {
  const unsigned lane = threadIdx.x % 32;  // below lane `delta`: v unchanged, as CUDA
  return cuda_emulation::shuffle(mask, v, lane >= delta ? lane - delta : lane);
}
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }

/// atomicMax: fibers switch only at barriers, so a plain read-modify-write is atomic here.
inline unsigned atomicMax(unsigned* address, unsigned v) {
  const unsigned old = *address;
  if (v > old) *address = v;
  return old;
}
/// atomicAdd (the gradient repair's evaluation count): atomic here for the same reason.
inline unsigned long long atomicAdd(unsigned long long* address, unsigned long long v) {
  const unsigned long long old = *address;
  *address = old + v;
  return old;
}

namespace fusedga::detail::cuda_kernels {
/// kernels.cuh's accessor of the block's dynamic shared memory.
template <class T>
T* dynamic_shared() {
  return reinterpret_cast<T*>(cuda_emulation::dynamic_shared_memory());
}
}  // namespace fusedga::detail::cuda_kernels
