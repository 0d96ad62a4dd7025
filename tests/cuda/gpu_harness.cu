// The CUDA suite's GPU harness (gpu_harness.hpp), compiled by nvcc.
#include <fusedga/backends/cuda.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <fusedga/solve.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cuda/device_batch.hpp"
#include "cuda/expr_device_problem.hpp"  // the GPU JIT's problem type (src/cuda/)
#include "cuda/gpu_harness.hpp"
#include "cuda/integer_cq.hpp"
#include "cuda/plain_gene_sum.hpp"
#include "cuda/run_engine.hpp"
#include "cuda/sphere_line.hpp"

namespace cuda_test {

void copy_any(void* dst, const void* src, std::size_t bytes) {
  const cudaError_t e = cudaMemcpy(dst, src, bytes, cudaMemcpyDefault);
  if (e != cudaSuccess) throw std::runtime_error(std::string("cudaMemcpy: ") + cudaGetErrorString(e));
}

template <class Problem>
gpu_run<Problem> run_on_gpu(const Problem& p, const fusedga::ga_options& o, int generations,
                            const typename gpu_run<Problem>::population* start, bool graphs) {
  fusedga::backend::cuda b;
  b.graphs = graphs;
  return run_engine(p, o, generations, start, b);
}

template <class Problem>
host_population<Problem> evaluate_on_gpu(const Problem& p, const fusedga::ga_options& o,
                                         const std::vector<fusedga::gene_t<Problem>>& rows) {
  fusedga::engine<Problem, fusedga::backend::cuda> e(p, o, fusedga::backend::cuda{});
  e.initialize();
  e.upload(rows.data(), nullptr, nullptr, nullptr, true);
  return download<Problem>(e, o.population, p.dimension());
}

template <class Problem>
fusedga::Result solve_on_gpu_for_checkpoints(const Problem& p, const fusedga::ga_options& o) {
  return fusedga::solve(p, o, fusedga::backend::cuda{});
}

template <class Problem>
fusedga::Result resume_on_gpu(const Problem& p, const fusedga::ga_options& o, const std::string& bytes) {
  std::istringstream in(bytes);
  return fusedga::solve(p, o, fusedga::backend::cuda{}, in);
}
template fusedga::Result solve_on_gpu_for_checkpoints(const fusedga::problems::ConstrainedQuadratic<double>&,
                                                      const fusedga::ga_options&);
template fusedga::Result resume_on_gpu(const fusedga::problems::ConstrainedQuadratic<double>&,
                                       const fusedga::ga_options&, const std::string&);

#define FUSEDGA_TEST_GPU_EVALUATE(...)                                                                  \
  template host_population<__VA_ARGS__> evaluate_on_gpu<__VA_ARGS__>(const __VA_ARGS__&,                \
                                                                     const fusedga::ga_options&,        \
                                                                     const std::vector<fusedga::gene_t<__VA_ARGS__>>&)
FUSEDGA_TEST_GPU_EVALUATE(fusedga::detail::expr_device_problem<double, fusedga::Sense::minimize>);
FUSEDGA_TEST_GPU_EVALUATE(fusedga::detail::expr_device_problem<double, fusedga::Sense::maximize>);
FUSEDGA_TEST_GPU_EVALUATE(fusedga::detail::expr_device_problem<float, fusedga::Sense::minimize>);

#define FUSEDGA_TEST_GPU(...)                                                                                       \
  template gpu_run<__VA_ARGS__> run_on_gpu<__VA_ARGS__>(const __VA_ARGS__&, const fusedga::ga_options&, int,       \
                                                        const gpu_run<__VA_ARGS__>::population*, bool)
FUSEDGA_TEST_GPU(fusedga::problems::GeneSum<double>);
FUSEDGA_TEST_GPU(fusedga::problems::GeneSum<float>);
FUSEDGA_TEST_GPU(fusedga::problems::ConstrainedQuadratic<double>);
FUSEDGA_TEST_GPU(fusedga::problems::ConstrainedQuadratic<float>);
FUSEDGA_TEST_GPU(fusedga::problems::Rastrigin<double>);
FUSEDGA_TEST_GPU(cuda_test::integer_cq);
FUSEDGA_TEST_GPU(cuda_test::plain_gene_sum);
FUSEDGA_TEST_GPU(cuda_test::sphere_line<double>);
FUSEDGA_TEST_GPU(cuda_test::sphere_line<float>);
FUSEDGA_TEST_GPU(cuda_test::sphere_line_exact<double>);
FUSEDGA_TEST_GPU(cuda_test::device_batch<fusedga::problems::ConstrainedQuadratic<double>>);

}  // namespace cuda_test
