#pragma once
/// @file buffer.hpp
/// Owning RAII handles for CUDA resources (cuCollections style: the owner
/// allocates and frees; kernels get raw pointers or trivially copyable
/// views). Host code; compiles without nvcc. No managed memory anywhere.

#include <cstddef>
#include <utility>

#include <cuda_runtime_api.h>

#include "fusedga/backends/cuda/error.hpp"

namespace fusedga::detail {

/// `n` uninitialized elements of trivially copyable T in device memory (cudaMalloc). Movable, not copyable.
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  /// @throws cuda_error when cudaMalloc fails (out of memory included).
  explicit device_buffer(std::size_t n) : size_(n) {
    if (n) FUSEDGA_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&data_), n * sizeof(T)));
  }
  device_buffer(device_buffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      reset();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { reset(); }
  void reset() noexcept {
    if (data_) cudaFree(data_);  // synchronizes with the device; errors cannot be reported from here
    data_ = nullptr;
    size_ = 0;
  }
  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// `n` elements of page-locked host memory (cudaMallocHost), for asynchronous device-to-host copies.
template <class T>
class pinned_buffer {
 public:
  pinned_buffer() = default;
  explicit pinned_buffer(std::size_t n) : size_(n) {
    if (n) FUSEDGA_CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&data_), n * sizeof(T)));
  }
  pinned_buffer(pinned_buffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  pinned_buffer& operator=(pinned_buffer&& o) noexcept {
    if (this != &o) {
      if (data_) cudaFreeHost(data_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;
  ~pinned_buffer() {
    if (data_) cudaFreeHost(data_);
  }
  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Device memory as a population's memory policy (core/population.hpp): `population<G, F, device_memory>`.
struct device_memory {
  template <class T>
  using buffer = device_buffer<T>;
};

/// A non-blocking CUDA stream owned for the lifetime of an engine.
class cuda_stream {
 public:
  cuda_stream() { FUSEDGA_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;
  ~cuda_stream() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  cudaStream_t get() const noexcept { return stream_; }
  /// Blocks until all work queued on the stream finished. @throws cuda_error (kernel faults surface here).
  void synchronize() const { FUSEDGA_CUDA_TRY(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

/// A CUDA event for timing (cudaEventElapsedTime resolution: about 0.5 µs).
class cuda_event {
 public:
  cuda_event() { FUSEDGA_CUDA_TRY(cudaEventCreate(&event_)); }
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;
  ~cuda_event() {
    if (event_) cudaEventDestroy(event_);
  }
  void record(cudaStream_t s) { FUSEDGA_CUDA_TRY(cudaEventRecord(event_, s)); }
  /// Milliseconds from `start` to this event; both must have completed (synchronizes on this event).
  float since(const cuda_event& start) const {
    FUSEDGA_CUDA_TRY(cudaEventSynchronize(event_));
    float ms = 0;
    FUSEDGA_CUDA_TRY(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

/// An instantiated CUDA graph (one captured generation).
class cuda_graph_exec {
 public:
  cuda_graph_exec() = default;
  cuda_graph_exec(const cuda_graph_exec&) = delete;
  cuda_graph_exec& operator=(const cuda_graph_exec&) = delete;
  ~cuda_graph_exec() { reset(); }
  void reset() noexcept {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = nullptr;
  }
  explicit operator bool() const noexcept { return exec_ != nullptr; }
  /// Ends the capture on `s` and instantiates its graph. @throws cuda_error.
  void end_capture(cudaStream_t s) {
    cudaGraph_t graph = nullptr;
    FUSEDGA_CUDA_TRY(cudaStreamEndCapture(s, &graph));
    const cudaError_t status = cudaGraphInstantiate(&exec_, graph, 0);
    cudaGraphDestroy(graph);
    cuda_check(status, "cudaGraphInstantiate(&exec, graph, 0)", __FILE__, __LINE__);
  }
  void launch(cudaStream_t s) const { FUSEDGA_CUDA_TRY(cudaGraphLaunch(exec_, s)); }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace fusedga::detail
