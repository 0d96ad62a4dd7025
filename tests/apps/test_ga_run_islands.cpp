// ga-run end to end with ga.islands (issue 18): --explain's island lines, the result JSON's islands, the
// history CSV's island column, and a checkpointed island run resumed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "apps/ga_run_harness.hpp"
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

using namespace fusedga::test;

namespace {
const std::string islands_config = std::string(FUSEDGA_SOURCE_DIR) + "/configs/islands-rastrigin.yaml";
}  // namespace

TEST_CASE("ga-run --explain prints the islands, migration and each variant", "[ga-run][islands]") {
  scratch_dir dir;
  const outcome r = ga_run(dir, islands_config + " --explain --set ga.population=4001");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("islands      8 of the population's 4001: 501 individuals (island 0), 500 (the "
                                    "others)  (island model: Cantú-Paz 2000)\n"));
  CHECK_THAT(r.out, Catch::Contains("migration    after every 10 generations: each island sends its 2 best, topology "
                                    "ring, policy best-replace-worst\n"));
  CHECK_THAT(r.out, Catch::Contains("variants     2 (heterogeneous islands): island i runs variant i mod 2\n"
                                    "variant 0    islands 0, 2, 4, 6\n"
                                    "  algorithm   de\n"
                                    "  de          shade ("));
  CHECK_THAT(r.out, Catch::Contains("variant 1    islands 1, 3, 5, 7\n"
                                    "  algorithm   de\n"
                                    "  de          rand/1/bin (F 0.5, CR 0.1)"));
  CHECK_THAT(r.out, Catch::Contains("restarts     none\n"));
  const outcome same = ga_run(dir, "--explain --set ga.islands.count=4");  // the embedded default, homogeneous
  REQUIRE(same.exit_code == 0);
  CHECK_THAT(same.out, Catch::Contains("islands      4 of the population's 10000: 2500 individuals each"));
  CHECK_THAT(same.out, Catch::Contains("variants     none: every island runs the settings above"));
  CHECK_THAT(same.out, Catch::Contains("restarts     each island on its own, after 100 generations without "
                                       "improvement (checked at epoch ends), population x2 each time  (IPOP: "
                                       "Auger & Hansen 2005)\n"
                                       "             but only once the population has converged (mean objective "
                                       "within 1e-08 x max(1, |best|) of its best), or after 500 generations "
                                       "without improvement\n"
                                       "             (an improvement counts when it exceeds 1e-08 x max(1, |best|))\n"
                                       "             (auto: the measured default)\n"));  // auto's, islands too
  const outcome restarting = ga_run(dir, "--explain --set ga.islands.count=4 --set ga.restarts.stall_generations=50");
  REQUIRE(restarting.exit_code == 0);
  CHECK_THAT(restarting.out, Catch::Contains("restarts     each island on its own, after 50 generations without "
                                             "improvement (checked at epoch ends), population x2 each time"));
  CHECK(restarting.out.find("restarts     none") == std::string::npos);
  const outcome one = ga_run(dir, "--explain");
  REQUIRE(one.exit_code == 0);
  CHECK(one.out.find("islands ") == std::string::npos);
}

TEST_CASE("ga-run --out lists the islands and --history adds an island column", "[ga-run][islands]") {
  scratch_dir dir;
  const outcome r = ga_run(dir, islands_config + " -q --backend serial --set ga.population=400 --set ga.generations=25 "
                                                 "--out " + (dir / "r.json").string() + " --history " +
                                    (dir / "h.csv").string());
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(slurp(dir / "r.json"));
  REQUIRE(j["islands"].size() == 8);
  std::uint64_t evaluations = 0;
  bool best_found = false;
  for (int i = 0; i < 8; ++i) {
    const auto& x = j["islands"][i];
    CHECK(x["island"] == i);
    CHECK(x["rank"] == 0);
    CHECK(x["population"] == 50);
    CHECK(x["evaluations"] == 50 * 26);  // DE: every individual each generation
    CHECK(x["immigrants"].get<int>() >= 0);
    CHECK(x["immigrants"].get<int>() <= 2 * 2);  // 2 migrations (after generations 10 and 20), 2 each
    CHECK(x["best"]["feasible"] == true);
    CHECK(x["best"]["objective"].get<double>() >= j["best"]["objective"].get<double>());
    best_found |= x["best"]["objective"] == j["best"]["objective"];
    evaluations += x["evaluations"].get<std::uint64_t>();
  }
  CHECK(best_found);  // the run's best is an island's
  CHECK(j["evaluations"] == evaluations);
  const std::string csv = slurp(dir / "h.csv");
  CHECK(csv.rfind("generation,best_objective,best_violation,mean_objective,feasible_fraction,evaluations,elapsed_s,"
                  "nan_individuals,island\n", 0) == 0);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 26 * 9);  // the archipelago's rows, then each island's
  CHECK_THAT(csv, Catch::Contains("\n0,"));
  CHECK_THAT(csv, Catch::EndsWith(",7\n"));
  CHECK(csv.find(",all\n") < csv.find(",0\n"));
  // one population: no islands in the JSON, no island column
  const outcome one = ga_run(dir, "-q --set ga.population=200 --set ga.generations=3 --out " + (dir / "o.json").string() +
                                      " --history " + (dir / "o.csv").string());
  REQUIRE(one.exit_code == 0);
  CHECK_FALSE(nlohmann::json::parse(slurp(dir / "o.json")).contains("islands"));
  CHECK(slurp(dir / "o.csv").find("island") == std::string::npos);
}

TEST_CASE("ga-run: an island run checkpointed, then resumed further, ends as the longer run (JSON, CSV)",
          "[ga-run][islands][checkpoint]") {
  scratch_dir dir;
  const std::string common = islands_config + " -q --backend tbb --set threads=2 --set ga.population=400 ";
  const auto path = [&](const char* name) { return (dir / name).string(); };
  REQUIRE(ga_run(dir, common + "--set ga.generations=47 --out " + path("whole.json") + " --history " +
                          path("whole.csv")).exit_code == 0);
  REQUIRE(ga_run(dir, common + "--set ga.generations=23 --checkpoint " + path("c.bin") + " --checkpoint-every 10")
              .exit_code == 0);
  // --resume takes the config from the checkpoint; the limit given anew continues the finished run.
  const outcome r = ga_run(dir, "--resume " + path("c.bin") + " -q --set ga.generations=47 --out " + path("r.json") +
                                    " --history " + path("r.csv"));
  REQUIRE(r.exit_code == 0);
  auto a = nlohmann::json::parse(slurp(dir / "whole.json")), b = nlohmann::json::parse(slurp(dir / "r.json"));
  a.erase("wall_time_s");
  b.erase("wall_time_s");
  CHECK(a == b);
  REQUIRE(b["islands"].size() == 8);
  const auto without_time = [](const std::string& csv) {  // the elapsed_s column (7th) blanked
    std::string out, line;
    std::istringstream in(csv);
    while (std::getline(in, line)) {
      std::size_t at = 0;
      for (int c = 0; c < 6; ++c) at = line.find(',', at) + 1;
      out += line.substr(0, at) + line.substr(line.find(',', at)) + "\n";
    }
    return out;
  };
  CHECK(without_time(slurp(dir / "whole.csv")) == without_time(slurp(dir / "r.csv")));
  // A bad island setting is still a located error.
  const outcome bad = ga_run(dir, islands_config + " -q --set ga.islands.migration.topology=star");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("ga.islands.migration.topology: expected one of (ring, random, fully-connected), "
                                      "got star"));
}

TEST_CASE("ga-run: an island variant that repairs, in a run that does not, gets the constraints' Jacobian",
          "[ga-run][islands]") {
  // The run's own rate is 0 (explicit de brings no repair); variant 1 repairs. The Jacobian was built only for a
  // run whose own rate was above 0, so variant 1's islands called a null evaluator (SIGSEGV).
  scratch_dir dir;
  dir.write("v.yaml", R"(problem:
  variables: {x: [-5, 5], y: [-5, 5]}
  objective: "x^2 + y^2"
  constraints: ["x + y >= 1", "x*y == 0.2"]
ga:
  algorithm: de
  population: 40
  islands: {count: 2, migration: {every: 10, size: 2}, variants: [{}, {constraint_handling: {gradient_repair: {rate: 0.5}}}]}
stop: {evaluations: 20000}
)");
  const outcome r = ga_run(dir, (dir / "v.yaml").string() + " -q --out " + (dir / "r.json").string());
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(slurp(dir / "r.json"));
  CHECK(j["best"]["feasible"] == true);
  // x² + y² = (x + y)² − 2xy >= 1 − 0.4 at x + y = 1 (less by the equality's tolerance 1e-4: 0.5998)
  CHECK(j["best"]["objective"].get<double>() == Approx(0.6).margin(1e-3));
}
