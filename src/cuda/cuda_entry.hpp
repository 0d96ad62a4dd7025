#pragma once
/// @file cuda_entry.hpp
/// Private: the CUDA backend as seen from the (g++-compiled) registry. The
/// templates are defined in cuda_entry_impl.cuh and explicitly instantiated
/// for the built-in problems in src/cuda/*.cu, compiled by nvcc in parallel;
/// a call for any other problem type fails to link.

#include <memory>

#include "fusedga/backends/cuda.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/engine/result.hpp"
#include "fusedga/report/bench_cuda.hpp"

namespace fusedga::detail {

/// `solve(problem, options, backend::cuda)` for a built-in problem.
template <class Problem>
Result cuda_solve(const Problem& problem, const ga_options& options, const backend::cuda& backend);

/// The CUDA tiers' benchmark handle for a built-in problem.
template <class Problem>
std::unique_ptr<cuda_bench_target> make_cuda_bench_target(const Problem& problem, const run_config& cfg);

}  // namespace fusedga::detail
