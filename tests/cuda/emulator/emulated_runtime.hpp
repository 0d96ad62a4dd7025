#pragma once
// The CUDA executor (backends/cuda/executor.hpp) on the kernel emulator: the
// Runtime policy below runs kernels.cuh's kernels with cuda_emulation::launch
// on host memory, so `engine<Problem, emulated_cuda>` drives the executor's
// own host sequence (allocation, launch order and arguments, elite sort, run
// state) with only the CUDA runtime calls replaced: buffers are host arrays,
// copies are memcpy, CUB's radix sort is a stable sort, a graph is a direct run.
// Needs FUSEDGA_KERNEL_EMULATION (kernels.cuh then includes kernel_emulation.hpp).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fusedga/backends/cuda/executor.hpp>
#include <fusedga/backends/cuda/geometry.hpp>
#include <fusedga/backends/cuda/kernels.cuh>
#include <fusedga/core/aligned_buffer.hpp>
#include <fusedga/core/population.hpp>
#include <fusedga/engine/engine.hpp>
#include <numeric>
#include <vector>

#include "cuda/host_population.hpp"
#include "cuda/run_engine.hpp"

namespace cuda_test {

/// The backend tag of the emulated GPU (the fields of backend::cuda; `graphs` has no meaning here).
struct emulated_cuda {
  int device = 0;
  bool graphs = true;
};

/// executor.hpp's Runtime policy on the kernel emulator. Not thread-safe (one launch at a time per process).
template <class Problem>
class emulated_runtime {
 public:
  using memory = fusedga::host_memory;
  template <class T>
  using host_buffer = fusedga::detail::aligned_buffer<T>;
  /// No SMs to keep busy: the tests' small populations take kEvaluationRows rows per thread, as large ones on a GPU.
  static constexpr std::size_t evaluation_min_blocks = 1;

  emulated_runtime(const Problem&, const emulated_cuda&) {}

  void use_device() const {}
  void check_memory(std::size_t, int, fusedga::detail::cuda_geometry::element_sizes, std::size_t) const {}
  void to_device(void* dst, const void* src, std::size_t bytes) const { std::memcpy(dst, src, bytes); }
  void to_host(void* dst, const void* src, std::size_t bytes) const { std::memcpy(dst, src, bytes); }
  void synchronize() const {}

  void init(unsigned blocks, unsigned threads, const fusedga::detail::cuda_kernels::init_args<Problem>& a) {
    cuda_emulation::launch(blocks, threads, 0, [&] { fusedga::detail::cuda_kernels::init_genes(a); });
  }
  void evaluate(const fusedga::detail::cuda_geometry::launch& l, std::size_t shared_bytes,
                const fusedga::detail::cuda_kernels::evaluate_args<Problem>& a) {
    cuda_emulation::launch(l.blocks, l.threads, shared_bytes, [&] { fusedga::detail::cuda_kernels::evaluate_tile(a); });
  }
  void offspring(bool short_genome, const fusedga::detail::cuda_geometry::launch& l,
                 const fusedga::detail::cuda_kernels::offspring_args<Problem>& a) {
    if (short_genome)
      cuda_emulation::launch(l.blocks, l.threads, l.shared_bytes,
                             [&] { fusedga::detail::cuda_kernels::offspring_short(a); });
    else
      cuda_emulation::launch(l.blocks, l.threads, l.shared_bytes,
                             [&] { fusedga::detail::cuda_kernels::offspring_long(a); });
  }
  void de(const fusedga::detail::cuda_geometry::launch& l, const fusedga::detail::cuda_kernels::de_args<Problem>& a) {
    cuda_emulation::launch(l.blocks, l.threads, 0, [&] { fusedga::detail::cuda_kernels::de_targets(a); });
  }
  template <class G, class F>
  void de_update(const fusedga::detail::cuda_kernels::de_update_args<G, F>& a) {
    cuda_emulation::launch(1, fusedga::detail::cuda_geometry::kFinishThreads, 0,
                           [&] { fusedga::detail::cuda_kernels::de_update(a); });
  }
  template <class G, class F>
  void de_slots(const fusedga::detail::cuda_kernels::de_slots_args<G, F>& a) {
    cuda_emulation::launch(fusedga::detail::cuda_geometry::ceil_div(a.tiles, 8), 256, 0,
                           [&] { fusedga::detail::cuda_kernels::de_slots(a); });
  }
  template <class G, class F>
  void de_archive(const fusedga::detail::cuda_kernels::de_archive_args<G, F>& a) {
    const std::size_t genes = a.parents.size * static_cast<std::size_t>(a.parents.dimension);
    cuda_emulation::launch(fusedga::detail::cuda_geometry::grid_for(genes, 256), 256, 0,
                           [&] { fusedga::detail::cuda_kernels::de_archive(a); });
  }
  template <class G, class F>
  void finish(const fusedga::detail::cuda_kernels::finish_args<G, F>& a) {
    cuda_emulation::launch(1, fusedga::detail::cuda_geometry::kFinishThreads, 0,
                           [&] { fusedga::detail::cuda_kernels::finish_generation(a); });
  }

  template <class G, class F>
  void plus_survival(const fusedga::detail::cuda_kernels::plus_args<G, F>& a) {
    cuda_emulation::launch(fusedga::detail::cuda_geometry::grid_for(a.parents.size, 256), 256, 0,
                           [&] { fusedga::detail::cuda_kernels::plus_survival(a); });
  }

  template <class Key>
  std::size_t sort_scratch_bytes(const Key*, Key*, const std::uint32_t*, std::uint32_t*, std::size_t n) {
    order_.resize(std::max(order_.size(), n));  // here, as CUB's scratch is sized: no allocation during a generation
    return 0;
  }
  /// cub::DeviceRadixSort::SortPairs: stable, ascending keys.
  template <class Key>
  void sort_pairs(const Key* keys, Key* keys_out, const std::uint32_t* slots, std::uint32_t* slots_out, std::size_t n,
                  void*, std::size_t) {
    const auto end = order_.begin() + static_cast<std::ptrdiff_t>(n);
    std::iota(order_.begin(), end, std::size_t(0));
    std::stable_sort(order_.begin(), end, [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    for (std::size_t i = 0; i < n; ++i) {
      keys_out[i] = keys[order_[i]];
      slots_out[i] = slots[order_[i]];
    }
  }
  std::size_t sort_slots_scratch_bytes(const std::uint32_t*, std::uint32_t*, std::size_t) { return 0; }
  /// cub::DeviceRadixSort::SortKeys of 32-bit slots: ascending.
  void sort_slots(const std::uint32_t* slots, std::uint32_t* slots_out, std::size_t n, void*, std::size_t) {
    std::copy(slots, slots + n, slots_out);
    std::sort(slots_out, slots_out + n);
  }
  void iota(std::uint32_t* slots, std::size_t n) { std::iota(slots, slots + n, 0u); }

  template <class Enqueue>
  void run_generation(int, Enqueue&& enqueue) {
    enqueue();
  }

 private:
  std::vector<std::size_t> order_;  // sort scratch (sized by sort_scratch_bytes, before any generation)
};

}  // namespace cuda_test

namespace fusedga {
template <class Problem>
struct executor_for<Problem, cuda_test::emulated_cuda> {
  using type = detail::cuda_executor<Problem, cuda_test::emulated_runtime<Problem>>;
};
}  // namespace fusedga

namespace cuda_test {

/// parity_checks.hpp's `run` on the emulator: the same engine and sequence as run_on_gpu (gpu_harness.cu).
template <class Problem>
gpu_run<Problem> run_emulated(const Problem& p, const fusedga::ga_options& o, int generations,
                              const host_population<Problem>* start, bool graphs) {
  return run_engine(p, o, generations, start, emulated_cuda{0, graphs});
}

}  // namespace cuda_test
