#pragma once
// The CUDA suite's GPU harness: runs the CUDA engine and brings its
// populations back to the host. Defined in gpu_harness.cu (nvcc) for the
// problem types the GPU tests use; only built with the CUDA backend.
#include <cstdlib>
#include <string>
#include <vector>

#include <fusedga/config/registry.hpp>  // cuda_unavailable_reason
#include <fusedga/engine/generation_stats.hpp>
#include <fusedga/engine/options.hpp>
#include <fusedga/engine/result.hpp>

#include "cuda/host_population.hpp"

/// Skips the enclosing test with a message when no GPU is usable (Catch2 v2
/// has no SKIP: a warning and an early return), so a GPU-less CI passes. With
/// FUSEDGA_REQUIRE_GPU_TESTS=1 in the environment (scripts/gpu-session.sh on
/// the GPU machine) a missing GPU fails the test instead: there, a skip would
/// hide that nothing was tested.
#define FUSEDGA_REQUIRE_GPU()                                                            \
  do {                                                                                   \
    const std::string why = ::fusedga::cuda_unavailable_reason();                        \
    if (!why.empty()) {                                                                  \
      const char* required = std::getenv("FUSEDGA_REQUIRE_GPU_TESTS");                   \
      if (required && std::string(required) == "1") FAIL("no usable GPU (" << why << ")"); \
      WARN("skipped: no usable GPU (" << why << ")");                                    \
      return;                                                                            \
    }                                                                                    \
  } while (0)

namespace cuda_test {

/**
 * Builds engine<Problem, backend::cuda>, initializes it, replaces its
 * population by `start` when given (genes, objective, violation, keys), runs
 * `generations` steps and downloads the populations.
 * @throws whatever the engine throws (backend_unavailable without a GPU).
 */
template <class Problem>
gpu_run<Problem> run_on_gpu(const Problem& p, const fusedga::ga_options& o, int generations,
                            const typename gpu_run<Problem>::population* start = nullptr, bool graphs = true);

/**
 * Evaluates `rows` (o.population individuals, row-major) on the GPU: an
 * engine<Problem, backend::cuda> of that size uploads them with evaluation
 * on the device and downloads objective, violation and rank keys.
 * @throws whatever the engine throws (backend_unavailable without a GPU).
 */
template <class Problem>
host_population<Problem> evaluate_on_gpu(const Problem& p, const fusedga::ga_options& o,
                                         const std::vector<fusedga::gene_t<Problem>>& rows);

/// solve(p, o, backend::cuda): a whole run (e.g. with o.checkpoint.write set, to keep its checkpoints).
template <class Problem>
fusedga::Result solve_on_gpu_for_checkpoints(const Problem& p, const fusedga::ga_options& o);

/// solve(p, o, backend::cuda, checkpoint): the run resumed from the checkpoint `bytes`.
template <class Problem>
fusedga::Result resume_on_gpu(const Problem& p, const fusedga::ga_options& o, const std::string& bytes);

}  // namespace cuda_test
