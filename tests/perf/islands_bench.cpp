// Generation throughput of the island model in one process (islands/solve_islands.hpp) against one population
// of the same total size (issue 18's target: islands cost <= 5% at M = 10). Not a test (no assertion on time):
// build the target bench_islands and run it, e.g. `build/tests/bench_islands 5` (repeats).
//
// A generation's time is (T(G2) − T(G1)) / (G2 − G1) with T(G) the wall time of a whole solve() of G
// generations, G1 = M and G2 = 3·M: the initialization and the epoch that ends at the generation limit
// (no migration follows it) cancel, so the difference is 2·M generations and 2 migrations — the steady state
// of one migration per M generations, with the runner's all-gather of records and histories included.
// Each T is the median of `repeats` runs; the runs of all island counts alternate so that drift in the
// machine's load spreads over them alike.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <string>
#include <vector>

namespace {

constexpr int kEvery = 10;        // M
constexpr std::size_t kSize = 2;  // K

template <class Problem, class Backend>
double seconds(const Problem& p, fusedga::ga_options o, const Backend& b, int generations) {
  o.generations = generations;
  const auto t0 = std::chrono::steady_clock::now();
  const fusedga::Result r = fusedga::solve(p, o, b);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r.generations != generations) std::fprintf(stderr, "unexpected stop after %d generations\n", r.generations);
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class Problem, class Backend>
void rows(const char* name, const Problem& p, const Backend& b, const char* backend_name, std::size_t n, int repeats) {
  const std::vector<int> counts{1, 4, 16, 64};
  std::vector<std::vector<double>> t1(counts.size()), t2(counts.size());
  for (int rep = 0; rep < repeats; ++rep)
    for (std::size_t c = 0; c < counts.size(); ++c) {
      fusedga::ga_options o;
      o.population = n;
      o.seed = 7;
      o.islands.count = counts[c];
      o.islands.migration.every = kEvery;
      o.islands.migration.size = kSize;
      t1[c].push_back(seconds(p, o, b, kEvery));
      t2[c].push_back(seconds(p, o, b, 3 * kEvery));
    }
  double plain = 0;
  for (std::size_t c = 0; c < counts.size(); ++c) {
    const double per_generation = (median(t2[c]) - median(t1[c])) / (2 * kEvery) * 1e3;
    if (c == 0) plain = per_generation;
    std::printf("%-22s %-7s %8zu %4d %12.3f %8.3f\n", name, backend_name, n, counts[c], per_generation,
                per_generation / plain);
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 5;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 2;
  std::vector<std::size_t> sizes{100000, 1000000};
  if (argc > 3) sizes = {static_cast<std::size_t>(std::atof(argv[3]))};
  std::printf("islands vs one population: ms per generation (M = %d, K = %zu, ring, GA defaults), median of %d\n",
              kEvery, kSize, repeats);
  std::printf("%-22s %-7s %8s %4s %12s %8s\n", "problem", "backend", "N", "I", "ms/gen", "ratio");
  const fusedga::problems::ConstrainedQuadratic<double> cq;
  fusedga::problems::Rastrigin<double> rastrigin;
  rastrigin.dim = 30;
  const std::string tbb = "tbb" + std::to_string(threads);
  for (const std::size_t n : sizes) {
    rows("constrained-quadratic", cq, fusedga::backend::serial{}, "serial", n, repeats);
    rows("constrained-quadratic", cq, fusedga::backend::tbb{threads}, tbb.c_str(), n, repeats);
    rows("rastrigin-30", rastrigin, fusedga::backend::serial{}, "serial", n, repeats);
    rows("rastrigin-30", rastrigin, fusedga::backend::tbb{threads}, tbb.c_str(), n, repeats);
  }
  return 0;
}
