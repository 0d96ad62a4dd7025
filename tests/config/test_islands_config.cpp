// Tests of `ga.islands` in the YAML config (issue 18): every key and its default, heterogeneous variants read
// over the run's settings, `ga.algorithm: auto` without restarts, each mistake a located config_error, and
// checkpoints written and resumed through run().

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/islands/migration.hpp"
#include "fusedga/islands/solve_islands.hpp"
#include "registry/entry.hpp"
#include "registry/expression_evaluators.hpp"
#include "config_error_of.hpp"

using namespace fusedga;

namespace {

using config_test::error_of;

const std::string quadratic = "problem: {builtin: seed/constrained-quadratic}\n";
const std::string rastrigin = "problem: {builtin: classic/rastrigin, params: {dimension: 4}}\n";

}  // namespace

TEST_CASE("ga.islands: every key read, and the defaults", "[config][islands]") {
  const run_config none = parse_config(quadratic, "run.yaml");
  CHECK(none.ga.islands.count == 1);
  CHECK(none.ga.islands.variants.empty());
  const run_config c = parse_config(quadratic + R"(ga:
  population: 120
  islands: {count: 6}
)", "run.yaml");
  CHECK(c.ga.islands.count == 6);
  CHECK(c.ga.islands.migration.every == 10);
  CHECK(c.ga.islands.migration.size == 1);
  CHECK(c.ga.islands.migration.topology == migration_topology::ring);
  CHECK(c.ga.islands.migration.policy == migration_policy::best_replace_worst);
  const run_config f = parse_config(quadratic + R"(ga:
  population: 120
  islands:
    count: 4
    migration: {every: 5, size: 3, topology: fully-connected, policy: best-replace-worst}
)", "run.yaml");
  CHECK(f.ga.islands.count == 4);
  CHECK(f.ga.islands.migration.every == 5);
  CHECK(f.ga.islands.migration.size == 3);
  CHECK(f.ga.islands.migration.topology == migration_topology::fully_connected);
  CHECK(parse_config(quadratic, "run.yaml", {"ga.islands.migration.topology=random", "ga.islands.count=8"})
            .ga.islands.migration.topology == migration_topology::random);
  CHECK(parse_config(quadratic, "run.yaml", {"ga.islands.count=8"}).ga.islands.count == 8);
  CHECK(parse_config(quadratic + "ga: {islands: null}\n", "run.yaml").ga.islands.count == 1);
}

TEST_CASE("ga.algorithm auto sets its restarts with islands too, where none are given", "[config][islands][auto]") {
  const run_config one = parse_config(quadratic, "run.yaml");
  REQUIRE(one.ga.algorithm == algorithm_kind::de);
  CHECK(one.ga.restarts.stall_generations == 100);
  const run_config c = parse_config(quadratic, "run.yaml", {"ga.islands.count=8"});
  CHECK(c.ga.algorithm == algorithm_kind::de);
  CHECK(c.ga.restarts.stall_generations == 100);
  CHECK(c.ga.restarts.population_growth == 2);
  CHECK(c.choice.restarts == "auto: the measured default");
  CHECK_NOTHROW(islands::validate_islands(c.ga));
  // given restarts (null included) and an explicit algorithm bring none of auto's
  const run_config none = parse_config(quadratic + "ga: {restarts: null}\n", "run.yaml", {"ga.islands.count=8"});
  CHECK_FALSE(none.ga.restarts.stall_generations.has_value());
  CHECK(none.choice.restarts.empty());
  CHECK(parse_config(quadratic, "run.yaml", {"ga.islands.count=8", "ga.restarts.stall_generations=30"})
            .ga.restarts.stall_generations == 30);
  CHECK_FALSE(parse_config(quadratic, "run.yaml", {"ga.islands.count=8", "ga.algorithm=de"})
                  .ga.restarts.stall_generations.has_value());
  // a GA-only key makes auto the GA: no restarts, with or without islands
  CHECK_FALSE(parse_config(quadratic, "run.yaml", {"ga.islands.count=8", "ga.elitism=2"})
                  .ga.restarts.stall_generations.has_value());
}

TEST_CASE("ga.islands.variants: read over the run's settings, one per island in turn", "[config][islands]") {
  const run_config c = parse_config(rastrigin + R"(ga:
  population: 90
  algorithm: ga
  crossover: {type: blx-alpha, alpha: 0.3}
  elitism: 3
  islands:
    count: 3
    variants:
      - {crossover: {rate: 0.5}}
      - {algorithm: de, de: {type: rand/1/bin, CR: 0.1}}
)", "run.yaml");
  REQUIRE(c.ga.islands.variants.size() == 2);
  const ga_options& v0 = c.ga.islands.variants[0];
  CHECK(v0.algorithm == algorithm_kind::ga);
  CHECK(v0.crossover.kind == crossover_kind::blx_alpha);  // the run's
  CHECK(v0.crossover.alpha == 0.3);                       // the run's
  CHECK(v0.crossover.rate == 0.5);                        // its own
  CHECK(v0.elitism == 3);
  const ga_options& v1 = c.ga.islands.variants[1];
  CHECK(v1.algorithm == algorithm_kind::de);
  CHECK(v1.de.strategy == de_strategy::rand_1_bin);
  CHECK(v1.de.CR == 0.1);
  CHECK(c.choice.variants == std::vector<std::string>{"", ""});
  // island i runs variant i mod 2, with its own slice and seed
  const ga_options i0 = islands::island_options_for(c.ga, 0), i1 = islands::island_options_for(c.ga, 1),
                   i2 = islands::island_options_for(c.ga, 2);
  CHECK(i0.algorithm == algorithm_kind::ga);
  CHECK(i0.crossover.rate == 0.5);
  CHECK(i1.algorithm == algorithm_kind::de);
  CHECK(i1.de.strategy == de_strategy::rand_1_bin);
  CHECK(i2.algorithm == algorithm_kind::ga);
  CHECK(i1.population == 30);
  CHECK(i1.seed == islands::island_seed(c.ga.seed, 1));
}

TEST_CASE("ga.islands.variants: auto is resolved per variant", "[config][islands][auto]") {
  const run_config c = parse_config(rastrigin + R"(ga:
  population: 80
  islands:
    count: 2
    variants: [{}, {crossover: {type: blx-alpha}}]
)", "run.yaml");
  REQUIRE(c.ga.algorithm == algorithm_kind::de);
  CHECK(c.ga.islands.variants[0].algorithm == algorithm_kind::de);
  CHECK(c.ga.islands.variants[1].algorithm == algorithm_kind::ga);
  CHECK(c.ga.islands.variants[1].crossover.kind == crossover_kind::blx_alpha);
  REQUIRE(c.choice.variants.size() == 2);
  CHECK(c.choice.variants[1] == "auto: ga.crossover is set, a GA operator");
  // an explicit run algorithm is inherited: a GA key on a DE variant is refused
  CHECK(error_of(rastrigin + "ga: {algorithm: de, islands: {count: 2, variants: [{elitism: 2}]}}\n") ==
        "run.yaml:2:62: ga.islands.variants[0].elitism: does not apply to differential evolution (algorithm: de "
        "uses ga.de and one-to-one survival)");
}

TEST_CASE("ga.islands: each mistake is a located error", "[config][islands][errors]") {
  CHECK(error_of(quadratic + "ga: {population: 100, islands: {count: 51}}\n") ==
        "run.yaml:2:40: ga.islands.count: expected an integer in [1, population / 2 = 50] (every island needs 2 "
        "individuals), got 51");
  CHECK(error_of(quadratic + "ga: {islands: {count: 2, size: 3}}\n") ==
        "run.yaml:2:26: ga.islands.size: unknown key, expected one of (count, migration, variants)");
  CHECK(error_of(quadratic + "ga: {islands: {migration: {every: 2}}}\n") ==
        "run.yaml:2:15: ga.islands: missing count: the number of islands (migration and variants are optional; "
        "null = none)");
  CHECK(error_of(quadratic + "ga: {islands: {count: two}}\n") ==
        "run.yaml:2:23: ga.islands.count: expected an integer in [1, population / 2 = 50] (every island needs 2 "
        "individuals), got two");
  CHECK(error_of(quadratic + "ga: {islands: {count: 2, migration: {every: 0}}}\n") ==
        "run.yaml:2:45: ga.islands.migration.every: expected an integer >= 1, got 0");
  CHECK(error_of(quadratic + "ga: {population: 100, islands: {count: 4, migration: {size: 25}}}\n") ==
        "run.yaml:2:61: ga.islands.migration.size: expected an integer in [1, smallest island's population - 1 = "
        "24] (emigrants per island and epoch), got 25");
  CHECK(error_of(quadratic + "ga: {islands: {count: 2, migration: {topology: star}}}\n") ==
        "run.yaml:2:48: ga.islands.migration.topology: expected one of (ring, random, fully-connected), got star");
  CHECK(error_of(quadratic + "ga: {islands: {count: 2, migration: {policy: worst}}}\n") ==
        "run.yaml:2:46: ga.islands.migration.policy: expected one of (best-replace-worst), got worst");
  CHECK(error_of(quadratic + "ga: {islands: {count: 2, migration: {every: 2, sise: 1}}}\n") ==
        "run.yaml:2:48: ga.islands.migration.sise: unknown key, expected one of (every, size, topology, policy); "
        "did you mean size?");
  // restarts: each island restarts on its own (solve_islands), so they go together
  CHECK(error_of(quadratic + "ga: {islands: {count: 2}, restarts: {stall_generations: 5}}\n") == "(no error)");
  CHECK(parse_config(quadratic + "ga: {islands: {count: 2}, restarts: {stall_generations: 5}}\n", "run.yaml")
            .ga.restarts.stall_generations == 5);
  CHECK(error_of(quadratic + "ga: {islands: {count: 2}, restarts: null}\n") == "(no error)");
  // variants
  CHECK(error_of(quadratic + "ga: {islands: {count: 2, variants: {algorithm: ga}}}\n") ==
        "run.yaml:2:36: ga.islands.variants: expected a list of variants, each a map of ga: search settings "
        "(algorithm, selection, crossover, mutation, elitism, survival, de, constraint_handling), or null, got a map");
  CHECK(error_of(quadratic + "ga: {islands: {count: 2, variants: []}}\n") == "(no error)");
  CHECK(error_of(quadratic + "ga: {islands: {count: 1, variants: []}}\n") == "(no error)");
  CHECK(error_of(quadratic + "ga: {islands: {count: 1, variants: [{algorithm: ga}]}}\n") ==
        "run.yaml:2:36: ga.islands.variants: needs islands: with count 1 (one population) the variants would not "
        "run; set ga.islands.count > 1, or ga.islands: null");
  CHECK(error_of(quadratic + "ga: {islands: {count: 2, variants: [{}, {}, {algorithm: ga}]}}\n") ==
        "run.yaml:2:45: ga.islands.variants[2]: more variants than islands (count = 2): island i runs variant i mod "
        "the number of variants, so this one would run nowhere");
  CHECK(error_of(quadratic + "ga: {islands: {count: 2, variants: [{seed: 3}]}}\n") ==
        "run.yaml:2:38: ga.islands.variants[0].seed: unknown key of a variant (its population, generations, seed, "
        "stop and restarts are the run's), expected one of (algorithm, selection, crossover, mutation, elitism, "
        "survival, de, constraint_handling)");
  CHECK(error_of(quadratic + "ga: {islands: {count: 2, variants: [{crossover: {eta: -1}}]}}\n") ==
        "run.yaml:2:55: ga.islands.variants[0].crossover.eta: expected a number >= 0, got -1");
  CHECK(error_of(quadratic + "ga: {population: 100, islands: {count: 2, variants: [{elitism: 50}]}}\n") ==
        "run.yaml:2:64: ga.islands.variants[0].elitism: expected an integer in [0, island population - 1 = 49], "
        "got 50");
  // validate.hpp on each island: a DE island of 3 individuals, the run's elitism beyond an island
  CHECK(error_of(quadratic + "ga: {population: 100, islands: {count: 2, variants: [{}, {algorithm: de}]}, "
                             "algorithm: ga, elitism: 2}\n",
                 {"ga.population=6"}) ==
        "run.yaml:2:58: ga.islands.variants[1]: island 1 (3 individuals): ga.population: differential evolution "
        "needs at least 4 individuals, got 3");
  CHECK(error_of(quadratic + "ga: {population: 100, elitism: 40, islands: {count: 3}}\n") ==
        "run.yaml:2:53: ga.islands.count: island 0 (34 individuals): ga.elitism: expected an integer in [0, "
        "population - 1 = 33], got 40");
  CHECK(error_of(quadratic, {"ga.islands.count=30", "ga.population=100"}) ==
        "--set ga.islands.count=30: ga.islands.count: island 10 (3 individuals): ga.population: differential "
        "evolution needs at least 4 individuals, got 3");
}

TEST_CASE("ga.islands: run() writes checkpoints and resumes them (the registry's problem id included)",
          "[config][islands][checkpoint]") {
  run_config c = parse_config(quadratic + "ga: {population: 100, generations: 24, islands: {count: 2}}\n", "run.yaml");
  const Result whole = run(c, run_hooks{});
  run_hooks hooks;
  std::vector<std::string> written;
  hooks.checkpoint.write = [&](const std::string& bytes) { written.push_back(bytes); };
  hooks.checkpoint.every_generations = 10;
  run(c, hooks);
  REQUIRE(written.size() == 3);  // after generations 10 and 20, and the last at 24
  std::istringstream in(written[1]);
  run_hooks from;
  from.resume = &in;
  from.resume_source = "c.bin";
  const Result resumed = run(c, from);
  CHECK(resumed.objective == whole.objective);
  CHECK(resumed.best_genes == whole.best_genes);
  CHECK(resumed.history.size() == whole.history.size());
  CHECK(resumed.islands.size() == 2);
  // Another problem's parameters: refused, naming the problem.
  run_config other = parse_config(
      "problem: {builtin: classic/rastrigin, params: {dimension: 5}}\n"
      "ga: {population: 100, generations: 24, islands: {count: 2}}\n", "run.yaml");
  std::istringstream again(written[1]);
  from.resume = &again;
  CHECK_THROWS_WITH(run(other, from), Catch::Contains("c.bin: checkpoint is of another run"));
}

TEST_CASE("heterogeneous islands run their variant's settings", "[config][islands]") {
  // No migration within the run (every > generations): island 1 is then exactly a one-population run of
  // variant 1's settings on island 1's slice and seed.
  const run_config c = parse_config(rastrigin + R"(ga:
  population: 100
  generations: 20
  seed: 7
  algorithm: de
  islands:
    count: 2
    migration: {every: 1000}
    variants: [{}, {algorithm: ga, crossover: {type: blx-alpha, alpha: 0.3}}]
backend: serial
)", "run.yaml");
  const Result r = run(c, run_hooks{});
  REQUIRE(r.islands.size() == 2);
  CHECK(r.islands[1].population == 50);
  CHECK(r.islands[0].immigrants == 0);
  const run_config alone = parse_config(rastrigin + R"(ga:
  population: 50
  generations: 20
  algorithm: ga
  crossover: {type: blx-alpha, alpha: 0.3}
  restarts: null
backend: serial
)", "run.yaml", {"ga.seed=" + std::to_string(islands::island_seed(7, 1))});
  const Result a = run(alone, run_hooks{});
  CHECK(r.islands[1].objective == a.objective);  // bitwise: the same engine, settings, slice and seed
  CHECK(r.islands[1].evaluations == a.evaluations);
  REQUIRE(r.islands[1].history.size() == a.history.size());
  CHECK(r.islands[1].history.back().mean_objective == a.history.back().mean_objective);
  const run_config de_alone = parse_config(rastrigin + "ga: {population: 50, generations: 20, seed: 7, algorithm: de, "
                                                       "restarts: null}\nbackend: serial\n", "run.yaml");
  CHECK(r.islands[0].objective == run(de_alone, run_hooks{}).objective);  // island 0: the run's seed and settings
  CHECK(r.islands[0].evaluations != r.islands[1].evaluations);  // DE evaluates N children, the GA N - elitism
}

TEST_CASE("ga.islands: the GPU JIT's module serves every island: the variants' algorithms and repair decide it",
          "[config][islands]") {
  // One island's repair needs the Jacobian in the module, and each island's algorithm its variation kernel.
  run_config cfg = parse_config(quadratic +
                                    "ga:\n  algorithm: de\n  population: 40\n  islands:\n    count: 2\n    variants:\n"
                                    "      - {algorithm: de}\n"
                                    "      - {algorithm: ga, constraint_handling: {gradient_repair: {rate: 0.1}}}\n",
                                "run.yaml");
  CHECK(cfg.ga.constraints.gradient_repair.rate == 0);
  CHECK(detail::any_repair(cfg));
  CHECK(detail::any_algorithm(cfg, algorithm_kind::ga));
  CHECK(detail::any_algorithm(cfg, algorithm_kind::de));
  // The variants replace the run's own settings: a run-level repair no island runs does not count.
  cfg.ga.islands.variants[1].constraints.gradient_repair.rate = 0;
  cfg.ga.constraints.gradient_repair.rate = 0.5;
  CHECK_FALSE(detail::any_repair(cfg));
  cfg.ga.islands.variants[1].algorithm = algorithm_kind::de;
  CHECK_FALSE(detail::any_algorithm(cfg, algorithm_kind::ga));
  run_config plain = parse_config(quadratic + "ga: {algorithm: de, constraint_handling: {gradient_repair: {rate: 0.2}}}\n",
                                  "run.yaml");
  CHECK(detail::any_repair(plain));
  CHECK(detail::any_algorithm(plain, algorithm_kind::de));
  CHECK_FALSE(detail::any_algorithm(plain, algorithm_kind::ga));
  plain.ga.constraints.gradient_repair.rate = 0;
  CHECK_FALSE(detail::any_repair(plain));
}
