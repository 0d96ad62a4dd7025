// ga-run end to end on bad input: each class of issue 16's list ("every bad input a clear error, nothing
// lost") that ga-run shows, with its exit code, message and what is written.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "apps/ga_run_harness.hpp"

using namespace fusedga::test;

TEST_CASE("ga-run: NaN everywhere is exit 1 after writing the results, NaNs counted", "[ga-run][nan]") {
  scratch_dir dir;
  dir.write("nan.yaml",
            "problem:\n  variables: {x: [-1, 1]}\n  objective: \"log(-1 - x^2)\"\n  engine: interpreter\n"
            "ga: {population: 20, generations: 3}\nbackend: serial\n");
  const outcome r = ga_run(dir, (dir / "nan.yaml").string() + " --out " + (dir / "r.json").string() + " --history " +
                                    (dir / "h.csv").string());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("no individual had a finite objective and violation"));
  CHECK_THAT(r.err, Catch::Contains("80 NaN individuals in 4 generations"));
  CHECK_THAT(r.out, Catch::Contains("best         nan"));
  CHECK_THAT(r.out, Catch::Contains("feasible     no"));
  const auto j = nlohmann::json::parse(slurp(dir / "r.json"));
  CHECK(j["best"]["objective"].is_null());
  CHECK(j["best"]["feasible"] == false);
  CHECK(j["nan_individuals"] == 80);
  const std::string csv = slurp(dir / "h.csv");
  CHECK(csv.rfind("generation,best_objective,best_violation,mean_objective,feasible_fraction,evaluations,elapsed_s,"
                  "nan_individuals\n",
                  0) == 0);
  CHECK_THAT(csv, Catch::Contains("\n0,nan,0,nan,0,20,"));
  CHECK(csv.find("-nan") == std::string::npos);
}

TEST_CASE("ga-run: NaN in part of the domain ranks worst and the run succeeds", "[ga-run][nan]") {
  scratch_dir dir;
  dir.write("half.yaml",
            "problem:\n  variables: {x: [-1, 1]}\n  objective: \"sqrt(x) + 1\"\n  engine: interpreter\n"
            "ga: {population: 200, generations: 20}\nbackend: serial\n");
  const outcome r = ga_run(dir, (dir / "half.yaml").string() + " --out " + (dir / "r.json").string());
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(slurp(dir / "r.json"));
  CHECK(j["best"]["objective"].get<double>() == Approx(1.0).margin(0.05));
  CHECK(j["best"]["feasible"] == true);
  CHECK(j["nan_individuals"].get<int>() > 50);  // about half of generation 0 alone
  CHECK_THAT(r.out, Catch::Contains("NaN          "));
}

TEST_CASE("ga-run: bounds whose width overflows are a located config error", "[ga-run][bounds]") {
  scratch_dir dir;
  dir.write("wide.yaml", "problem:\n  variables: {x: [-1e308, 1e308]}\n  objective: \"x\"\n");
  const outcome r = ga_run(dir, (dir / "wide.yaml").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("wide.yaml:2:18: problem.variables.x:"));
  CHECK_THAT(r.err, Catch::Contains("width upper - lower overflows"));
}

TEST_CASE("ga-run: a population that cannot fit in memory is exit 2 before allocating", "[ga-run][memory]") {
  scratch_dir dir;
  // 2^31 − 1 individuals of 100,000 doubles: petabytes, on any machine
  const outcome r = ga_run(dir, "--set problem.builtin=classic/sphere --set problem.params.dimension=100000 "
                                "--set ga.population=2147483647 --backend serial");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("ga.population = 2147483647 with 100000 genes of 8 bytes needs"));
  CHECK_THAT(r.err, Catch::Contains("individuals fit at this dimension"));
  CHECK_THAT(r.err, !Catch::Contains("bad_alloc"));
}

TEST_CASE("ga-run: an absurd thread count is a located config error", "[ga-run][memory]") {
  scratch_dir dir;
  dir.write("t.yaml", "problem: {builtin: seed/constrained-quadratic}\nthreads: 2147483647\n");
  const outcome r = ga_run(dir, (dir / "t.yaml").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("t.yaml:2:10: threads: expected an integer in [0, 65536]"));
}
