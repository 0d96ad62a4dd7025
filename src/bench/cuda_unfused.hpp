#pragma once
/// @file cuda_unfused.hpp
/// ga-bench's GPU "unfused" tier: the seed workloads evaluated the eager
/// PyTorch way, with one `thrust::transform` per arithmetic operation, each
/// writing a fresh device temporary, so that the CUDA rows show what fusion
/// buys exactly as the CPU rows do against the NumPy-style tier
/// (bench/unfused_seed.hpp, whose operation list this tier follows one for one).
///
/// Temporaries come from a per-target cache of freed device blocks, as
/// PyTorch's caching allocator hands them out: a temporary costs the pass
/// that writes it, not a cudaMalloc. Kernels are enqueued without a
/// synchronization between them (`thrust::cuda::par_nosync`), as eager
/// PyTorch enqueues its kernels. Built only with the CUDA backend
/// (src/bench/unfused_thrust.cu).

#include <cstddef>
#include <memory>

#include "fusedga/config/run_config.hpp"

namespace fusedga {

/**
 * The GPU unfused evaluation of one built-in problem (type-erased; the typed
 * side is src/bench/unfused_thrust.cu). Owns a device population of N
 * individuals, N × d row-major genes drawn uniformly inside the problem's
 * bounds. Not thread-safe.
 */
class cuda_unfused_target {
 public:
  virtual ~cuda_unfused_target() = default;
  /// Frees the previous population, then allocates and fills one of `population` (>= 1) individuals.
  /// @throws config_error when it does not fit in device memory; cuda_error on another CUDA failure.
  virtual void prepare(std::size_t population) = 0;
  /// One unfused evaluation (objective, total violation and rank key of every individual); its duration in
  /// seconds, measured with CUDA events on the target's stream.
  virtual double time_once() = 0;
  /**
   * Largest relative difference, over every individual of the last evaluation, between this tier's objective
   * and violation and the problem's own scalar evaluation of the same genes on the host (copied back).
   * 0 when they agree bitwise. @throws error when nothing was evaluated yet.
   */
  virtual double difference_from_host() const = 0;
};

namespace detail {
/// The GPU unfused tier of `cfg`'s problem at `cfg.precision`, or nullptr when the problem has none (every
/// problem but the three seed workloads) or the CUDA backend is not built.
std::unique_ptr<cuda_unfused_target> make_cuda_unfused_target(const run_config& cfg);
}  // namespace detail

}  // namespace fusedga
