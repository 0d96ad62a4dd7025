// The runtime entry for population-batch problems given in code (config/batch_entry.hpp): spec validation,
// the YAML sections it reads, the backends and precisions it refuses, and a std::function fitness that reaches
// a hand-checked optimum.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include <fusedga/config/batch_entry.hpp>
#include <fusedga/config/registry.hpp>
#include <fusedga/core/error.hpp>

#include "config/batch_specs.hpp"
#include "registry/batch_problem.hpp"

using namespace fusedga;
using namespace batch_test;
using Catch::Contains;

namespace {

const char* const run_yaml = R"(ga:
  population: 100
  generations: 300
  seed: 5
backend: serial
)";

}  // namespace

TEST_CASE("batch entry: a std::function fitness reaches the known optimum", "[config][batch]") {
  int calls = 0;
  const batch_spec spec = disk_spec(&calls);
  const run_config cfg = parse_batch_config(spec, run_yaml, "run.yaml");
  CHECK(cfg.problem.builtin == "test:disk");
  CHECK(cfg.ga.algorithm == algorithm_kind::de);  // auto: real genes, no GA operator
  int threads = -1;
  const Result r = run_batch(spec, cfg, {}, &threads);
  CHECK(threads == 1);
  CHECK(r.feasible);
  CHECK(r.objective == Approx(0.5).margin(1e-6));
  REQUIRE(r.best_genes.size() == 2);
  CHECK(r.best_genes[0] == Approx(0.5).margin(1e-3));
  CHECK(r.best_genes[1] == Approx(0.5).margin(1e-3));
  CHECK(r.variable_names == std::vector<std::string>{"x", "y"});
  CHECK(calls == r.generations + 1 + r.restarts);  // one call per generation and per fresh population

  batch_spec maximize = disk_spec();  // max −(x² + y²): the same point, objective −0.5
  maximize.sense = Sense::maximize;
  const auto inner = maximize.evaluate;
  maximize.evaluate = [inner](const double* x, std::size_t n, int d, double* f, double* g, double* h) {
    inner(x, n, d, f, g, h);
    for (std::size_t i = 0; i < n; ++i) f[i] = -f[i];
  };
  maximize.variable_names.clear();
  const Result m = run_batch(maximize, parse_batch_config(maximize, run_yaml, "run.yaml"));
  CHECK(m.objective == Approx(-0.5).margin(1e-6));
  CHECK(m.variable_names == std::vector<std::string>{"x[0]", "x[1]"});
}

TEST_CASE("batch entry: tbb gives the serial run bitwise, and checkpoints resume", "[config][batch]") {
  const batch_spec spec = disk_spec();
  const run_config serial = parse_batch_config(spec, run_yaml, "run.yaml", {"ga.generations=60"});
  const Result want = run_batch(spec, serial);
  const run_config tbb =
      parse_batch_config(spec, run_yaml, "run.yaml", {"ga.generations=60", "backend=tbb", "threads=2"});
  int threads = 0;
  const Result got = run_batch(spec, tbb, {}, &threads);
  CHECK(threads == 2);
  CHECK(got.objective == want.objective);
  CHECK(got.best_genes == want.best_genes);
  CHECK(got.evaluations == want.evaluations);

  std::string checkpoint;
  run_hooks write;
  write.checkpoint.write = [&](const std::string& bytes) { checkpoint = bytes; };
  run_batch(spec, parse_batch_config(spec, run_yaml, "run.yaml", {"ga.generations=30"}), write);
  REQUIRE(!checkpoint.empty());
  std::istringstream in(checkpoint);
  run_hooks resume;
  resume.resume = &in;
  resume.resume_source = "test checkpoint";
  const Result resumed = run_batch(spec, serial, resume);
  CHECK(resumed.objective == want.objective);
  CHECK(resumed.best_genes == want.best_genes);
  CHECK(resumed.evaluations == want.evaluations);

  batch_spec other = spec;  // another problem: the checkpoint says so
  other.upper = {3, 2};
  std::istringstream again(checkpoint);
  resume.resume = &again;
  REQUIRE_THROWS_AS(run_batch(other, serial, resume), config_error);
}

TEST_CASE("batch entry: spec errors name the field", "[config][batch][errors]") {
  const run_config cfg = parse_batch_config(disk_spec(), run_yaml, "run.yaml");
  const auto fails_with = [&](const batch_spec& s, const std::string& what) {
    REQUIRE_THROWS_AS(run_batch(s, cfg), config_error);
    REQUIRE_THROWS_WITH(run_batch(s, cfg), Contains("batch problem 'test:disk': " + what));
  };
  batch_spec s = disk_spec();
  s.dimension = 0;
  fails_with(s, "dimension: expected an integer >= 1, got 0");
  s = disk_spec();
  s.lower = {-2};
  fails_with(s, "lower: expected 2 values (dimension), got 1");
  s = disk_spec();
  s.upper = {2, 2, 2};
  fails_with(s, "upper: expected 2 values (dimension), got 3");
  s = disk_spec();
  s.lower[1] = 3;
  fails_with(s, "bounds[1]: expected lower <= upper, got lower 3 > upper 2");
  s = disk_spec();
  s.upper[0] = INFINITY;
  fails_with(s, "upper[0]: expected a finite number");
  s = disk_spec();
  s.variable_names = {"x"};
  fails_with(s, "variable_names: expected none (x[0], x[1], ...) or 2 names (dimension), got 1");
  s.variable_names = {"x", "x"};  // one name for two genes: the result's genes would lose one
  fails_with(s, "variable_names[1]: 'x' names gene 0 already; expected d distinct names");
  s.variable_names = {"x", ""};
  fails_with(s, "variable_names[1]: expected a name, got an empty one");
  s = disk_spec();
  s.inequality_count = -1;
  fails_with(s, "inequality_count: expected an integer >= 0, got -1");
  s = disk_spec();
  s.evaluate = nullptr;
  fails_with(s, "evaluate: expected a fitness function, got none");
}

TEST_CASE("batch entry: float, and cuda without a device evaluator, are refused with the key's location",
          "[config][batch][errors]") {
  batch_spec spec = disk_spec();
  const std::string yaml = std::string(run_yaml) + "precision: float\n";
  REQUIRE_THROWS_AS(parse_batch_config(spec, yaml, "run.yaml"), config_error);
  REQUIRE_THROWS_WITH(parse_batch_config(spec, yaml, "run.yaml"),
                      Contains("run.yaml:6:") && Contains("precision: batch problems run in double"));
  REQUIRE_THROWS_WITH(parse_batch_config(spec, run_yaml, "run.yaml", {"backend=cuda"}),
                      Contains("backend: cuda needs a fitness function of device memory"));
  run_config serial = parse_batch_config(spec, run_yaml, "run.yaml");
  serial.backend = backend_kind::cuda;  // run_batch checks again
  REQUIRE_THROWS_WITH(run_batch(spec, serial), Contains("evaluate_device"));
  spec.evaluate_device = spec.evaluate;  // a device evaluator of real genes (only called with a GPU) ...
  spec.integer_genes = true;
  spec.evaluate_integer = [](const std::int32_t*, std::size_t, int, double*, double*, double*) {};
  REQUIRE_THROWS_WITH(parse_batch_config(spec, run_yaml, "run.yaml", {"backend=cuda"}),
                      Contains("backend: cuda needs a fitness function of device memory (batch_spec::"
                               "evaluate_integer_device;"));  // ... is not one of integer genes
  spec.evaluate_integer_device = spec.evaluate_integer;
  CHECK_NOTHROW(check_batch_run(spec, parse_batch_config(spec, run_yaml, "run.yaml")));
  run_config cuda = parse_batch_config(spec, run_yaml, "run.yaml");
  cuda.backend = backend_kind::cuda;
  CHECK_NOTHROW(check_batch_run(spec, cuda));
}

TEST_CASE("batch entry: a device evaluator on backend cuda without a usable GPU is backend_unavailable",
          "[config][batch][errors]") {
  if (cuda_unavailable_reason().empty()) {
    WARN("skipped: a GPU is usable here (tests/cuda/test_gpu.cpp runs a device evaluator on it)");
    return;
  }
  batch_spec spec = disk_spec();
  spec.evaluate_device = [](const double*, std::size_t, int, double*, double*, double*) {
    FAIL("no GPU: the device evaluator must not be called");
  };
  const run_config c = parse_batch_config(spec, run_yaml, "run.yaml", {"backend=cuda"});
  REQUIRE_THROWS_AS(run_batch(spec, c), backend_unavailable);
  spec.integer_genes = true;  // integer genes likewise
  spec.evaluate_integer = [](const std::int32_t*, std::size_t, int, double*, double*, double*) {};
  spec.evaluate_integer_device = [](const std::int32_t*, std::size_t, int, double*, double*, double*) {
    FAIL("no GPU: the device evaluator must not be called");
  };
  REQUIRE_THROWS_AS(run_batch(spec, parse_batch_config(spec, run_yaml, "run.yaml", {"backend=cuda"})),
                    backend_unavailable);
}

TEST_CASE("batch entry: parse_batch_config rejects a problem section", "[config][batch][errors]") {
  const std::string yaml = std::string(run_yaml) + "problem: {builtin: classic/sphere}\n";
  REQUIRE_THROWS_AS(parse_batch_config(disk_spec(), yaml, "run.yaml"), config_error);
  REQUIRE_THROWS_WITH(parse_batch_config(disk_spec(), yaml, "run.yaml"),
                      Contains("run.yaml:6:1: problem: not allowed here") && Contains("test:disk"));
}

TEST_CASE("batch entry: algorithm auto never chooses the gradient repair", "[config][batch]") {
  const run_config cfg = parse_batch_config(disk_spec(), run_yaml, "run.yaml");
  CHECK(cfg.ga.algorithm == algorithm_kind::de);
  CHECK(cfg.ga.constraints.gradient_repair.rate == 0);
  CHECK_THAT(cfg.choice.repair, Contains("population at a time"));
  CHECK(cfg.ga.restarts.stall_generations.has_value());  // the rest of auto's measured default stays
  const std::string with_repair = std::string("ga:\n  population: 100\n  constraint_handling:\n") +
                                  "    gradient_repair: {rate: 0.2}\n";
  REQUIRE_THROWS_AS(parse_batch_config(disk_spec(), with_repair, "run.yaml"), config_error);
  REQUIRE_THROWS_WITH(parse_batch_config(disk_spec(), with_repair, "run.yaml"),
                      Contains("run.yaml:4:") && Contains("ga.constraint_handling.gradient_repair") &&
                          Contains("evaluated a population at a time"));
}

TEST_CASE("batch entry: an exception in the fitness leaves run_batch", "[config][batch][errors]") {
  batch_spec spec = disk_spec();
  int calls = 0;
  spec.evaluate = [&calls](const double*, std::size_t n, int, double* f, double* g, double*) {
    if (++calls == 4) throw std::runtime_error("simulator crashed");
    for (std::size_t i = 0; i < n; ++i) f[i] = g[i] = 0;
  };
  REQUIRE_THROWS_WITH(run_batch(spec, parse_batch_config(spec, run_yaml, "run.yaml", {"backend=tbb"})),
                      "simulator crashed");
  CHECK(calls == 4);
}

TEST_CASE("batch entry: integer genes run the GA's integer operators on int32 rows and reach the optimum",
          "[config][batch][integer]") {
  bool in_bounds = true;
  const batch_spec spec = integer_spec(&in_bounds);  // optimum 25, by hand
  const run_config cfg = parse_batch_config(spec, "ga: {population: 60, generations: 150, seed: 3}\nbackend: tbb\n", "run.yaml");
  CHECK(cfg.ga.algorithm == algorithm_kind::ga);  // auto: DE needs real genes
  CHECK(cfg.ga.crossover.kind == crossover_kind::uniform);
  CHECK(cfg.ga.mutation.kind == mutation_kind::uniform_reset);
  const Result r = run_batch(spec, cfg);
  CHECK(in_bounds);
  CHECK(r.feasible);
  CHECK(r.objective == 25);
  REQUIRE(r.best_genes.size() == 5);
  CHECK(r.best_genes[0] == 2);
  CHECK(r.best_genes[1] + r.best_genes[2] == 9);
  for (const double x : r.best_genes) CHECK(x == std::floor(x));

  // The spec's integer-only mistakes, named.
  batch_spec bad = spec;
  bad.upper[3] = 7.5;
  CHECK_THROWS_WITH(validate_batch_spec(bad), "batch problem 'test:integer': upper[3]: expected an integer in "
                                              "[-2147483648, 2147483647] (integer genes), got 7.5");
  bad = spec;
  bad.lower[0] = -3e9;
  CHECK_THROWS_WITH(validate_batch_spec(bad), Contains("lower[0]: expected an integer in [-2147483648, 2147483647]"));
  bad = spec;
  bad.evaluate_integer = nullptr;
  bad.evaluate = [](const double*, std::size_t, int, double*, double*, double*) {};
  CHECK_THROWS_WITH(validate_batch_spec(bad), "batch problem 'test:integer': evaluate_integer: expected a fitness "
                                              "function of integer genes, got none");
  CHECK_THROWS_WITH(parse_batch_config(spec, "ga: {algorithm: de}\n", "run.yaml"), Contains("ga.algorithm"));
}

TEST_CASE("batch entry: integer variables among real genes stay integral and reach the mixed optimum",
          "[config][batch][integer]") {
  // min (x0 - 2.4)^2 + (x1 - 0.3)^2 + (x2 + 1.6)^2 s.t. x0 + x1 <= 2.2 on [-5, 5]^3, x0 and x2 integers. By hand:
  // x2 = -2 (nearest integer to -1.6); x0 = 2 leaves x1 <= 0.2, so x1 = 0.2: 0.16 + 0.01 + 0.16 = 0.33 (x0 = 3
  // forces x1 <= -0.8: at least 0.36 + 1.21).
  batch_spec spec;
  spec.name = "test:mixed";
  spec.dimension = 3;
  spec.lower.assign(3, -5);
  spec.upper.assign(3, 5);
  spec.inequality_count = 1;
  spec.integer_variables = {1, 0, 1};
  bool integral = true, in_bounds = true, fractional_seen = false;
  spec.evaluate = [&](const double* genes, std::size_t n, int d, double* objective, double* g, double*) {
    for (std::size_t i = 0; i < n; ++i) {
      const double* x = genes + i * static_cast<std::size_t>(d);
      integral = integral && x[0] == std::floor(x[0]) && x[2] == std::floor(x[2]);
      fractional_seen = fractional_seen || x[1] != std::floor(x[1]);
      for (int j = 0; j < d; ++j) in_bounds = in_bounds && x[j] >= -5 && x[j] <= 5;
      objective[i] = (x[0] - 2.4) * (x[0] - 2.4) + (x[1] - 0.3) * (x[1] - 0.3) + (x[2] + 1.6) * (x[2] + 1.6);
      g[i] = x[0] + x[1] - 2.2;
    }
  };
  const run_config cfg =
      parse_batch_config(spec, "ga: {population: 60, generations: 300, seed: 4}\nbackend: tbb\n", "run.yaml");
  CHECK(cfg.ga.algorithm == algorithm_kind::de);  // auto on real genes (SHADE): the marks keep every algorithm
  const Result r = run_batch(spec, cfg);
  CHECK(integral);
  CHECK(in_bounds);
  CHECK(fractional_seen);
  CHECK(r.feasible);
  REQUIRE(r.best_genes.size() == 3);
  CHECK(r.best_genes[0] == 2);
  CHECK(r.best_genes[2] == -2);
  CHECK(r.best_genes[1] == Approx(0.2).margin(1e-6));
  CHECK(r.objective == Approx(0.33).margin(1e-6));

  // The marks' mistakes, named.
  batch_spec bad = spec;
  bad.integer_variables = {1, 0};
  CHECK_THROWS_WITH(validate_batch_spec(bad),
                    "batch problem 'test:mixed': integer_variables: expected none or 3 "
                    "marks (dimension), got 2");
  bad = spec;
  bad.upper[2] = 4.5;
  CHECK_THROWS_WITH(validate_batch_spec(bad), Contains("batch problem 'test:mixed': bounds: gene 2: an integer "
                                                       "variable needs integer bounds"));
  bad = spec;
  bad.integer_variables[1] = 2;
  CHECK_THROWS_WITH(validate_batch_spec(bad), Contains("gene 1: integer mark must be 0 or 1"));
  bad = spec;
  bad.integer_genes = true;
  CHECK_THROWS_WITH(validate_batch_spec(bad), Contains("integer_variables: expected none with integer_genes"));
}

TEST_CASE("batch entry: each gene type and memory calls its own evaluator", "[config][batch]") {
  // The CUDA engine's batch problems (src/cuda/batch.cu) call the device evaluators; only a GPU runs them.
  batch_spec spec = disk_spec();
  std::string called;
  spec.evaluate = [&](const double*, std::size_t, int, double*, double*, double*) { called = "evaluate"; };
  spec.evaluate_device = [&](const double*, std::size_t, int, double*, double*, double*) {
    called = "evaluate_device";
  };
  spec.evaluate_integer = [&](const std::int32_t*, std::size_t, int, double*, double*, double*) {
    called = "evaluate_integer";
  };
  spec.evaluate_integer_device = [&](const std::int32_t*, std::size_t, int, double*, double*, double*) {
    called = "evaluate_integer_device";
  };
  using detail::batch_memory;
  using detail::batch_problem;
  const double x[2] = {0, 0};
  const std::int32_t xi[2] = {0, 0};
  double f = 0, g = 0;
  batch_problem<Sense::minimize, double>{&spec}.evaluate_population(x, 1, &f, &g, nullptr);
  CHECK(called == "evaluate");
  batch_problem<Sense::minimize, double, batch_memory::device>{&spec}.evaluate_population(x, 1, &f, &g, nullptr);
  CHECK(called == "evaluate_device");
  batch_problem<Sense::maximize, std::int32_t>{&spec}.evaluate_population(xi, 1, &f, &g, nullptr);
  CHECK(called == "evaluate_integer");
  batch_problem<Sense::maximize, std::int32_t, batch_memory::device>{&spec}.evaluate_population(xi, 1, &f, &g, nullptr);
  CHECK(called == "evaluate_integer_device");
}
