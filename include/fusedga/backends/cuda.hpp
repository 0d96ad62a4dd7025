#pragma once
/// @file cuda.hpp
/// The CUDA backend tag, `fusedga::backend::cuda`. This header compiles
/// without nvcc; the executor behind it (backends/cuda/executor.hpp over the
/// real runtime of backends/cuda/runtime.cuh) is included only when the
/// including file is compiled by nvcc, so `fusedga::solve(problem, options, backend::cuda{})`
/// works in a .cu file (link `fusedga::cuda`, which adds the CUDA runtime).
///
/// **Example** (a .cu file)
/// @code
/// #include <fusedga/fusedga.hpp>   // includes this header
/// auto r = fusedga::solve(MyProblem{}, options, fusedga::backend::cuda{});
/// @endcode

namespace fusedga {
namespace backend {
/**
 * Runs the whole generation on an NVIDIA GPU: the population lives in device
 * memory for the whole run; only per-generation statistics (a few numbers) and
 * the final best individual cross to the host. Trivially copyable tag.
 */
struct cuda {
  int device = 0;      ///< CUDA device ordinal (0 = the first GPU)
  bool graphs = true;  ///< capture each generation in a CUDA graph (one launch per generation)
};
}  // namespace backend
}  // namespace fusedga

#include "fusedga/engine/executor.hpp"

#if defined(__CUDACC__)
#include "fusedga/backends/cuda/executor.hpp"
#include "fusedga/backends/cuda/runtime.cuh"

namespace fusedga {
template <class Problem>
struct executor_for<Problem, backend::cuda> {
  using type = detail::cuda_executor<Problem, detail::cuda_runtime<Problem>>;
};
}  // namespace fusedga
#else
namespace fusedga {
/// Without nvcc there is no CUDA executor: a clear compile-time error instead of an incomplete type.
template <class Problem>
struct executor_for<Problem, backend::cuda> {
  static_assert(
      detail::dependent_false<Problem>::value,
      "fusedga::backend::cuda: compile this file with nvcc (a .cu source, or LANGUAGE CUDA) and link fusedga::cuda");
  using type = void;
};
}  // namespace fusedga
#endif
