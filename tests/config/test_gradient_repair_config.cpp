// `ga.constraint_handling.gradient_repair` in YAML: parsed from the operator
// table, located errors, and expression problems repaired with their exact
// symbolic Jacobians (interpreter and CPU JIT) end to end.
#include <catch2/catch.hpp>

#include <string>

#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/core/error.hpp"
#include "config_error_of.hpp"

using namespace fusedga;

namespace {

using config_test::error_of;

/// Two nonlinear equalities and an inequality in 4 genes (not from any benchmark suite).
std::string problem(const std::string& engine) {
  return R"(problem:
  variables: {x: [-3, 3], y: [-3, 3], z: [-3, 3], w: [-3, 3]}
  objective: "(x - 1)^2 + (y - 1)^2 + (z - 1)^2 + (w - 1)^2"
  constraints: ["x^2 + y^2 + z^2 + w^2 == 4", "x * y * z - w == 0.5", "sin(x) + w <= 1.5"]
  engine: )" + engine + "\n";
}

}  // namespace

TEST_CASE("gradient repair config: rate and iterations are read", "[config][gradient-repair]") {
  const run_config cfg = parse_config(
      problem("interpreter") + "ga: {constraint_handling: {gradient_repair: {rate: 0.25, iterations: 4}}}\n", "r.yaml");
  CHECK(cfg.ga.constraints.gradient_repair.rate == 0.25);
  CHECK(cfg.ga.constraints.gradient_repair.iterations == 4);
  const run_config off = parse_config(problem("interpreter") + "ga: {algorithm: ga}\n", "r.yaml");
  CHECK(off.ga.constraints.gradient_repair.rate == 0);  // off by default for the GA
  CHECK(off.ga.constraints.gradient_repair.iterations == 3);
  // ga.algorithm auto (the default) chooses DE with rate 0.2 on a constrained problem off the GPU.
  CHECK(parse_config(problem("interpreter") + "backend: serial\n", "r.yaml").ga.constraints.gradient_repair.rate ==
        0.2);
}

TEST_CASE("gradient repair config: errors are located", "[config][gradient-repair][errors]") {
  CHECK_THAT(error_of(problem("interpreter") + "ga: {constraint_handling: {gradient_repair: {rate: 1.5}}}\n"),
             Catch::Contains("run.yaml:6:") && Catch::Contains("rate") && Catch::Contains("[0, 1]"));
  CHECK_THAT(error_of(problem("interpreter") + "ga: {constraint_handling: {gradient_repair: {iterations: 0}}}\n"),
             Catch::Contains("iterations"));
  CHECK_THAT(error_of(problem("interpreter") + "ga: {constraint_handling: {gradient_repair: {rat: 0.1}}}\n"),
             Catch::Contains("rat") && Catch::Contains("rate"));
  CHECK_THAT(error_of(problem("interpreter") + "ga: {constraint_handling: {gradient_repairs: {rate: 0.1}}}\n"),
             Catch::Contains("gradient_repair"));
  CHECK_THAT(error_of("problem: {builtin: seed/gene-sum}\nga: {constraint_handling: {gradient_repair: {rate: 0.1}}}\n"),
             Catch::Contains("integer genes"));
}

TEST_CASE("gradient repair: expression equalities become feasible (interpreter and JIT)", "[config][gradient-repair]") {
  for (const char* engine : {"interpreter", "jit"}) {
    if (std::string(engine) == "jit" && plan_expression(parse_config(problem("auto"), "r.yaml")).engine !=
                                            expression_engine::jit) {
      WARN("no usable C++ compiler: the JIT half is skipped");
      continue;
    }
    int without = 0, with = 0;
    for (int seed = 1; seed <= 5; ++seed) {
      const std::string ga = "ga: {algorithm: ga, population: 200, generations: 60, seed: " + std::to_string(seed);
      run_config cfg = parse_config(problem(engine) + ga + "}\nbackend: serial\n", "r.yaml");
      without += run(cfg).feasible;
      cfg = parse_config(problem(engine) + ga + ", constraint_handling: {gradient_repair: {rate: 0.2}}}\nbackend: tbb\n",
                         "r.yaml");
      const Result r = run(cfg);
      with += r.feasible;
      CHECK(r.evaluations > 200u + 60u * 198u);  // the repair's evaluations are counted
    }
    INFO(engine << ": feasible without repair " << without << "/5, with " << with << "/5");
    CHECK(without <= 1);
    CHECK(with >= 4);
  }
}
