// GPU tests of the CUDA backend: parity with the CPU engine (integer genes
// bitwise, real genes within the documented tolerance), graph and direct
// launches equal, the elite sort, whole runs, and the memory check. Each test
// skips with a message when no GPU is usable (Catch2 v2 has no SKIP: a
// warning and an early return), so a GPU-less CI passes while still building
// the CUDA sources.
#include <catch2/catch.hpp>

#if defined(FUSEDGA_WITH_CUDA)

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <fusedga/config/batch_entry.hpp>
#include <fusedga/config/registry.hpp>
#include <fusedga/config/run_config.hpp>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>

#include "config/batch_specs.hpp"
#include "cuda/device_batch.hpp"
#include "cuda/gpu_harness.hpp"
#include "cuda/host_population.hpp"
#include "cuda/parity_checks.hpp"
#include "islands/same_islands.hpp"
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

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
  thread_per_pair_parity(on_gpu, 10001, true);
}

TEST_CASE("gpu: integer genes - warp per pair: separable, staged and global-memory rows equal the CPU bitwise", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  warp_per_pair_parity(on_gpu, 3001, 501);
}

TEST_CASE("gpu: elitism above 8 (elites by sorting the keys) equals the CPU bitwise", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  elite_sort_parity(on_gpu, 5000);
}

TEST_CASE("gpu: real genes - one generation from the same population matches the CPU (SBX and polynomial mutation bitwise)", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  real_gene_parity(on_gpu, 20001, 2001);
}

TEST_CASE("gpu: differential evolution matches the CPU (bitwise on an arithmetic problem, SHADE included)", "[cuda][gpu][de]") {
  FUSEDGA_REQUIRE_GPU();
  de_parity(on_gpu, 20001, 2001, 5, false);  // false: Rastrigin's cos is libdevice's on the GPU
}

TEST_CASE("gpu: the gradient repair of infeasible DE trials (εDEg) equals the CPU bitwise", "[cuda][gpu][de][repair]") {
  FUSEDGA_REQUIRE_GPU();
  de_repair_parity(on_gpu, 20001, 4);
}

TEST_CASE("gpu: the GA's gradient repair of children (both offspring kernels) equals the CPU bitwise",
          "[cuda][gpu][repair]") {
  FUSEDGA_REQUIRE_GPU();
  ga_repair_parity(on_gpu, 20001, 2001, 4);
}

TEST_CASE("gpu: integer variables among real genes - GA and DE rounding equal the CPU bitwise",
          "[cuda][gpu][integer]") {
  FUSEDGA_REQUIRE_GPU();
  integer_variable_parity(on_gpu, 20001, 5);
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
  // The default algorithm's evaluation count (SHADE: N per generation; the GA: N − E), as the CPU counts it.
  run_config on_cpu = cfg;
  on_cpu.backend = backend_kind::tbb;
  on_cpu.threads = 0;
  const Result c = run(on_cpu, {});
  CHECK(r.evaluations == c.evaluations);
  CHECK(r.evaluations >= 100000ull + 200ull * (100000 - cfg.ga.elitism));
}

TEST_CASE("gpu: a population larger than the device memory is a clear error saying how many fit", "[cuda][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  ga_options o;
  o.population = 2000000000;  // 2e9 x 1000 int8 genes: terabytes
  o.generations = 1;
  // Integer genes: SBX and polynomial mutation (the defaults) are config errors before the memory check.
  o.crossover.kind = crossover_kind::uniform;
  o.mutation.kind = mutation_kind::uniform_reset;
  try {
    (void)run_on_gpu(problems::GeneSum<double>{}, o, 0);
    FAIL("no exception");
  } catch (const config_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("at most"));
    CHECK_THAT(e.what(), Catch::Contains("individuals fit"));
  }
}

TEST_CASE("gpu: a run checkpointed on the GPU resumes there and on the CPU as if uninterrupted", "[cuda][gpu][checkpoint]") {
  FUSEDGA_REQUIRE_GPU();
  // Integer genes through the registry (ga-run's path): GPU and CPU runs are bitwise equal, so a GPU checkpoint
  // resumed on either ends as both uninterrupted runs; the CPU's resumed on the GPU too.
  const auto config = [](const std::string& backend) {
    return load_config(std::string(FUSEDGA_SOURCE_DIR) + "/configs/seed-gene-sum.yaml",
                       {"backend=" + backend, "ga.population=3001", "ga.generations=30", "ga.elitism=4",
                        "problem.params.genes=40"});
  };
  const auto checkpoints = [&](const std::string& backend) {
    std::vector<std::string> out;
    run_hooks hooks;
    hooks.checkpoint.write = [&](const std::string& bytes) { out.push_back(bytes); };
    hooks.checkpoint.every_generations = 10;
    run(config(backend), hooks);
    return out;
  };
  const auto resumed = [&](const std::string& backend, const std::string& bytes) {
    std::istringstream in(bytes);
    run_hooks hooks;
    hooks.resume = &in;
    hooks.resume_source = "ck";
    return run(config(backend), hooks);
  };
  const auto same = [](const Result& a, const Result& b) {
    REQUIRE(a.generations == b.generations);
    REQUIRE(a.evaluations == b.evaluations);
    CHECK(a.objective == b.objective);
    CHECK(a.best_genes == b.best_genes);
    REQUIRE(a.history.size() == b.history.size());
    for (std::size_t g = 0; g < a.history.size(); ++g) {
      INFO("generation " << g);
      CHECK(a.history[g].best_objective == b.history[g].best_objective);
      CHECK(a.history[g].mean_objective == b.history[g].mean_objective);  // integer sums: exact
      CHECK(a.history[g].feasible_fraction == b.history[g].feasible_fraction);
    }
  };
  const Result gpu = run(config("cuda")), cpu = run(config("serial"));
  same(gpu, cpu);
  const std::vector<std::string> gpu_cks = checkpoints("cuda"), cpu_cks = checkpoints("serial");
  // Every 10 generations and when the run ends (docs/checkpoints.md): 10, 20, 30 and the end, as on the CPU.
  REQUIRE(gpu_cks.size() == cpu_cks.size());
  REQUIRE(gpu_cks.size() >= 3);
  for (std::size_t i = 0; i < 2; ++i) {
    INFO("checkpoint " << i);
    same(gpu, resumed("cuda", gpu_cks[i]));
    same(gpu, resumed("serial", gpu_cks[i]));
    same(gpu, resumed("cuda", cpu_cks[i]));
  }
  // Real genes on the GPU alone (its own rounding): resumed bitwise as uninterrupted.
  ga_options o;
  o.population = 4099;
  o.generations = 24;
  o.elitism = 12;
  std::vector<std::string> cks;
  ga_options w = o;
  w.checkpoint.write = [&](const std::string& bytes) { cks.push_back(bytes); };
  w.checkpoint.every_generations = 8;
  const Result whole = solve_on_gpu_for_checkpoints(problems::ConstrainedQuadratic<double>{}, w);
  REQUIRE(cks.size() == 4);  // after generations 8, 16 and 24, and when the run ends (docs/checkpoints.md)
  for (std::size_t i = 0; i < 2; ++i) same(whole, resume_on_gpu(problems::ConstrainedQuadratic<double>{}, o, cks[i]));
}

TEST_CASE("gpu: islands with migration and restarts equal the CPU's bitwise (integer genes, registry)", "[cuda][gpu][islands]") {
  FUSEDGA_REQUIRE_GPU();
  // The island model's CUDA path on a device (the emulated tests check it on the host): 4 islands exchange
  // their 2 best every 5 generations and restart on stagnation; integer genes make GPU and CPU runs bitwise
  // equal, so every island's best, immigrants, restarts, evaluations and rows must match.
  const auto config = [](const std::string& backend) {
    return load_config(std::string(FUSEDGA_SOURCE_DIR) + "/configs/seed-gene-sum.yaml",
                       {"backend=" + backend, "ga.population=3001", "ga.generations=60", "ga.elitism=4",
                        "problem.params.genes=40", "ga.islands.count=4", "ga.islands.migration.every=5",
                        "ga.islands.migration.size=2", "ga.restarts.stall_generations=5"});
  };
  const Result gpu = run(config("cuda")), cpu = run(config("serial"));
  islands_test::require_same_migrating_islands(gpu, cpu);
  CHECK(gpu.restarts > 0);  // on the CPU every island reaches 960 and restarts once by generation 60
}

TEST_CASE("gpu: population-batch problems get device pointers, GA and SHADE runs equal the CPU's bitwise",
          "[cuda][gpu][batch]") {
  FUSEDGA_REQUIRE_GPU();
  const device_batch<problems::ConstrainedQuadratic<double>> p{
      engine_test::make_batch(problems::ConstrainedQuadratic<double>{})};
  ga_options o;
  o.population = 20001;
  check_real_parity(on_gpu, p, o, real_parity::exact);
  o.algorithm = algorithm_kind::de;
  check_de_parity(on_gpu, p, o, 5, true);
}

TEST_CASE("gpu: run_batch with a device evaluator on backend cuda equals the serial run", "[cuda][gpu][batch]") {
  FUSEDGA_REQUIRE_GPU();
  // The device evaluators stage the rows through host memory and call the host ones, so both runs evaluate with
  // the same arithmetic. Real genes: optimum 0.5; integer genes (int32 rows): optimum 25 (batch_specs.hpp).
  batch_spec disk = batch_test::disk_spec();
  disk.evaluate_device = staged<double>(disk.evaluate, 1, 0);
  bool in_bounds = true;
  batch_spec integer = batch_test::integer_spec(&in_bounds);
  integer.evaluate_integer_device = staged<std::int32_t>(integer.evaluate_integer, 1, 0);
  const std::string yaml = "ga: {population: 1000, generations: 200, seed: 7}\n";
  for (const auto& [spec, optimum] : {std::pair<const batch_spec&, double>{disk, 0.5}, {integer, 25.0}}) {
    INFO(spec.name);
    const Result cpu = run_batch(spec, parse_batch_config(spec, yaml, "run.yaml", {"backend=serial"}));
    const Result gpu = run_batch(spec, parse_batch_config(spec, yaml, "run.yaml", {"backend=cuda"}));
    CHECK(gpu.objective == cpu.objective);
    CHECK(gpu.best_genes == cpu.best_genes);
    CHECK(gpu.evaluations == cpu.evaluations);
    CHECK(cpu.feasible);
    CHECK(cpu.objective == Approx(optimum).margin(1e-6));
  }
  CHECK(in_bounds);
}

#endif  // FUSEDGA_WITH_CUDA

TEST_CASE("gpu tests: without the CUDA backend they are not built", "[cuda]") {
#if !defined(FUSEDGA_WITH_CUDA)
  WARN("skipped: this build has no CUDA backend (FUSEDGA_CUDA=OFF or no nvcc)");
#endif
  SUCCEED();
}
