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
#include "cuda/parity_checks.hpp"

using namespace fusedga;
using namespace cuda_test;

namespace {
/// The real engine on the device, as parity_checks.hpp's `run`.
const auto on_gpu = [](const auto& p, const ga_options& o, int generations, const auto* start, bool graphs) {
  return run_on_gpu(p, o, generations, start, graphs);
};
}  // namespace

TEST_CASE("gpu: integer genes - thread per pair: initial population and 3 generations equal the CPU bitwise", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  ga_options o;
  o.population = 10001;
  o.crossover.kind = crossover_kind::uniform;
  o.mutation.kind = mutation_kind::uniform_reset;
  problems::GeneSum<double> p;
  p.genes = 20;
  check_integer_parity(on_gpu, p, o);
  check_integer_parity(on_gpu, p, o, false);  // direct launches instead of the CUDA graph
  o.crossover.kind = crossover_kind::two_point;
  o.mutation.kind = mutation_kind::creep;
  o.selection.tournament_size = 4;
  o.elitism = 7;
  check_integer_parity(on_gpu, p, o);
}

TEST_CASE("gpu: integer genes - warp per pair (1000 int8 genes): equal to the CPU bitwise", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  ga_options o;
  o.population = 3001;
  o.crossover.kind = crossover_kind::uniform;
  o.mutation.kind = mutation_kind::uniform_reset;
  check_integer_parity(on_gpu, problems::GeneSum<float>{}, o);
  problems::GeneSum<double> odd;
  odd.genes = 4000;  // rows too long for the shared-memory tile: evaluated from global memory
  o.population = 501;
  check_integer_parity(on_gpu, odd, o);
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
  check_integer_parity(on_gpu, p, o);
}

TEST_CASE("gpu: real genes - one generation from the same population matches the CPU (SBX and polynomial mutation bitwise)", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  ga_options o;
  o.population = 20001;
  check_real_parity(on_gpu, problems::ConstrainedQuadratic<double>{}, o, real_parity::exact);
  check_real_parity(on_gpu, problems::ConstrainedQuadratic<float>{}, o, real_parity::exact);
  o.crossover.kind = crossover_kind::blx_alpha;
  o.mutation.kind = mutation_kind::gaussian;  // double log/cos/sin: libm's on each backend
  check_real_parity(on_gpu, problems::ConstrainedQuadratic<double>{}, o, real_parity::tolerance);
  problems::Rastrigin<double> wide;
  wide.dim = 64;  // a warp per pair
  o.population = 2001;
  o.crossover.kind = crossover_kind::sbx;
  o.mutation.kind = mutation_kind::polynomial;
  check_real_parity(on_gpu, wide, o, real_parity::exact_genes);  // Rastrigin calls cos
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
