#pragma once
// A population-batch problem for the CUDA executor on a real GPU: its evaluate_population gets device pointers
// there (host pointers on the CPU backends) and stages them through host memory with cudaMemcpy's
// cudaMemcpyDefault (call_staged; copy_any, gpu_harness.cu), then evaluates the rows with the per-individual problem
// (as_population_batch.hpp). The same type thus runs on both, and the GPU run is bitwise the CPU's for an
// arithmetic problem.
#include <cstddef>
#include <functional>
#include <vector>

#include "engine/as_population_batch.hpp"

namespace cuda_test {

/// cudaMemcpy(dst, src, bytes, cudaMemcpyDefault): host or device memory either way. @throws std::runtime_error.
void copy_any(void* dst, const void* src, std::size_t bytes);

/// Calls `host(x, f, g, h)` on host copies of the rows `genes` (n × d, device or host memory), then copies its
/// values (n, n × m, n × p; null for a zero count) into `objective`, `g` and `h`: the CPU's arithmetic in a GPU run.
template <class Gene, class Fitness, class Host>
void call_staged(const Host& host, const Gene* genes, std::size_t n, std::size_t d, std::size_t m, std::size_t p,
                 Fitness* objective, Fitness* g, Fitness* h) {
  std::vector<Gene> x(n * d);
  std::vector<Fitness> f(n), gv(n * m), hv(n * p);
  copy_any(x.data(), genes, x.size() * sizeof(Gene));
  host(x.data(), f.data(), m > 0 ? gv.data() : nullptr, p > 0 ? hv.data() : nullptr);
  copy_any(objective, f.data(), f.size() * sizeof(Fitness));
  if (m > 0) copy_any(g, gv.data(), gv.size() * sizeof(Fitness));
  if (p > 0) copy_any(h, hv.data(), hv.size() * sizeof(Fitness));
}

template <class Inner>
struct device_batch {
  using gene_type = fusedga::gene_t<Inner>;
  using fitness_type = fusedga::fitness_t<Inner>;
  static constexpr fusedga::Sense sense = fusedga::sense_of<Inner>();

  engine_test::as_batch<Inner> host;

  int dimension() const { return host.dimension(); }
  fusedga::Bounds<gene_type> bounds() const { return host.bounds(); }
  int inequality_count() const { return host.inequality_count(); }
  int equality_count() const { return host.equality_count(); }

  void evaluate_population(const gene_type* genes, std::size_t n, fitness_type* objective, fitness_type* g,
                           fitness_type* h) const {
    call_staged([&](const gene_type* x, fitness_type* f, fitness_type* gx,
                    fitness_type* hx) { host.evaluate_population(x, n, f, gx, hx); },
                genes, n, static_cast<std::size_t>(dimension()), static_cast<std::size_t>(inequality_count()),
                static_cast<std::size_t>(equality_count()), objective, g, h);
  }
};

/// A batch_spec's device evaluator over its host one (`evaluate`, or `evaluate_integer` with Gene int32): the
/// rows and the values staged through host memory, so that a GPU run evaluates with the CPU's arithmetic.
template <class Gene>
using batch_fitness = std::function<void(const Gene*, std::size_t, int, double*, double*, double*)>;
template <class Gene>
batch_fitness<Gene> staged(batch_fitness<Gene> host, int m, int p) {
  return [host, m, p](const Gene* genes, std::size_t n, int d, double* f, double* g, double* h) {
    call_staged([&](const Gene* x, double* fx, double* gx, double* hx) { host(x, n, d, fx, gx, hx); }, genes, n,
                static_cast<std::size_t>(d), static_cast<std::size_t>(m), static_cast<std::size_t>(p), f, g, h);
  };
}

}  // namespace cuda_test
