#pragma once
// A population-batch problem for the CUDA executor on a real GPU: its evaluate_population gets device pointers
// there (host pointers on the CPU backends) and stages them through host memory with cudaMemcpy's
// cudaMemcpyDefault (copy_any, gpu_harness.cu), then evaluates the rows with the per-individual problem
// (as_population_batch.hpp). The same type thus runs on both, and the GPU run is bitwise the CPU's for an
// arithmetic problem.
#include <cstddef>
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

}  // namespace cuda_test
