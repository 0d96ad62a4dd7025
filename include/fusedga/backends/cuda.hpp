#pragma once
/// @file cuda.hpp
/// The CUDA backend tag, `fusedga::backend::cuda`. This header compiles
/// without nvcc; the engine specialization behind it
/// (backends/cuda/engine.cuh) is included only when the including file is
/// compiled by nvcc, so `fusedga::solve(problem, options, backend::cuda{})`
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
  int device = 0;       ///< CUDA device ordinal (0 = the first GPU)
  bool graphs = true;   ///< capture each generation in a CUDA graph (one launch per generation)
};
}  // namespace backend
}  // namespace fusedga

#if defined(__CUDACC__)
#include "fusedga/backends/cuda/engine.cuh"
#else
#include <type_traits>

namespace fusedga::detail {
template <class T>
struct needs_nvcc : std::false_type {};
/// Without nvcc there is no CUDA engine: a clear compile-time error instead of an overload failure.
template <class B, std::enable_if_t<std::is_same_v<B, backend::cuda>, int> = 0>
auto make_executor(const B&) {  // deduced return type: the static_assert fires when the engine asks for it
  static_assert(needs_nvcc<B>::value,
                "fusedga::backend::cuda: compile this file with nvcc (a .cu source, or LANGUAGE CUDA) and link fusedga::cuda");
  return 0;
}
}  // namespace fusedga::detail
#endif
