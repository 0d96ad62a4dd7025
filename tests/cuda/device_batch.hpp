#pragma once
// A population-batch problem for the CUDA executor on a real GPU: its evaluate_population gets device pointers
// there (host pointers on the CPU backends) and stages them through host memory with cudaMemcpy's
// cudaMemcpyDefault (copy_any, gpu_harness.cu), then evaluates the rows with the per-individual problem
// (as_population_batch.hpp). The same type thus runs on both, and the GPU run is bitwise the CPU's for an
// arithmetic problem.
#include <cstddef>
#include <functional>
#include <vector>

#include "engine/as_population_batch.hpp"

namespace cuda_test {

/// cudaMemcpy(dst, src, bytes, cudaMemcpyDefault): host or device memory either way. @throws std::runtime_error.
void copy_any(void* dst, const void* src, std::size_t bytes);

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
    const std::size_t d = static_cast<std::size_t>(dimension());
    const std::size_t m = static_cast<std::size_t>(inequality_count()), p = static_cast<std::size_t>(equality_count());
    std::vector<gene_type> x(n * d);
    std::vector<fitness_type> f(n), gv(n * m), hv(n * p);
    copy_any(x.data(), genes, x.size() * sizeof(gene_type));
    host.evaluate_population(x.data(), n, f.data(), gv.data(), hv.data());
    copy_any(objective, f.data(), n * sizeof(fitness_type));
    if (m > 0) copy_any(g, gv.data(), gv.size() * sizeof(fitness_type));
    if (p > 0) copy_any(h, hv.data(), hv.size() * sizeof(fitness_type));
  }
};

/// A batch_spec's device evaluator over its host one (`evaluate`, or `evaluate_integer` with Gene int32): the
/// rows and the values staged through host memory, so that a GPU run evaluates with the CPU's arithmetic.
template <class Gene>
using batch_fitness = std::function<void(const Gene*, std::size_t, int, double*, double*, double*)>;
template <class Gene>
batch_fitness<Gene> staged(batch_fitness<Gene> host, int m, int p) {
  return [host, m, p](const Gene* x, std::size_t n, int d, double* f, double* g, double* h) {
    std::vector<Gene> hx(n * static_cast<std::size_t>(d));
    std::vector<double> hf(n), hg(n * static_cast<std::size_t>(m)), hh(n * static_cast<std::size_t>(p));
    copy_any(hx.data(), x, hx.size() * sizeof(Gene));
    host(hx.data(), n, d, hf.data(), m > 0 ? hg.data() : nullptr, p > 0 ? hh.data() : nullptr);
    copy_any(f, hf.data(), hf.size() * sizeof(double));
    if (m > 0) copy_any(g, hg.data(), hg.size() * sizeof(double));
    if (p > 0) copy_any(h, hh.data(), hh.size() * sizeof(double));
  };
}

}  // namespace cuda_test
