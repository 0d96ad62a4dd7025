#pragma once
/// @file cuda_entry_impl.cuh
/// Private: definitions of cuda_entry.hpp's and bench/cuda_bench_entry.hpp's
/// templates, and the explicit instantiation macro used by src/cuda/*.cu (one
/// file per problem family): each CUDA engine is compiled once by nvcc for both
/// the run and ga-bench's CUDA target.

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "bench/bench_options.hpp"      // the CUDA bench targets below: see cmake/check_layers.cmake
#include "bench/cuda_bench_entry.hpp"
#include "cuda/cuda_entry.hpp"
#include "fusedga/backends/cuda.hpp"
#include "fusedga/backends/cuda/buffer.hpp"
#include "fusedga/solve.hpp"

namespace fusedga::detail {

template <class Problem>
Result cuda_solve(const Problem& problem, const ga_options& options, const backend::cuda& backend,
                  std::istream* resume, const std::string& resume_source) {
  if (resume) return solve(problem, options, backend, *resume, resume_source);
  return solve(problem, options, backend);
}

/// The typed CUDA bench handle: one engine, pinned host mirrors for the transfer workloads.
template <class Problem>
class cuda_bench_target_for final : public cuda_bench_target {
 public:
  using engine_type = engine<Problem, backend::cuda>;
  using gene = gene_t<Problem>;
  using fitness = fitness_t<Problem>;
  using key = rank_key_t<fitness>;

  cuda_bench_target_for(const Problem& p, const run_config& cfg) : problem_(p), cfg_(cfg) {}

  void prepare(std::size_t population) override {
    engine_.reset();
    host_genes_ = {};
    host_obj_ = {};
    host_vio_ = {};
    host_key_ = {};
    engine_.emplace(problem_, bench_ga_options(cfg_.ga, population), backend::cuda{});
    engine_->initialize();
    // Both buffer parities' uncaptured first generation and graph capture happen here, not in timed calls.
    for (int g = 0; g < 4; ++g) engine_->step();
    n_ = population;
    d_ = static_cast<std::size_t>(problem_.dimension());
  }

  double time_once(cuda_workload w) override {
    if (!engine_) throw error("ga-bench: prepare() was not called");
    engine_type& e = *engine_;
    const cudaStream_t s = e.executor().runtime().stream();
    if (w == cuda_workload::eval_transfer || w == cuda_workload::generation_transfer) mirrors();
    start_.record(s);
    switch (w) {
      case cuda_workload::eval:
        e.executor().enqueue_evaluate();
        break;
      case cuda_workload::eval_transfer: {
        const auto v = e.current();
        FUSEDGA_CUDA_TRY(cudaMemcpyAsync(v.genes, host_genes_.data(), n_ * d_ * sizeof(gene), cudaMemcpyHostToDevice, s));
        e.executor().enqueue_evaluate();
        FUSEDGA_CUDA_TRY(cudaMemcpyAsync(host_obj_.data(), v.objective, n_ * sizeof(fitness), cudaMemcpyDeviceToHost, s));
        FUSEDGA_CUDA_TRY(cudaMemcpyAsync(host_vio_.data(), v.violation, n_ * sizeof(fitness), cudaMemcpyDeviceToHost, s));
        FUSEDGA_CUDA_TRY(cudaMemcpyAsync(host_key_.data(), v.rank_key, n_ * sizeof(key), cudaMemcpyDeviceToHost, s));
        break;
      }
      case cuda_workload::generation:
        e.step();
        break;
      case cuda_workload::generation_transfer:
        e.upload(host_genes_.data(), host_obj_.data(), host_vio_.data(), host_key_.data());
        e.step();
        e.download(host_genes_.data(), host_obj_.data(), host_vio_.data(), host_key_.data());
        break;
    }
    stop_.record(s);
    return static_cast<double>(stop_.since(start_)) * 1e-3;
  }

  double copy_gb_per_s(std::size_t array_bytes, int trials) override {
    if (!engine_) prepare(2);
    detail::device_buffer<unsigned char> a(array_bytes), b(array_bytes);
    const cudaStream_t s = engine_->executor().runtime().stream();
    FUSEDGA_CUDA_TRY(cudaMemsetAsync(a.data(), 1, array_bytes, s));
    double best = 0;
    for (int t = 0; t < trials + 1; ++t) {  // the first copy warms up
      start_.record(s);
      FUSEDGA_CUDA_TRY(cudaMemcpyAsync(b.data(), a.data(), array_bytes, cudaMemcpyDeviceToDevice, s));
      stop_.record(s);
      const double seconds = static_cast<double>(stop_.since(start_)) * 1e-3;
      if (t > 0 && seconds > 0) best = std::max(best, 2.0 * static_cast<double>(array_bytes) / seconds / 1e9);
    }
    return best;
  }

  std::string device() const override { return describe(probe_cuda_device(0)); }

 private:
  /// Pinned host copies of the current population (filled once per prepare), the transfer workloads' source and sink.
  void mirrors() {
    if (host_genes_.data()) return;
    host_genes_ = detail::pinned_buffer<gene>(n_ * d_);
    host_obj_ = detail::pinned_buffer<fitness>(n_);
    host_vio_ = detail::pinned_buffer<fitness>(n_);
    host_key_ = detail::pinned_buffer<key>(n_);
    engine_->download(host_genes_.data(), host_obj_.data(), host_vio_.data(), host_key_.data());
  }

  Problem problem_;
  run_config cfg_;
  std::optional<engine_type> engine_;
  std::size_t n_ = 0, d_ = 0;
  detail::pinned_buffer<gene> host_genes_;
  detail::pinned_buffer<fitness> host_obj_, host_vio_;
  detail::pinned_buffer<key> host_key_;
  detail::cuda_event start_, stop_;
};

template <class Problem>
std::unique_ptr<cuda_bench_target> make_cuda_bench_target(const Problem& problem, const run_config& cfg) {
  return std::make_unique<cuda_bench_target_for<Problem>>(problem, cfg);
}

}  // namespace fusedga::detail

/// Instantiates the CUDA engine's entry points for one problem type (in one .cu file per family).
#define FUSEDGA_INSTANTIATE_CUDA(...)                                                                                 \
  template ::fusedga::Result fusedga::detail::cuda_solve<__VA_ARGS__>(const __VA_ARGS__&, const ::fusedga::ga_options&, \
                                                                      const ::fusedga::backend::cuda&, std::istream*,  \
                                                                      const std::string&);                              \
  template std::unique_ptr<::fusedga::cuda_bench_target> fusedga::detail::make_cuda_bench_target<__VA_ARGS__>(         \
      const __VA_ARGS__&, const ::fusedga::run_config&)
