#pragma once
/// @file cuda_bench_entry.hpp
/// Private: ga-bench's CUDA targets as seen from g++-compiled code. Defined in cuda/cuda_entry_impl.cuh and
/// explicitly instantiated for the built-in problems in src/cuda/*.cu beside cuda_solve (one nvcc compile of
/// each CUDA engine serves both); a call for any other problem type fails to link.

#include <memory>

#include "bench/bench_cuda.hpp"
#include "fusedga/config/run_config.hpp"

namespace fusedga::detail {

/// The CUDA tiers' benchmark handle for a built-in problem.
template <class Problem>
std::unique_ptr<cuda_bench_target> make_cuda_bench_target(const Problem& problem, const run_config& cfg);

}  // namespace fusedga::detail
