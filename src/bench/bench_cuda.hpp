#pragma once
/// @file bench_cuda.hpp
/// ga-bench's CUDA tiers: the fused evaluation and the full generation on the
/// GPU, float or double, with and without host↔device transfer, timed with
/// CUDA events, plus the device's measured copy bandwidth (the roofline for
/// the GPU rows). Built only with the CUDA backend (FUSEDGA_WITH_CUDA); in a
/// build without it `run_bench_with_cuda` rejects `--backends cuda` with
/// backend_unavailable and otherwise is `run_bench`.

#include <cstddef>
#include <memory>
#include <string>

#include "bench/bench_record.hpp"
#include "bench/bench_runner.hpp"
#include "fusedga/config/run_config.hpp"

namespace fusedga {

/// What one CUDA timing covers.
enum class cuda_workload {
  eval,                 ///< fused evaluation of the device-resident population
  eval_transfer,        ///< genes host→device, fused evaluation, objective/violation/key device→host
  generation,           ///< one generation (graph launch, statistics back to the host, synchronization)
  generation_transfer,  ///< population host→device (+ its summary), one generation, population device→host
};

/**
 * A built-in problem prepared for the CUDA tiers (type-erased; the typed side
 * is src/cuda/bench_target.cuh). Not thread-safe.
 */
class cuda_bench_target {
 public:
  virtual ~cuda_bench_target() = default;
  /// Builds the CUDA engine for `population` individuals and initializes it (frees the previous one first).
  /// @throws config_error when it does not fit in device memory; backend_unavailable without a usable GPU.
  virtual void prepare(std::size_t population) = 0;
  /// Runs `w` once and returns its duration in seconds, measured with CUDA events on the engine's stream.
  virtual double time_once(cuda_workload w) = 0;
  /// Device-to-device cudaMemcpy bandwidth, best of `trials`, counting read + write (as STREAM copy), 10^9 bytes/s.
  virtual double copy_gb_per_s(std::size_t array_bytes, int trials) = 0;
  /// The device, e.g. "NVIDIA H100 ... (compute 9.0, 132 SMs, 79.6 GiB), driver CUDA 12.4, runtime 13.0".
  virtual std::string device() const = 0;
};

/// `plan` without its cuda backends: the part of a plan that runs on the CPU.
bench_plan without_cuda(bench_plan plan);

/**
 * ga-bench's measurement with the CUDA tiers: `plan.backends` may contain
 * backend_kind::cuda (threads ignored). The CPU part of the plan runs through
 * `run_bench` (when there is one); then, for each size, the CUDA rows: tier
 * "fused" (device-resident) and "fused-transfer" (with host↔device copies),
 * backend "cuda", workloads eval and generation as selected; each row's
 * copy_gb_per_s is the device's copy bandwidth. Sets environment.gpu.
 * @throws backend_unavailable when cuda is requested but not built or no GPU is usable;
 *         config_error when the problem has no CUDA target; whatever run_bench throws.
 */
bench_report run_bench_with_cuda(const run_config& cfg, bench_plan plan, const bench_progress& progress = {});

/// The GPU line of a report: the device description, or "none: <reason>" (no CUDA backend, no device, ...).
std::string cuda_environment_description();

}  // namespace fusedga
