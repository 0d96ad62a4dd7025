// Generation time of a built-in problem against its population-batch wrapper (as_batch: the same arithmetic
// through evaluate_population, so the difference is the split passes' overhead: children written, re-read by
// one call, ranked in a second pass). Not a test (no assertion on time): build the target
// bench_population_batch and run it, e.g. `build/tests/bench_population_batch 2` (TBB threads).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>

#include "engine/as_population_batch.hpp"

namespace {

template <class Problem>
double median_generation_ms(const Problem& problem, const fusedga::ga_options& o, int threads, int steps) {
  fusedga::engine<Problem, fusedga::backend::tbb> e(problem, o, fusedga::backend::tbb{threads});
  e.initialize();
  e.step();  // warm-up
  std::vector<double> ms;
  for (int k = 0; k < steps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    e.step();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 15;
  using P = fusedga::problems::ConstrainedQuadratic<double>;
  std::printf("seed/constrained-quadratic (double), TBB %d threads, median of %d generations\n", threads, steps);
  std::printf("%-6s %9s %14s %14s %9s\n", "algo", "N", "built-in ms", "as_batch ms", "ratio");
  for (const fusedga::algorithm_kind a : {fusedga::algorithm_kind::ga, fusedga::algorithm_kind::de})
    for (const std::size_t n : {std::size_t(100000), std::size_t(1000000)}) {
      fusedga::ga_options o;
      o.population = n;
      o.generations = steps + 1;
      o.algorithm = a;
      const double plain = median_generation_ms(P{}, o, threads, steps);
      const double batch = median_generation_ms(engine_test::make_batch(P{}), o, threads, steps);
      std::printf("%-6s %9zu %14.2f %14.2f %9.2f\n", a == fusedga::algorithm_kind::ga ? "ga" : "shade", n, plain,
                  batch, batch / plain);
    }
  return 0;
}
