// GPU tests of the CUDA backend: parity with the CPU engine (integer genes
// bitwise, real genes within the documented tolerance), graph and direct
// launches equal, the elite sort, whole runs, and the memory check. Each test
// skips with a message when no GPU is usable (Catch2 v2 has no SKIP: a
// warning and an early return), so a GPU-less CI passes while still building
// the CUDA sources.
#include <catch2/catch.hpp>

#if defined(FUSEDGA_WITH_CUDA)

#include <string>

#include <fusedga/config/registry.hpp>
#include <fusedga/config/run_config.hpp>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>

#include "cuda/gpu_harness.hpp"
#include "cuda/host_population.hpp"

using namespace fusedga;
using namespace cuda_test;

namespace {

template <class Problem>
host_population<Problem> cpu_state(const engine<Problem, backend::serial>& e) {
  auto h = snapshot<Problem>(e.current());
  h.stats = e.stats();
  return h;
}

/// Integer genes: initial population and generations 1..3 bitwise equal to the serial engine, statistics equal.
template <class Problem>
void check_integer_parity(const Problem& p, const ga_options& o, bool graphs = true) {
  engine<Problem, backend::serial> cpu(p, o, backend::serial{});
  cpu.initialize();
  const auto cpu0 = cpu_state(cpu);
  for (int g = 0; g < 3; ++g) cpu.step();
  const auto cpu3 = cpu_state(cpu);
  const gpu_run<Problem> gpu = run_on_gpu(p, o, 3, nullptr, graphs);
  CHECK(bitwise_difference(cpu0, gpu.initial) == "");
  CHECK(bitwise_difference(cpu3, gpu.final) == "");
  REQUIRE(gpu.history.size() == 4);
  for (std::size_t g = 0; g < gpu.history.size(); ++g) {
    INFO("generation " << g);
    CHECK(gpu.history[g].best_objective == cpu.history()[g].best_objective);
    CHECK(gpu.history[g].best_violation == cpu.history()[g].best_violation);
    CHECK(gpu.history[g].feasible_fraction == cpu.history()[g].feasible_fraction);
    CHECK(gpu.history[g].mean_objective == cpu.history()[g].mean_objective);  // integer objectives: exact sums
  }
  CHECK(gpu.best_objective == double(cpu.best_objective()));
}

std::vector<double> ranges_of(const std::vector<double>& lo, const std::vector<double>& hi) {
  std::vector<double> r;
  for (std::size_t j = 0; j < lo.size(); ++j) r.push_back(hi[j] - lo[j]);
  return r;
}

/// Real genes: the GPU starts from the CPU's initial population (keys included, so both pick the same parents);
/// one generation: elites bitwise, children within the documented tolerance.
template <class Problem>
void check_real_parity(const Problem& p, const ga_options& o) {
  engine<Problem, backend::serial> cpu(p, o, backend::serial{});
  cpu.initialize();
  const auto cpu0 = cpu_state(cpu);
  cpu.step();
  const auto cpu1 = cpu_state(cpu);
  const gpu_run<Problem> gpu = run_on_gpu(p, o, 1, &cpu0);
  CHECK(bitwise_difference(cpu0, gpu.initial) == "");
  std::vector<double> lo, hi;
  for (const auto v : p.bounds().lower) lo.push_back(double(v));
  for (const auto v : p.bounds().upper) hi.push_back(double(v));
  const bool f = sizeof(gene_t<Problem>) == 4;
  host_population<Problem> elites_cpu = cpu1, elites_gpu = gpu.final;
  elites_cpu.n = elites_gpu.n = o.elitism;
  CHECK(bitwise_difference(elites_cpu, elites_gpu) == "");
  CHECK(tolerance_difference(cpu1, gpu.final, ranges_of(lo, hi), gene_tolerance(f),
                             value_tolerance(sizeof(fitness_t<Problem>) == 4), o.elitism) == "");
}

}  // namespace

TEST_CASE("gpu: integer genes - thread per pair: initial population and 3 generations equal the CPU bitwise", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  ga_options o;
  o.population = 10001;
  o.crossover.kind = crossover_kind::uniform;
  o.mutation.kind = mutation_kind::uniform_reset;
  problems::GeneSum<double> p;
  p.genes = 20;
  check_integer_parity(p, o);
  check_integer_parity(p, o, false);  // direct launches instead of the CUDA graph
  o.crossover.kind = crossover_kind::two_point;
  o.mutation.kind = mutation_kind::creep;
  o.selection.tournament_size = 4;
  o.elitism = 7;
  check_integer_parity(p, o);
}

TEST_CASE("gpu: integer genes - warp per pair (1000 int8 genes): equal to the CPU bitwise", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  ga_options o;
  o.population = 3001;
  o.crossover.kind = crossover_kind::uniform;
  o.mutation.kind = mutation_kind::uniform_reset;
  check_integer_parity(problems::GeneSum<float>{}, o);
  problems::GeneSum<double> odd;
  odd.genes = 4000;  // rows too long for the shared-memory tile: evaluated from global memory
  o.population = 501;
  check_integer_parity(odd, o);
}

TEST_CASE("gpu: elitism above 8 sorts the keys on the device and still equals the CPU bitwise", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  ga_options o;
  o.population = 5000;
  o.elitism = 40;
  o.crossover.kind = crossover_kind::one_point;
  o.mutation.kind = mutation_kind::uniform_reset;
  problems::GeneSum<double> p;
  p.genes = 12;
  check_integer_parity(p, o);
}

TEST_CASE("gpu: real genes - one generation from the same population matches the CPU within tolerance", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  ga_options o;
  o.population = 20001;
  check_real_parity(problems::ConstrainedQuadratic<double>{}, o);
  check_real_parity(problems::ConstrainedQuadratic<float>{}, o);
  o.crossover.kind = crossover_kind::blx_alpha;
  o.mutation.kind = mutation_kind::gaussian;
  check_real_parity(problems::ConstrainedQuadratic<double>{}, o);
  problems::Rastrigin<double> wide;
  wide.dim = 64;  // a warp per pair
  o.population = 2001;
  o.crossover.kind = crossover_kind::sbx;
  o.mutation.kind = mutation_kind::polynomial;
  check_real_parity(wide, o);
}

TEST_CASE("gpu: graph launches and direct launches give identical runs", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  ga_options o;
  o.population = 4099;
  const auto a = run_on_gpu(problems::ConstrainedQuadratic<double>{}, o, 10, nullptr, true);
  const auto b = run_on_gpu(problems::ConstrainedQuadratic<double>{}, o, 10, nullptr, false);
  CHECK(bitwise_difference(a.final, b.final) == "");
  CHECK(a.best_objective == b.best_objective);
}

TEST_CASE("gpu: seed/constrained-quadratic through the registry on backend cuda finds the optimum", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  run_config cfg = parse_config(default_config_yaml(), "<embedded default>",
                                {"backend=cuda", "ga.population=100000", "ga.generations=200"});
  int threads = -1;
  const Result r = run(cfg, {}, &threads);
  CHECK(threads == 0);
  CHECK(r.feasible);
  CHECK(r.objective == Approx(263.1739).epsilon(1e-3));
  CHECK(r.history.size() == 201);
  CHECK(r.evaluations == 100000ull + 200ull * (100000 - cfg.ga.elitism));
}

TEST_CASE("gpu: a population larger than the device memory is a clear error saying how many fit", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  ga_options o;
  o.population = 2000000000;  // 2e9 x 1000 int8 genes: terabytes
  o.generations = 1;
  try {
    (void)run_on_gpu(problems::GeneSum<double>{}, o, 0);
    FAIL("no exception");
  } catch (const config_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("at most"));
    CHECK_THAT(e.what(), Catch::Contains("individuals fit"));
  }
}

#endif  // FUSEDGA_WITH_CUDA

TEST_CASE("gpu tests: without the CUDA backend they are not built", "[cuda]") {
#if !defined(FUSEDGA_WITH_CUDA)
  WARN("skipped: this build has no CUDA backend (FUSEDGA_CUDA=OFF or no nvcc)");
#endif
  SUCCEED();
}
