#pragma once
/// @file runtime.cuh
/// `cuda_runtime`: the CUDA side of the CUDA executor (executor.hpp's Runtime
/// policy) on a real GPU — device selection and memory check, one
/// non-blocking stream, kernel launches through the problem's kernel set
/// (cudaLaunchKernel, so the GPU JIT's run-time kernels launch the same way),
/// CUB's radix sort, and each buffer parity's generation captured once as a
/// CUDA graph. nvcc only.

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <memory>
#include <string>

#include "fusedga/backends/cuda/buffer.hpp"
#include "fusedga/backends/cuda/device.hpp"
#include "fusedga/backends/cuda/error.hpp"
#include "fusedga/backends/cuda/geometry.hpp"
#include "fusedga/backends/cuda/kernel_args.hpp"
#include "fusedga/backends/cuda/kernels.cuh"
#include "fusedga/core/error.hpp"

namespace fusedga {
namespace backend {
struct cuda;
}

namespace detail {

/**
 * The real-GPU runtime of one run of `Problem`. Not thread-safe.
 * @throws backend_unavailable from the constructor when the GPU cannot be used (the reason is named).
 * @throws cuda_error for any failing CUDA call (the call and the CUDA error string).
 */
template <class Problem>
class cuda_runtime {
 public:
  using memory = device_memory;
  template <class T>
  using host_buffer = pinned_buffer<T>;
  static constexpr std::size_t evaluation_min_blocks = cuda_geometry::kMinEvaluationBlocks;

  template <class Backend>
  cuda_runtime(const Problem& problem, const Backend& backend) : device_(backend.device), graphs_on_(backend.graphs) {
    const cuda_device_status status = probe_cuda_device(device_);
    if (!status.usable) throw backend_unavailable("backend cuda: no usable GPU: " + status.reason);
    device_name_ = status.name;
    FUSEDGA_CUDA_TRY(cudaSetDevice(device_));
    stream_ = std::make_unique<cuda_stream>();
    kernels_ = cuda_kernels::kernel_source<Problem>::get(problem);
  }

  /// Makes the run's device current: another run on this thread may have selected another.
  void use_device() const { FUSEDGA_CUDA_TRY(cudaSetDevice(device_)); }

  /// @throws config_error when the run does not fit in the free device memory (the message says how many individuals
  /// fit).
  void check_memory(std::size_t n, int d, cuda_geometry::element_sizes sizes, std::size_t elitism) const {
    std::size_t free_bytes = 0, total_bytes = 0;
    FUSEDGA_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::string problem = cuda_geometry::check_fits(n, d, sizes, elitism, free_bytes, total_bytes, device_name_);
    if (!problem.empty()) throw config_error(problem);
  }

  void to_device(void* dst, const void* src, std::size_t bytes) const {
    FUSEDGA_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream()));
  }
  void to_host(void* dst, const void* src, std::size_t bytes) const {
    FUSEDGA_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream()));
  }
  void synchronize() const { stream_->synchronize(); }

  void init(unsigned blocks, unsigned threads, const cuda_kernels::init_args<Problem>& a) {
    launch(kernels_.init, blocks, threads, 0, a);
  }
  void evaluate(const cuda_geometry::launch& l, std::size_t shared_bytes,
                const cuda_kernels::evaluate_args<Problem>& a) {
    launch(kernels_.evaluate, l.blocks, l.threads, shared_bytes, a);
  }
  void offspring(bool short_genome, const cuda_geometry::launch& l, const cuda_kernels::offspring_args<Problem>& a) {
    launch(short_genome ? kernels_.offspring_short : kernels_.offspring_long, l.blocks, l.threads, l.shared_bytes, a);
  }
  /// @throws error when the run's kernel set has no DE kernel (integer genes; validate rejects those first).
  void de(const cuda_geometry::launch& l, const cuda_kernels::de_args<Problem>& a) {
    if (!kernels_.de) throw error("backend cuda: this run's kernels have no differential-evolution kernel");
    launch(kernels_.de, l.blocks, l.threads, 0, a);
  }
  template <class G, class F>
  void de_update(const cuda_kernels::de_update_args<G, F>& a) {
    cuda_kernels::de_update_kernel<G, F><<<1, cuda_geometry::kFinishThreads, 0, stream()>>>(a);
    FUSEDGA_CUDA_TRY(cudaGetLastError());
  }
  template <class G, class F>
  void de_slots(const cuda_kernels::de_slots_args<G, F>& a) {
    constexpr unsigned threads = 256, tiles_per_block = threads / 32;
    cuda_kernels::de_slots_kernel<G, F><<<cuda_geometry::ceil_div(a.tiles, tiles_per_block), threads, 0, stream()>>>(a);
    FUSEDGA_CUDA_TRY(cudaGetLastError());
  }
  template <class G, class F>
  void de_archive(const cuda_kernels::de_archive_args<G, F>& a) {
    const std::size_t genes = a.parents.size * static_cast<std::size_t>(a.parents.dimension);
    cuda_kernels::de_archive_kernel<G, F><<<cuda_geometry::grid_for(genes, 256), 256, 0, stream()>>>(a);
    FUSEDGA_CUDA_TRY(cudaGetLastError());
  }
  template <class G, class F>
  void finish(const cuda_kernels::finish_args<G, F>& a) {
    cuda_kernels::finish_generation_kernel<G, F><<<1, cuda_geometry::kFinishThreads, 0, stream()>>>(a);
    FUSEDGA_CUDA_TRY(cudaGetLastError());
  }

  template <class G, class F>
  void plus_survival(const cuda_kernels::plus_args<G, F>& a) {
    cuda_kernels::plus_survival_kernel<G, F>
        <<<cuda_geometry::grid_for(a.parents.size, 256), 256, 0, stream()>>>(a);
    FUSEDGA_CUDA_TRY(cudaGetLastError());
  }

  template <class Key>
  std::size_t sort_scratch_bytes(const Key* keys, Key* keys_out, const std::uint32_t* slots, std::uint32_t* slots_out,
                                 std::size_t n) {
    std::size_t bytes = 0;
    FUSEDGA_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, keys_out, slots, slots_out,
                                                     static_cast<int>(n), 0, int(sizeof(Key) * 8), stream()));
    return bytes;
  }
  template <class Key>
  void sort_pairs(const Key* keys, Key* keys_out, const std::uint32_t* slots, std::uint32_t* slots_out, std::size_t n,
                  void* scratch, std::size_t scratch_bytes) {
    FUSEDGA_CUDA_TRY(cub::DeviceRadixSort::SortPairs(scratch, scratch_bytes, keys, keys_out, slots, slots_out,
                                                     static_cast<int>(n), 0, int(sizeof(Key) * 8), stream()));
  }
  std::size_t sort_slots_scratch_bytes(const std::uint32_t* slots, std::uint32_t* slots_out, std::size_t n) {
    std::size_t bytes = 0;
    FUSEDGA_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, bytes, slots, slots_out, static_cast<int>(n), 0, 32, stream()));
    return bytes;
  }
  void sort_slots(const std::uint32_t* slots, std::uint32_t* slots_out, std::size_t n, void* scratch,
                  std::size_t scratch_bytes) {
    FUSEDGA_CUDA_TRY(cub::DeviceRadixSort::SortKeys(scratch, scratch_bytes, slots, slots_out, static_cast<int>(n), 0, 32,
                                                    stream()));
  }
  void iota(std::uint32_t* slots, std::size_t n) {
    cuda_kernels::iota_kernel<std::uint32_t><<<cuda_geometry::grid_for(n, 256), 256, 0, stream()>>>(slots, n);
    FUSEDGA_CUDA_TRY(cudaGetLastError());
  }

  /**
   * Queues one generation: `enqueue()` directly, or the graph captured from it. Each parity's first
   * generation runs uncaptured: it loads every kernel the step launches (CUDA loads modules lazily), so
   * no module load happens inside a stream capture. Direct and graph runs are identical.
   */
  template <class Enqueue>
  void run_generation(int parity, Enqueue&& enqueue) {
    if (graphs_on_ && ran_uncaptured_[parity]) {
      cuda_graph_exec& g = graphs_[parity];
      if (!g) {
        FUSEDGA_CUDA_TRY(cudaStreamBeginCapture(stream(), cudaStreamCaptureModeThreadLocal));
        try {
          enqueue();
        } catch (...) {
          cudaGraph_t broken = nullptr;
          cudaStreamEndCapture(stream(), &broken);
          if (broken) cudaGraphDestroy(broken);
          (void)cudaGetLastError();
          throw;
        }
        g.end_capture(stream());
      }
      g.launch(stream());
    } else {
      enqueue();
      ran_uncaptured_[parity] = true;
    }
  }

  /// The run's stream; every pass is queued on it.
  cudaStream_t stream() const { return stream_->get(); }
  /// Name of the device the run uses.
  const std::string& device_name() const { return device_name_; }

 private:
  /// Queues `kernel` (a kernel_set handle taking `Args` by value) on stream(); works under graph capture.
  template <class Args>
  void launch(const void* kernel, unsigned blocks, unsigned threads, std::size_t shared_bytes, const Args& args) {
    void* params[] = {const_cast<Args*>(&args)};
    FUSEDGA_CUDA_TRY(cudaLaunchKernel(kernel, dim3(blocks), dim3(threads), params, shared_bytes, stream()));
  }

  int device_ = 0;
  bool graphs_on_ = true;
  std::string device_name_;
  std::unique_ptr<cuda_stream> stream_;  // destroyed after the graphs below
  cuda_kernels::kernel_set kernels_{};
  cuda_graph_exec graphs_[2];
  bool ran_uncaptured_[2] = {false, false};
};

}  // namespace detail
}  // namespace fusedga
