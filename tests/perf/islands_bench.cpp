// Generation throughput of the island model in one process (islands/solve_islands.hpp) against one population
// of the same total size (issue 18's target: islands cost <= 5% at M = 10). Not a test (no assertion on time):
// build the target bench_islands and run it: `build/tests/bench_islands [REPEATS=5] [TBB_THREADS=2] [N]` (N: both
// 1e5 and 1e6 when not given).
//
// A generation's time is (T(2·M) − T(M)) / M with T(G) the time of a whole solve() of G generations: the
// initialization and the epoch that ends at the generation limit (no migration follows it) cancel, so the
// difference is M generations and one migration — the steady state of one migration per M generations, with
// the runner's all-gather of records and histories included.
// Each T is the median of `repeats` runs; the runs of all island counts alternate so that drift in the
// machine's load spreads over them alike. Wall time and the process's CPU time (all threads) are both given:
// on a machine shared with other work the CPU time of a serial run is the steadier measure of its cost.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <string>
#include <vector>

namespace {

constexpr int kEvery = 10;        // M
constexpr std::size_t kSize = 2;  // K

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct timing {
  double wall = 0, cpu = 0;  // seconds
};

template <class Problem, class Backend>
timing seconds(const Problem& p, fusedga::ga_options o, const Backend& b, int generations) {
  o.generations = generations;
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_seconds();
  const fusedga::Result r = fusedga::solve(p, o, b);
  timing t;
  t.cpu = cpu_seconds() - c0;
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r.generations != generations) std::fprintf(stderr, "unexpected stop after %d generations\n", r.generations);
  return t;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class Problem, class Backend>
void rows(const char* name, const Problem& p, const Backend& b, const char* backend_name, std::size_t n, int repeats) {
  const std::vector<int> counts{1, 4, 16, 64};
  std::vector<std::vector<double>> w1(counts.size()), w2(counts.size()), c1(counts.size()), c2(counts.size());
  for (int rep = 0; rep < repeats; ++rep)
    for (std::size_t c = 0; c < counts.size(); ++c) {
      fusedga::ga_options o;
      o.population = n;
      o.seed = 7;
      o.islands.count = counts[c];
      o.islands.migration.every = kEvery;
      o.islands.migration.size = kSize;
      const timing a = seconds(p, o, b, kEvery), z = seconds(p, o, b, 2 * kEvery);
      w1[c].push_back(a.wall), w2[c].push_back(z.wall), c1[c].push_back(a.cpu), c2[c].push_back(z.cpu);
    }
  double wall0 = 0, cpu0 = 0;
  for (std::size_t c = 0; c < counts.size(); ++c) {
    const double wall = (median(w2[c]) - median(w1[c])) / kEvery * 1e3;
    const double cpu = (median(c2[c]) - median(c1[c])) / kEvery * 1e3;
    if (c == 0) wall0 = wall, cpu0 = cpu;
    std::printf("%-22s %-7s %8zu %4d %10.3f %7.3f %10.3f %7.3f\n", name, backend_name, n, counts[c], wall, wall / wall0,
                cpu, cpu / cpu0);
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
  std::printf("%-22s %-7s %8s %4s %10s %7s %10s %7s\n", "problem", "backend", "N", "I", "wall ms", "ratio", "cpu ms",
              "ratio");
  const fusedga::problems::ConstrainedQuadratic<double> cq;
  fusedga::problems::Rastrigin<double> rastrigin;
  rastrigin.dim = 10;
  const std::string tbb = "tbb" + std::to_string(threads);
  for (const std::size_t n : sizes) {
    rows("constrained-quadratic", cq, fusedga::backend::serial{}, "serial", n, repeats);
    rows("constrained-quadratic", cq, fusedga::backend::tbb{threads}, tbb.c_str(), n, repeats);
    rows("rastrigin-10", rastrigin, fusedga::backend::serial{}, "serial", n, repeats);
    rows("rastrigin-10", rastrigin, fusedga::backend::tbb{threads}, tbb.c_str(), n, repeats);
  }
  return 0;
}
