#pragma once
/// @file holding_bench_target.hpp
/// Private helper: benchmark targets that forward to another and keep alive
/// what the inner one points to (an expression problem's program and
/// evaluators, or its GPU JIT module).

#include <memory>
#include <utility>

#include "bench/bench_target.hpp"
#if defined(FUSEDGA_WITH_CUDA)
#include "bench/bench_cuda.hpp"
#endif

namespace fusedga::detail {

class holding_bench_target final : public bench_target {
 public:
  holding_bench_target(std::unique_ptr<bench_target> inner, std::shared_ptr<const void> keep)
      : keep_(std::move(keep)), inner_(std::move(inner)) {}

  int dimension() const override { return inner_->dimension(); }
  std::size_t gene_bytes() const override { return inner_->gene_bytes(); }
  std::size_t fitness_bytes() const override { return inner_->fitness_bytes(); }
  std::size_t key_bytes() const override { return inner_->key_bytes(); }
  void prepare(std::size_t population, backend_kind backend, int threads) override {
    inner_->prepare(population, backend, threads);
  }
  std::size_t elitism() const override { return inner_->elitism(); }
  int tournament_size() const override { return inner_->tournament_size(); }
  void evaluate_fused() override { inner_->evaluate_fused(); }
  void generation() override { inner_->generation(); }
  void prepare_objects() override { inner_->prepare_objects(); }
  void release_objects() override { inner_->release_objects(); }
  void evaluate_objects() override { inner_->evaluate_objects(); }
  bool has_unfused() const override { return inner_->has_unfused(); }
  void evaluate_unfused() override { inner_->evaluate_unfused(); }
  double unfused_difference() const override { return inner_->unfused_difference(); }

 private:
  std::shared_ptr<const void> keep_;  // declared first: destroyed after inner_
  std::unique_ptr<bench_target> inner_;
};

#if defined(FUSEDGA_WITH_CUDA)
/// The CUDA tiers' counterpart: keeps an expression problem's program and its GPU JIT module alive.
class holding_cuda_bench_target final : public cuda_bench_target {
 public:
  holding_cuda_bench_target(std::unique_ptr<cuda_bench_target> inner, std::shared_ptr<const void> keep)
      : keep_(std::move(keep)), inner_(std::move(inner)) {}

  void prepare(std::size_t population) override { inner_->prepare(population); }
  double time_once(cuda_workload w) override { return inner_->time_once(w); }
  double copy_gb_per_s(std::size_t array_bytes, int trials) override { return inner_->copy_gb_per_s(array_bytes, trials); }
  std::string device() const override { return inner_->device(); }

 private:
  std::shared_ptr<const void> keep_;  // declared first: destroyed after inner_
  std::unique_ptr<cuda_bench_target> inner_;
};
#endif

}  // namespace fusedga::detail
