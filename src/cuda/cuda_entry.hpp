#pragma once
/// @file cuda_entry.hpp
/// Private: the CUDA backend as seen from the (g++-compiled) registry (ga-bench's
/// CUDA targets: bench/cuda_bench_entry.hpp). The
/// templates are defined in cuda_entry_impl.cuh and explicitly instantiated
/// for the built-in problems in src/cuda/*.cu, compiled by nvcc in parallel;
/// a call for any other problem type fails to link.

#include <istream>
#include <memory>
#include <string>

#include "fusedga/backends/cuda.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/engine/options.hpp"
#include "fusedga/engine/result.hpp"

namespace fusedga::detail {

/// `solve(problem, options, backend::cuda)` for a built-in problem; with `resume` not null, the run resumed from
/// that checkpoint (solve's resuming overload; `resume_source` names it in errors).
template <class Problem>
Result cuda_solve(const Problem& problem, const ga_options& options, const backend::cuda& backend,
                  std::istream* resume, const std::string& resume_source);

}  // namespace fusedga::detail
