// Tests of the YAML config parser (DESIGN.md, "YAML config"): valid configs
// fill every field; each class of mistake is a config_error whose message
// names file:line:col (or the --set override), the key path and what was expected.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/engine/validate.hpp"
#include "fusedga/operators/catalog.hpp"
#include "fusedga/operators/operator_text.hpp"
#include "text/utf8.hpp"
#include "config_error_of.hpp"

using namespace fusedga;

namespace {

using config_test::error_of;

std::string registered_names() {
  std::string out;
  for (const auto& p : builtin_problems()) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

const param_spec& gene_sum_genes() {
  const problem_entry* entry = find_problem("seed/gene-sum");
  REQUIRE(entry != nullptr);
  const auto it = std::find_if(entry->params.begin(), entry->params.end(),
                               [](const param_spec& spec) { return spec.name == "genes"; });
  REQUIRE(it != entry->params.end());
  return *it;
}

std::string integer_text(double v) { return std::to_string(static_cast<long long>(v)); }

const std::string quadratic = "problem: {builtin: seed/constrained-quadratic}\n";

}  // namespace

TEST_CASE("a full config fills every field", "[config]") {
  const std::string yaml = R"(problem:
  builtin: classic/sphere
  params: {dimension: 12}
ga:
  population: 500
  generations: 40
  seed: 18446744073709551615
  selection: {type: tournament, size: 4}
  crossover: {type: blx-alpha, rate: 0.75, alpha: 0.3}
  mutation: {type: gaussian, rate: 0.05, sigma: 0.2}
  elitism: 5
  constraint_handling: {type: penalty, weight: 1e3, equality_tolerance: 0.001}
stop: {target: -1.5, stall_generations: 25, time_limit_s: 2.5}
backend: tbb
precision: float
threads: 3
device: 2
output: {result: out/result.json, history: "out/history.csv"}
)";
  const run_config c = parse_config(yaml, "full.yaml");
  CHECK(c.source == "full.yaml");
  CHECK(c.problem.builtin == "classic/sphere");
  REQUIRE(c.problem.params.count("dimension") == 1);
  CHECK(c.problem.params.at("dimension") == 12);
  CHECK(c.ga.population == 500);
  CHECK(c.ga.generations == 40);
  CHECK(c.ga.seed == 18446744073709551615ull);
  CHECK(c.ga.selection.tournament_size == 4);
  CHECK(c.ga.crossover.kind == crossover_kind::blx_alpha);
  CHECK(c.ga.crossover.rate == 0.75);
  CHECK(c.ga.crossover.alpha == 0.3);
  CHECK(c.ga.mutation.kind == mutation_kind::gaussian);
  REQUIRE(c.ga.mutation.rate.has_value());
  CHECK(*c.ga.mutation.rate == 0.05);
  CHECK(c.ga.mutation.sigma == 0.2);
  CHECK(c.ga.elitism == 5);
  CHECK(c.ga.constraints.rule == constraint_rule::penalty);
  CHECK(c.ga.constraints.penalty_weight == 1000);
  CHECK(c.ga.constraints.equality_tolerance == 0.001);
  REQUIRE(c.ga.stop.target.has_value());
  CHECK(*c.ga.stop.target == -1.5);
  REQUIRE(c.ga.stop.stall_generations.has_value());
  CHECK(*c.ga.stop.stall_generations == 25);
  REQUIRE(c.ga.stop.time_limit_s.has_value());
  CHECK(*c.ga.stop.time_limit_s == 2.5);
  CHECK(c.backend == backend_kind::tbb);
  CHECK(c.precision == precision_kind::float32);
  CHECK(c.threads == 3);
  CHECK(c.device == 2);
  CHECK(c.output.result == std::optional<std::string>("out/result.json"));
  CHECK(c.output.history == std::optional<std::string>("out/history.csv"));
}

TEST_CASE("a minimal config takes the defaults", "[config]") {
  const run_config c = parse_config(quadratic, "min.yaml");
  const ga_options defaults;
  CHECK(c.problem.builtin == "seed/constrained-quadratic");
  CHECK(c.ga.population == 50);  // auto's DE: d = 3 clamped to [50, 100]
  CHECK(parse_config(quadratic + "ga: {algorithm: ga}\n", "min.yaml").ga.population == defaults.population);
  CHECK(c.ga.generations == std::numeric_limits<int>::max());  // auto's DE: a budget of 10^4·d evaluations instead
  CHECK(c.ga.stop.evaluations == 30000u);
  CHECK(parse_config(quadratic + "ga: {algorithm: ga}\n", "min.yaml").ga.generations == defaults.generations);
  CHECK(c.ga.seed == defaults.seed);
  CHECK(c.ga.selection.tournament_size == 2);
  CHECK(c.ga.crossover.kind == crossover_kind::sbx);
  CHECK(c.ga.crossover.rate == defaults.crossover.rate);
  CHECK(c.ga.crossover.eta == defaults.crossover.eta);
  CHECK(c.ga.mutation.kind == mutation_kind::polynomial);
  CHECK_FALSE(c.ga.mutation.rate.has_value());  // auto = 1/dimension
  CHECK(c.ga.mutation.eta == defaults.mutation.eta);
  CHECK(c.ga.elitism == defaults.elitism);
  CHECK(c.ga.constraints.rule == constraint_rule::feasibility_rules);
  CHECK_FALSE(c.ga.stop.target.has_value());
  CHECK_FALSE(c.ga.stop.stall_generations.has_value());
  CHECK_FALSE(c.ga.stop.time_limit_s.has_value());
  CHECK(c.backend == backend_kind::automatic);
  CHECK(c.precision == precision_kind::float64);
  CHECK(c.threads == 0);
  CHECK(c.device == -1);  // auto
  CHECK_FALSE(c.output.result.has_value());
  CHECK_FALSE(c.output.history.has_value());
}

TEST_CASE("device: auto or a CUDA device ordinal, located when wrong", "[config][errors]") {
  const std::string q = "problem: {builtin: seed/constrained-quadratic}\n";
  CHECK(parse_config(q + "device: auto\n", "run.yaml").device == -1);
  CHECK(parse_config(q + "device: 3\n", "run.yaml").device == 3);
  CHECK(parse_config(q, "run.yaml", {"device=1"}).device == 1);
  CHECK(error_of(q + "device: -1\n") == "run.yaml:2:9: device: expected auto or an integer in [0, 1023], got -1");
  CHECK(error_of(q + "device: gpu1\n") == "run.yaml:2:9: device: expected auto or an integer in [0, 1023], got gpu1");
}

TEST_CASE("explicit nulls, empty sections and number spellings are accepted", "[config]") {
  const run_config c = parse_config(quadratic + R"(ga:
  population: 1e4
  mutation: {rate: auto}
stop: {target: null, stall_generations: ~, time_limit_s: }
output:
)",
                                    "run.yaml");
  CHECK(c.ga.population == 10000);
  CHECK_FALSE(c.ga.mutation.rate.has_value());
  CHECK_FALSE(c.ga.stop.target.has_value());
  CHECK_FALSE(c.output.result.has_value());
}

TEST_CASE("the default elitism never exceeds population - 1", "[config]") {
  CHECK(parse_config(quadratic + "ga: {population: 2, algorithm: ga}\n", "run.yaml").ga.elitism == 1);
}

TEST_CASE("missing problem params get their defaults", "[config]") {
  const run_config c = parse_config("problem: {builtin: seed/gene-sum}\n", "run.yaml");
  CHECK(c.problem.params.at("genes") == gene_sum_genes().default_value);
}

TEST_CASE("integer-gene problems default to uniform crossover and uniform-reset mutation", "[config]") {
  const run_config c = parse_config("problem: {builtin: seed/gene-sum}\nga: {crossover: {rate: 0.8}}\n", "run.yaml");
  CHECK(c.ga.crossover.kind == crossover_kind::uniform);
  CHECK(c.ga.crossover.rate == 0.8);
  CHECK(c.ga.mutation.kind == mutation_kind::uniform_reset);

  const run_config given = parse_config(
      "problem: {builtin: seed/gene-sum}\nga: {crossover: {type: two-point}, mutation: {type: creep, step: 2}}\n",
      "run.yaml");
  CHECK(given.ga.crossover.kind == crossover_kind::two_point);
  CHECK(given.ga.mutation.kind == mutation_kind::creep);
  CHECK(given.ga.mutation.step == 2);
}

TEST_CASE("a parameter of another operator of the family is a located error, not ignored", "[config][errors]") {
  const auto error_of = [](const std::string& ga) {
    try {
      parse_config(quadratic + "ga: " + ga + "\n", "run.yaml");
    } catch (const fusedga::config_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of("{algorithm: ga, mutation: {type: gaussian, eta: 5}}"),
             Catch::StartsWith("run.yaml:2:") && Catch::Contains("ga.mutation.eta: does not apply to gaussian "
                                                                 "mutation (its parameters: rate, sigma)"));
  CHECK_THAT(error_of("{algorithm: ga, crossover: {type: uniform, eta: 5}}"),
             Catch::Contains("ga.crossover.eta: does not apply to uniform crossover"));
  CHECK_THAT(error_of("{constraint_handling: {weight: 5}}"),  // weight is penalty's; the type is feasibility-rules
             Catch::Contains("ga.constraint_handling.weight: does not apply to feasibility-rules constraint handling"));
  CHECK_THAT(error_of("{algorithm: de, de: {type: shade, F: 0.3}}"),
             Catch::Contains("ga.de.F: does not apply to shade differential evolution"));
  // Its own parameters, and the family's, are read as before.
  CHECK(parse_config(quadratic + "ga: {algorithm: ga, mutation: {type: gaussian, sigma: 0.2, rate: 0.5}}\n", "r.yaml")
            .ga.mutation.sigma == 0.2);
  CHECK(parse_config(quadratic + "ga: {constraint_handling: {type: penalty, weight: 5}}\n", "r.yaml")
            .ga.constraints.penalty_weight == 5);
}

TEST_CASE("default_config_yaml parses", "[config]") {
  const run_config c = parse_config(default_config_yaml(), "<embedded default>");
  CHECK(c.source == "<embedded default>");
  CHECK(c.problem.builtin == "seed/constrained-quadratic");
  CHECK(c.ga.population == 10000);
  CHECK(c.ga.generations == 300);
  CHECK(c.ga.seed == 42);
  CHECK(c.ga.selection.tournament_size == 2);
  CHECK(c.ga.crossover.kind == crossover_kind::sbx);
  CHECK(c.ga.crossover.rate == 0.9);
  CHECK(c.ga.crossover.eta == 15);
  CHECK(c.ga.mutation.kind == mutation_kind::polynomial);
  CHECK_FALSE(c.ga.mutation.rate.has_value());
  CHECK(c.ga.mutation.eta == 20);
  CHECK(c.ga.elitism == 2);
  CHECK(c.ga.constraints.rule == constraint_rule::feasibility_rules);
  CHECK(c.backend == backend_kind::automatic);
  CHECK(c.precision == precision_kind::float64);
  CHECK(c.threads == 0);
}

// ------------------------------------------------------------------ errors

TEST_CASE("error: unknown top-level key", "[config][errors]") {
  CHECK(error_of(quadratic + "gaa: {}\n") ==
        "run.yaml:2:1: gaa: unknown key, expected one of (problem, ga, stop, backend, precision, threads, device, output); "
        "did you mean ga?");
}

TEST_CASE("error: unknown nested key (a typo)", "[config][errors]") {
  CHECK(error_of(quadratic + "ga:\n  populaton: 10\n") ==
        "run.yaml:3:3: ga.populaton: unknown key, expected one of (population, generations, seed, selection, "
        "crossover, mutation, elitism, constraint_handling, algorithm, survival, de, restarts, islands); did you mean population?");
}

TEST_CASE("error: duplicate key", "[config][errors]") {
  CHECK(error_of(quadratic + "ga: {population: 10, population: 20}\n") ==
        "run.yaml:2:22: ga.population: duplicate key (first at line 2, column 6)");
}

TEST_CASE("error: population < 2", "[config][errors]") {
  CHECK(error_of(quadratic + "ga:\n  population: 1\n") ==
        "run.yaml:3:15: ga.population: expected an integer >= 2, got 1");
  CHECK(error_of(quadratic + "ga:\n  population: 3000000000\n") ==
        "run.yaml:3:15: ga.population: expected an integer >= 2 (at most 2147483647), got 3000000000");
  // differential evolution needs 4, whether auto chose it (real genes, no GA key) or the config did
  CHECK(error_of(quadratic + "ga:\n  population: 3\n") ==
        "run.yaml:3:15: ga.population: expected at least 4 individuals for differential evolution (ga.algorithm auto "
        "chose it for real genes; ga.algorithm: ga runs from 2), got 3");
  CHECK(error_of(quadratic + "ga:\n  population: 2\n  algorithm: de\n") ==
        "run.yaml:3:15: ga.population: expected at least 4 individuals for differential evolution (ga.algorithm: "
        "de), got 2");
  CHECK_NOTHROW(parse_config(quadratic + "ga:\n  population: 3\n  algorithm: ga\n", "run.yaml"));
}

TEST_CASE("error: rate outside [0, 1]", "[config][errors]") {
  CHECK(error_of(quadratic + "ga:\n  population: 10\n  crossover: {type: sbx, rate: 1.5}\n") ==
        "run.yaml:4:32: ga.crossover.rate: expected a number in [0, 1], got 1.5");
  CHECK(error_of(quadratic + "ga: {mutation: {rate: autox}}\n") ==
        "run.yaml:2:23: ga.mutation.rate: expected a number in [0, 1] or auto, got autox");
}

TEST_CASE("error: tournament size > population", "[config][errors]") {
  CHECK(error_of(quadratic + "ga: {population: 10, selection: {size: 11}}\n") ==
        "run.yaml:2:40: ga.selection.size: expected an integer in [1, population = 10], got 11");
}

TEST_CASE("error: elitism >= population", "[config][errors]") {
  CHECK(error_of(quadratic + "ga: {population: 10, elitism: 10}\n") ==
        "run.yaml:2:31: ga.elitism: expected an integer in [0, population - 1 = 9], got 10");
}

TEST_CASE("error: unknown problem name lists the registered ones", "[config][errors]") {
  CHECK(error_of("problem: {builtin: no-such/problem}\n") ==
        "run.yaml:1:20: problem.builtin: expected a built-in problem, one of (" + registered_names() +
            "), got no-such/problem");
}

TEST_CASE("error: missing problem, or an incomplete expression problem", "[config][errors]") {
  const std::string missing = "problem: expected a map with builtin: NAME (NAME one of (" + registered_names() +
                              ")) or an expression problem (variables:, objective:, ...), got nothing";
  CHECK(error_of("ga: {}\n") == "run.yaml:1:1: " + missing);
  CHECK(error_of("threads: 2\nproblem:\n") == "run.yaml:2:1: " + missing);
  CHECK(
      error_of("problem:\n  objective: x + y\n") ==
      "run.yaml:2:3: problem: expected variables: for an expression problem (or builtin: NAME for a built-in problem)");
  CHECK(
      error_of("problem:\n  variables: {x: [0, 1]}\n") ==
      "run.yaml:2:3: problem: expected objective: for an expression problem (or builtin: NAME for a built-in problem)");
  CHECK(
      error_of("problem:\n  builtn: seed/gene-sum\n")
          .find("run.yaml:2:3: problem.builtn: unknown key, expected one of (builtin, params, name, sense, variables, "
                "constants, objective, constraints, engine); did you mean builtin?") != std::string::npos);
}

TEST_CASE("error: unknown operator name", "[config][errors]") {
  CHECK(error_of(quadratic + "ga:\n  crossover: {type: sbxx}\n") ==
        "run.yaml:3:21: ga.crossover.type: expected one of (sbx, blx-alpha, uniform, one-point, two-point), got sbxx; "
        "did you mean sbx?");
  CHECK(error_of(quadratic + "ga: {selection: {type: roulette}}\n") ==
        "run.yaml:2:24: ga.selection.type: expected one of (tournament), got roulette");
  CHECK(error_of(quadratic + "backend: gpu\n") ==
        "run.yaml:2:10: backend: expected one of (serial, tbb, cuda, auto), got gpu");
}

TEST_CASE("error: unknown problem param", "[config][errors]") {
  CHECK(error_of("problem: {builtin: seed/gene-sum, params: {gens: 2}}\n") ==
        "run.yaml:1:44: problem.params.gens: unknown parameter of seed/gene-sum, expected one of (genes); "
        "did you mean genes?");
  CHECK(error_of("problem: {builtin: seed/constrained-quadratic, params: {n: 2}}\n") ==
        "run.yaml:1:57: problem.params.n: unknown parameter, expected none (seed/constrained-quadratic takes no "
        "parameters)");
}

TEST_CASE("error: out-of-range or non-integer problem param", "[config][errors]") {
  const param_spec& genes = gene_sum_genes();
  const std::string expected = "run.yaml:2:44: problem.params.genes: expected an integer in [" +
                               integer_text(genes.min) + ", " + integer_text(genes.max) + "], got ";
  CHECK(error_of("problem:\n  {builtin: seed/gene-sum, params: {genes: 0}}\n") == expected + "0");
  CHECK(error_of("problem:\n  {builtin: seed/gene-sum, params: {genes: 2.5}}\n") == expected + "2.5");
}

TEST_CASE("error: wrong types", "[config][errors]") {
  CHECK(error_of(quadratic + "ga:\n  population: abc\n") ==
        "run.yaml:3:15: ga.population: expected an integer >= 2, got abc");
  CHECK(error_of(quadratic + "ga:\n  population: \"100\"\n") ==
        "run.yaml:3:15: ga.population: expected an integer >= 2, got \"100\"");
  CHECK(error_of(quadratic + "ga:\n  population:\n") ==
        "run.yaml:3:3: ga.population: expected an integer >= 2, got null");
  CHECK(error_of(quadratic + "ga:\n  selection: [1]\n") ==
        "run.yaml:3:14: ga.selection: expected a map (keys: type, size), got a list");
  CHECK(error_of(quadratic + "ga: {crossover: {rate: {x: 1}}}\n") ==
        "run.yaml:2:24: ga.crossover.rate: expected a number in [0, 1], got a map");
  CHECK(error_of(quadratic + "ga: {seed: -1}\n") ==
        "run.yaml:2:12: ga.seed: expected an integer in [0, 18446744073709551615], got -1");
  CHECK(error_of(quadratic + "stop: {target: .inf}\n") ==
        "run.yaml:2:16: stop.target: expected a finite number or null, got .inf");
  CHECK(error_of(quadratic + "output: {result: [a]}\n") ==
        "run.yaml:2:18: output.result: expected a file path or null, got a list");
  CHECK(
      error_of("[1, 2]\n") ==
      "run.yaml:1:1: expected a map of sections (problem, ga, stop, backend, precision, threads, device, output), got a list");
}

TEST_CASE("error: empty document", "[config][errors]") {
  const std::string expected =
      "run.yaml:1:1: expected a map of sections (problem, ga, stop, backend, precision, threads, device, output), got an empty "
      "document";
  CHECK(error_of("") == expected);
  CHECK(error_of("# nothing but a comment\n") == expected);
}

TEST_CASE("error: YAML syntax", "[config][errors]") {
  CHECK(error_of(quadratic + "ga: {population: [1, 2}\n") == "run.yaml:2:23: invalid YAML: illegal flow end");
  CHECK(error_of(quadratic + "---\nga: {}\n") ==
        "run.yaml:3:1: invalid YAML: expected a single document, got a second one");
  // a tab in the indentation, which yaml-cpp reports as something else
  CHECK_THAT(error_of(quadratic + "ga:\n\tpopulation: 10\n"),
             Catch::StartsWith("run.yaml:3:") &&
                 Catch::EndsWith("(line 3 is indented with a tab; YAML indents with spaces only)"));
}

TEST_CASE("error: sbx or polynomial on an integer problem, creep on a real one", "[config][errors]") {
  CHECK(error_of("problem: {builtin: seed/gene-sum}\nga:\n  crossover: {type: sbx}\n") ==
        "run.yaml:3:21: ga.crossover.type: expected a crossover for the integer genes of seed/gene-sum, one of "
        "(uniform, one-point, two-point), got sbx");
  CHECK(error_of("problem: {builtin: seed/gene-sum}\nga:\n  mutation: {type: polynomial}\n") ==
        "run.yaml:3:20: ga.mutation.type: expected a mutation for the integer genes of seed/gene-sum, one of "
        "(uniform-reset, creep), got polynomial");
  CHECK(error_of(quadratic + "ga:\n  mutation: {type: creep}\n") ==
        "run.yaml:3:20: ga.mutation.type: expected a mutation for the real genes of seed/constrained-quadratic, one "
        "of (polynomial, gaussian, uniform-reset), got creep");
}

TEST_CASE("error: operator names and keys come from the operator table", "[config][errors][catalog]") {
  // Built from the table (catalog.hpp): a new row shows up in these messages without touching the parser.
  for (const operator_family* f : operator_families) {
    std::string section = std::string(f->section).substr(3);  // "ga." dropped; a nested one as flow maps
    std::string close;
    for (std::size_t dot; (dot = section.find('.')) != std::string::npos; close += "}")
      section = section.substr(0, dot) + ": {" + section.substr(dot + 1);
    INFO(f->section);
    const auto yaml = [&](const std::string& body) { return quadratic + "ga:\n  " + section + ": " + body + close + "\n"; };
    const std::string given = error_of(yaml("{type: no-such-operator}"));
    CHECK_THAT(given, Catch::Contains(std::string(f->section) + ".type: expected one of (" + operator_names(*f) +
                                      "), got no-such-operator"));
    std::string keys = "type";
    for (const parameter_spec& p : f->common) keys += std::string(", ") + p.name;
    for (const operator_spec& row : f->rows)
      for (const parameter_spec& p : row.params)
        if (keys.find(p.name) == std::string::npos) keys += std::string(", ") + p.name;
    if (f == &constraint_family) keys += ", gradient_repair";  // its subsection
    if (f == &de_family) keys += ", crossover";                // a choice outside the table (bin, exp, alternate)
    CHECK_THAT(error_of(yaml("{zzz: 1}")),
               Catch::Contains(std::string(f->section) + ".zzz: unknown key, expected one of (" + keys + ")"));
  }
}

TEST_CASE("error: operator parameters outside the table's ranges", "[config][errors][catalog]") {
  CHECK(error_of(quadratic + "ga: {mutation: {type: gaussian, sigma: 0}}\n") ==
        "run.yaml:2:40: ga.mutation.sigma: expected a number > 0, got 0");
  CHECK(error_of("problem: {builtin: seed/gene-sum}\nga: {mutation: {type: creep, step: 1.5}}\n") ==
        "run.yaml:2:36: ga.mutation.step: expected an integer >= 1, got 1.5");
  CHECK(error_of(quadratic + "ga: {crossover: {type: blx-alpha, alpha: -1}}\n") ==
        "run.yaml:2:42: ga.crossover.alpha: expected a number >= 0, got -1");
  CHECK(error_of(quadratic + "ga: {constraint_handling: {type: penalty, weight: 0}}\n") ==
        "run.yaml:2:51: ga.constraint_handling.weight: expected a number > 0, got 0");
  const run_config c =
      parse_config(quadratic + "ga: {mutation: {type: gaussian, sigma: 0.25, rate: auto}}\n", "run.yaml");
  CHECK(c.ga.mutation.kind == mutation_kind::gaussian);
  CHECK(c.ga.mutation.sigma == 0.25);
  CHECK_FALSE(c.ga.mutation.rate.has_value());
}

TEST_CASE("validate: operator parameters checked against the table", "[config][errors][catalog]") {
  const auto message = [](auto&& set) {
    ga_options o;
    set(o);
    try {
      validate(o, 3, true);
    } catch (const config_error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(message([](ga_options&) {}) == "(no error)");
  CHECK(message([](ga_options& o) { o.crossover.eta = -1; }) == "ga.crossover.eta: expected a number >= 0, got -1");
  CHECK(message([](ga_options& o) { o.mutation.rate = 1.5; }) ==
        "ga.mutation.rate: expected a number in [0, 1] or auto, got 1.5");
  CHECK(message([](ga_options& o) { o.selection.tournament_size = 101; }) ==
        "ga.selection.size: expected an integer in [1, population = 100], got 101");
  CHECK(message([](ga_options& o) { o.mutation.kind = mutation_kind::creep; }) ==
        "ga.mutation.type: creep needs integer genes; for real genes use one of: polynomial, gaussian, uniform-reset");
}

TEST_CASE("validate: every parameter of the table, out of its range, is named", "[config][errors][catalog]") {
  // check_parameters finds each parameter's field once per family (validate.hpp): each one must still be read.
  const double population = double(ga_options{}.population);
  const auto each = [&](const operator_family& f, auto field_of) {
    const auto check = [&](const parameter_spec& p) {
      INFO(f.section << "." << p.name);
      const double hi = p.max_name ? population : p.max;
      const double bad = std::isfinite(hi) ? hi + 1 : p.min - 1;
      REQUIRE(std::isfinite(bad));
      ga_options o;
      REQUIRE(set_parameter(field_of(o), p.name, bad));
      std::string what = "(no error)";
      try {
        validate(o, 3, true);
      } catch (const config_error& e) {
        what = e.what();
      }
      CHECK(what.rfind(std::string(f.section) + "." + p.name + ": expected ", 0) == 0);
    };
    for (const parameter_spec& p : f.common) check(p);
    for (const operator_spec& row : f.rows)
      for (const parameter_spec& p : row.params) check(p);
  };
  each(selection_family, [](ga_options& o) -> auto& { return o.selection; });
  each(crossover_family, [](ga_options& o) -> auto& { return o.crossover; });
  each(mutation_family, [](ga_options& o) -> auto& { return o.mutation; });
  each(constraint_family, [](ga_options& o) -> auto& { return o.constraints; });
  each(gradient_repair_family, [](ga_options& o) -> auto& { return o.constraints.gradient_repair; });
  each(de_family, [](ga_options& o) -> auto& { return o.de; });
}

TEST_CASE("validate: each run option's message names it, its value and the range", "[config][errors]") {
  // Built only when thrown (validate.hpp, check_range): each message checked to the letter.
  const auto message = [](auto&& set, int dimension = 3, bool real = true) {
    ga_options o;
    set(o);
    try {
      validate(o, dimension, real);
    } catch (const config_error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const auto none = [](ga_options&) {};
  CHECK(message(none, 0) == "problem: dimension must be >= 1, got 0");
  CHECK(message([](ga_options& o) { o.population = 1; }) ==
        "ga.population: expected an integer in [2, 2147483647], got 1");
  CHECK(message([](ga_options& o) { o.generations = -1; }) == "ga.generations: expected an integer >= 0, got -1");
  CHECK(message([](ga_options& o) { o.elitism = 100; }) ==
        "ga.elitism: expected an integer in [0, population - 1 = 99], got 100");
  CHECK(message([](ga_options& o) { o.stop.evaluations = 99; }) ==
        "stop.evaluations: expected an integer >= population = 100 (the initial population is evaluated), got 99; from "
        "C++, measured_default::budget(d, population) is the default budget for a population");
  CHECK(message([](ga_options& o) { o.restarts.stall_generations = 0; }) ==
        "ga.restarts.stall_generations: expected an integer >= 1, got 0");
  CHECK(message([](ga_options& o) { o.restarts.population_growth = 0.5; }) ==
        "ga.restarts.population_growth: expected a number in [1, 1000000], got 0.5");
  CHECK(message([](ga_options& o) { o.restarts.convergence_tolerance = 2; }) ==
        "ga.restarts.convergence_tolerance: expected a number in [0, 1], got 2");
  CHECK(message([](ga_options& o) { o.restarts.max_stall_generations = 4; }) ==
        std::string("ga.restarts.max_stall_generations: ") + detail::max_stall_needs_tolerance);
  CHECK(message([](ga_options& o) {
          o.restarts.convergence_tolerance = 0.1;
          o.restarts.stall_generations = 5;
          o.restarts.max_stall_generations = 4;
        }) == "ga.restarts.max_stall_generations: expected an integer >= stall_generations = 5, got 4");
  CHECK(message([](ga_options& o) {
          o.algorithm = algorithm_kind::de;
          o.population = 3;
          o.elitism = 0;
        }) == "ga.population: differential evolution needs at least 4 individuals, got 3");
  CHECK(message([](ga_options& o) { o.stop.time_limit_s = 0; }) ==
        "stop.time_limit_s: expected a number of seconds > 0, got 0");
  CHECK(message([](ga_options& o) { o.stop.target = std::numeric_limits<double>::quiet_NaN(); }) ==
        "stop.target: expected a finite number, got NaN");
  CHECK(message([](ga_options& o) { o.stop.target = -std::numeric_limits<double>::infinity(); }) ==
        "stop.target: expected a finite number, got -inf");
}

TEST_CASE("survival, algorithm and de sections", "[config][survival][de]") {
  run_config c = parse_config(quadratic + "ga: {survival: plus}\n", "run.yaml");
  CHECK(c.ga.survival.kind == survival_kind::plus);
  c = parse_config(quadratic + "ga: {survival: {type: generational}, elitism: 3}\n", "run.yaml");
  CHECK(c.ga.survival.kind == survival_kind::generational);
  CHECK(c.ga.algorithm == algorithm_kind::ga);
  c = parse_config(quadratic + "ga:\n  algorithm: de\n  de: {type: rand/1/bin, F: 0.7, CR: 0.3}\n", "run.yaml");
  CHECK(c.ga.algorithm == algorithm_kind::de);
  CHECK(c.ga.de.strategy == de_strategy::rand_1_bin);
  CHECK(c.ga.de.F == 0.7);
  CHECK(c.ga.de.CR == 0.3);
  c = parse_config(quadratic + "ga: {algorithm: de}\n", "run.yaml");
  CHECK(c.ga.de.strategy == de_strategy::shade);  // the default strategy
  CHECK(c.ga.de.memory == 6);
  c = parse_config(quadratic + "ga: {algorithm: de, de: {type: shade, crossover: exp}}\n", "run.yaml");
  CHECK(c.ga.de.crossover == de_crossover::exp);
  c = parse_config(quadratic + "ga: {algorithm: de, de: {type: current-to-pbest/1, crossover: alternate}}\n",
                   "run.yaml");
  CHECK(c.ga.de.crossover == de_crossover::alternate);
}

TEST_CASE("error: survival, algorithm and de combinations", "[config][errors][survival][de]") {
  CHECK(error_of(quadratic + "ga: {survival: plus, elitism: 2}\n") ==
        "run.yaml:2:31: ga.elitism: does not apply to survival plus: the best N of parents and children survive, so "
        "the best is never lost; remove elitism or use survival: generational");
  CHECK(error_of(quadratic + "ga: {survival: comma}\n") ==
        "run.yaml:2:16: ga.survival: expected one of (generational, plus), got comma");
  CHECK(error_of(quadratic + "ga: {algorithm: de, de: {type: rand/1/bin, crossover: exp}}\n") ==
        "run.yaml:2:55: ga.de.crossover: rand/1/bin is binomial by name; exp needs type current-to-pbest/1 or shade");
  CHECK(error_of(quadratic + "ga: {algorithm: de, de: {crossover: uniform}}\n") ==
        "run.yaml:2:37: ga.de.crossover: expected one of (bin, exp, alternate), got uniform");
  CHECK(error_of(quadratic + "ga: {algorithm: es}\n") ==
        "run.yaml:2:17: ga.algorithm: expected one of (auto, ga, de), got es");  // 2 edits from ga: no guess
  CHECK(error_of(quadratic + "ga: {algorithm: DE}\n") ==
        "run.yaml:2:17: ga.algorithm: expected one of (auto, ga, de), got DE; did you mean de?");
  CHECK(error_of(quadratic + "ga: {algorithm: ga, de: {type: shade}}\n") ==
        "run.yaml:2:25: ga.de: differential evolution settings need ga.algorithm: de (the run is a GA)");
  CHECK(error_of(quadratic + "ga: {elitism: 2, de: {type: shade}}\n") ==
        "run.yaml:2:22: ga.de: differential evolution settings need ga.algorithm: de (ga.algorithm auto chose ga: "
        "ga.elitism is set, a GA operator)");
  CHECK(error_of(quadratic + "ga: {algorithm: de, crossover: {type: sbx}}\n") ==
        "run.yaml:2:32: ga.crossover: does not apply to differential evolution (ga.algorithm: de uses ga.de and "
        "one-to-one survival)");
  CHECK(error_of(quadratic + "ga: {algorithm: de, de: {type: rand/1/bin, F: 3}}\n") ==
        "run.yaml:2:47: ga.de.F: expected a number in (0, 2], got 3");
  CHECK(error_of("problem: {builtin: seed/gene-sum}\nga: {algorithm: de}\n") ==
        "run.yaml:2:17: ga.algorithm: expected ga or auto for the integer genes of seed/gene-sum (differential "
        "evolution needs real genes), got de");
}

TEST_CASE("ga.algorithm auto: DE with the measured defaults, else GA", "[config][de][auto]") {
  const std::string serial = "backend: serial\n";
  // Real genes, no GA operator: SHADE, BIPOP restarts (100, x2), gradient repair 0.2 (constrained, CPU backend),
  // population d = 3 clamped to [50, 100].
  for (const std::string& ga : {std::string(), std::string("ga: {algorithm: auto}\n")}) {
    const run_config c = parse_config(quadratic + ga + serial, "run.yaml");
    CHECK(c.ga.algorithm == algorithm_kind::de);
    CHECK(c.ga.de.strategy == de_strategy::shade);
    REQUIRE(c.ga.restarts.stall_generations);
    CHECK(*c.ga.restarts.stall_generations == 100);
    CHECK(c.ga.restarts.population_growth == 2);
    CHECK(c.ga.restarts.schedule == restart_schedule::bipop);
    CHECK(c.ga.restarts.convergence_tolerance == 1e-8);  // restarts wait for a converged population
    CHECK(c.ga.population == 50);
    CHECK(c.choice.population == "auto: the problem's dimension 3, clamped to [50, 100]");
    CHECK_FALSE(c.ga.restarts.max_stall_generations);    // 5 x 100
    CHECK(c.ga.constraints.gradient_repair.rate == 0.2);
    CHECK(c.choice.automatic);
    CHECK(c.choice.reason ==
          "auto: real genes, no GA operator set; the best measured on docs/quality.md's suite");
    CHECK(c.choice.repair == "auto: the measured default");
  }
  // Integer variables of an expression problem are real genes: DE still, and --explain says why.
  const run_config lattice = parse_config(
      "problem: {variables: {n: {bounds: [0, 9], integer: true}}, objective: (n - 3.4)^2}\n" + serial, "run.yaml");
  CHECK(lattice.ga.algorithm == algorithm_kind::de);
  CHECK(lattice.choice.reason ==
        "auto: real genes (its integer variables are real genes kept integral), no GA "
        "operator set; the best measured on docs/quality.md's suite");
  // The population is d between 50 and 100, and only where auto's DE runs without a population or islands given.
  const auto population_of = [&](const std::string& text) { return parse_config(text + serial, "run.yaml").ga.population; };
  const std::string rastrigin = "problem: {builtin: classic/rastrigin, params: {dimension: ";
  CHECK(population_of(rastrigin + "70}}\n") == 70);
  CHECK(population_of(rastrigin + "400}}\n") == 100);
  CHECK(population_of("problem: {variables: {x: {size: 64, bounds: [0, 1]}}, objective: \"sum(i=0:63, x[i])\"}\n") == 64);
  CHECK(population_of(rastrigin + "70}}\nga: {population: 30}\n") == 30);
  CHECK(population_of(rastrigin + "70}}\nga: {algorithm: de}\n") == 100);
  CHECK(population_of(rastrigin + "70}}\nga: {crossover: {type: sbx}}\n") == 100);
  CHECK(population_of(rastrigin + "70}}\nga: {islands: {count: 2}}\n") == 100);
  // Islands keep IPOP (measured so, docs/islands.md).
  CHECK(parse_config(rastrigin + "70}}\nga: {islands: {count: 2}}\n" + serial, "run.yaml").ga.restarts.schedule ==
        restart_schedule::ipop);
  CHECK(parse_config(rastrigin + "70}}\nga: {population: 30}\n" + serial, "run.yaml").choice.population.empty());
  // Exponential crossover on BIPOP's small starts at any d, where none is given, on one population.
  const auto de_of = [&](const std::string& text) { return parse_config(text + serial, "run.yaml").ga.de; };
  CHECK(de_of(quadratic).crossover == de_crossover::alternate);
  CHECK(de_of(rastrigin + "50}}\n").crossover == de_crossover::alternate);
  CHECK(de_of(rastrigin + "100}}\n").crossover == de_crossover::alternate);
  CHECK(de_of(rastrigin + "30}}\nga: {de: {crossover: exp}}\n").crossover == de_crossover::exp);
  CHECK(de_of(rastrigin + "30}}\nga: {algorithm: de}\n").crossover == de_crossover::bin);
  CHECK(de_of(rastrigin + "30}}\nga: {islands: {count: 2}}\n").crossover == de_crossover::bin);
  // SHADE's memory 20 where none is given, on one population under auto; 6 otherwise.
  CHECK(de_of(quadratic).memory == 20);
  CHECK(de_of(rastrigin + "100}}\n").memory == 20);
  CHECK(de_of(rastrigin + "30}}\nga: {de: {memory: 6}}\n").memory == 6);
  CHECK(de_of(rastrigin + "30}}\nga: {de: {crossover: bin}}\n").memory == 20);
  CHECK(de_of(rastrigin + "30}}\nga: {algorithm: de}\n").memory == 6);
  CHECK(de_of(rastrigin + "30}}\nga: {islands: {count: 2}}\n").memory == 6);
  // L-SHADE's archive of 2.6 N where none is given and N <= d, on one population under auto; N otherwise.
  CHECK(de_of(quadratic).archive == 1);  // N 50 > d 3
  CHECK(de_of(rastrigin + "30}}\n").archive == 1);
  CHECK(de_of(rastrigin + "50}}\n").archive == 2.6);
  CHECK(de_of(rastrigin + "100}}\n").archive == 2.6);
  CHECK(de_of(rastrigin + "400}}\n").archive == 2.6);
  CHECK(de_of(rastrigin + "30}}\nga: {population: 30}\n").archive == 2.6);
  CHECK(de_of(rastrigin + "30}}\nga: {population: 31}\n").archive == 1);
  CHECK(de_of(rastrigin + "100}}\nga: {de: {archive: 1}}\n").archive == 1);
  CHECK(de_of(rastrigin + "100}}\nga: {de: {memory: 6}}\n").archive == 2.6);
  CHECK(de_of(rastrigin + "100}}\nga: {algorithm: de}\n").archive == 1);
  CHECK(de_of(rastrigin + "100}}\nga: {islands: {count: 2}}\n").archive == 1);
  // --explain's reason lists what auto set of ga.de, and only that.
  const auto de_reason = [&](const std::string& text) { return parse_config(text + serial, "run.yaml").choice.de; };
  CHECK(de_reason(quadratic) == "auto: crossover alternate, memory 20");
  CHECK(de_reason(rastrigin + "60}}\n") ==
        "auto: crossover alternate, memory 20, archive 2.6 (L-SHADE's 2.6 N, as the population 60 is at most the "
        "dimension 60)");
  CHECK(de_reason(rastrigin + "100}}\nga: {de: {memory: 6, crossover: bin}}\n") ==
        "auto: archive 2.6 (L-SHADE's 2.6 N, as the population 100 is at most the dimension 100)");
  CHECK(de_reason(rastrigin + "100}}\nga: {de: {memory: 6, crossover: bin, archive: 1}}\n").empty());
  CHECK(de_reason(rastrigin + "100}}\nga: {algorithm: de}\n").empty());
  CHECK(de_reason(rastrigin + "100}}\nga: {islands: {count: 2}}\n").empty());
  // Integer genes: the GA, nothing else changed.
  run_config c = parse_config("problem: {builtin: seed/gene-sum}\n" + serial, "run.yaml");
  CHECK(c.ga.algorithm == algorithm_kind::ga);
  CHECK(c.ga.population == 100);
  CHECK(c.choice.reason == "auto: integer genes; differential evolution needs real genes");
  CHECK_FALSE(c.ga.restarts.stall_generations);
  CHECK(c.ga.constraints.gradient_repair.rate == 0);
  // A GA-only key: the GA with its own defaults, no restarts, no repair.
  c = parse_config(quadratic + "ga: {mutation: {eta: 30}}\n" + serial, "run.yaml");
  CHECK(c.ga.algorithm == algorithm_kind::ga);
  CHECK(c.choice.reason == "auto: ga.mutation is set, a GA operator");
  CHECK_FALSE(c.ga.restarts.stall_generations);
  CHECK(c.ga.constraints.gradient_repair.rate == 0);
  CHECK(c.choice.repair.empty());
  // Stochastic ranking compares in the GA's tournaments: auto takes the GA; explicit de is a located error.
  c = parse_config(quadratic + "ga: {constraint_handling: {type: stochastic-ranking}}\n" + serial, "run.yaml");
  CHECK(c.ga.algorithm == algorithm_kind::ga);
  CHECK(c.choice.reason ==
        "auto: ga.constraint_handling.type is stochastic-ranking, which compares in the GA's tournaments");
  CHECK_THROWS_WITH(
      parse_config(quadratic + "ga: {algorithm: de, constraint_handling: {type: stochastic-ranking}}\n", "run.yaml"),
      Catch::StartsWith("run.yaml:2:") &&
          Catch::Contains("ga.constraint_handling: stochastic-ranking compares in the GA's tournaments, "
                          "and differential evolution's one-to-one survival has none"));
  // Explicit choices are not touched: de without restarts or repair, as before auto existed.
  c = parse_config(quadratic + "ga: {algorithm: de}\n" + serial, "run.yaml");
  CHECK_FALSE(c.choice.automatic);
  CHECK_FALSE(c.ga.restarts.stall_generations);
  CHECK(c.ga.constraints.gradient_repair.rate == 0);
  // On the GPU the repair default is 0 (the repair runs on the CPU backends only).
  c = parse_config(quadratic + "backend: cuda\n", "run.yaml");
  CHECK(c.ga.algorithm == algorithm_kind::de);
  CHECK(c.ga.constraints.gradient_repair.rate == 0);
  CHECK(c.choice.repair ==
        "auto: 0 on the GPU, where the repair's cost is not yet measured (0.2 on the CPU backends; "
        "set rate: 0.2 to repair on the GPU too)");
  c = parse_config(quadratic + "backend: auto\n", "run.yaml");
  const bool gpu = resolve_backend(backend_kind::automatic) == backend_kind::cuda;
  CHECK(c.ga.constraints.gradient_repair.rate == (gpu ? 0.0 : 0.2));
  // No constraints: no repair.
  c = parse_config("problem: {builtin: classic/sphere}\n" + serial, "run.yaml");
  CHECK(c.ga.algorithm == algorithm_kind::de);
  CHECK(c.ga.constraints.gradient_repair.rate == 0);
  CHECK(c.choice.repair == "auto: none, the problem has no constraints");
  const std::string expression = "problem: {variables: {x: [0, 1], y: [0, 1]}, objective: \"x + y\"";
  CHECK(parse_config(expression + "}\n" + serial, "run.yaml").ga.constraints.gradient_repair.rate == 0);
  CHECK(parse_config(expression + ", constraints: [\"x >= y\"]}\n" + serial, "run.yaml")
            .ga.constraints.gradient_repair.rate == 0.2);
  // What the user sets wins.
  c = parse_config(quadratic +
                       "ga: {restarts: {stall_generations: 7}, de: {type: rand/1/bin},\n"
                       "     constraint_handling: {gradient_repair: {rate: 0.05}}}\n" + serial,
                   "run.yaml");
  CHECK(c.ga.algorithm == algorithm_kind::de);
  CHECK(c.ga.de.strategy == de_strategy::rand_1_bin);
  CHECK(*c.ga.restarts.stall_generations == 7);
  CHECK(c.choice.restarts.empty());
  CHECK(c.ga.constraints.gradient_repair.rate == 0.05);
  CHECK(c.choice.repair.empty());
  c = parse_config(quadratic + "ga: {restarts: null}\n" + serial, "run.yaml");
  CHECK(c.ga.algorithm == algorithm_kind::de);
  CHECK_FALSE(c.ga.restarts.stall_generations);
  // The C++ defaults keep the GA (the library API is unchanged).
  CHECK(ga_options{}.algorithm == algorithm_kind::ga);
}

// ------------------------------------------------------------------ --set overrides

TEST_CASE("overrides (--set) are applied before validation", "[config][set]") {
  const run_config c =
      parse_config(quadratic + "ga: {population: 1}\n", "run.yaml",
                   {"ga.population=50", "stop.target=3.5", "ga.crossover={type: uniform, rate: 0.5}",
                    "output.result=r.json", "problem.builtin=classic/sphere", "problem.params.dimension=7"});
  CHECK(c.ga.population == 50);
  CHECK(c.ga.stop.target == std::optional<double>(3.5));
  CHECK(c.ga.crossover.kind == crossover_kind::uniform);
  CHECK(c.ga.crossover.rate == 0.5);
  CHECK(c.output.result == std::optional<std::string>("r.json"));
  CHECK(c.problem.builtin == "classic/sphere");
  CHECK(c.problem.params.at("dimension") == 7);
  CHECK(parse_config(quadratic, "run.yaml", {" ga.population = 30"}).ga.population == 30);
  CHECK(parse_config(quadratic, "run.yaml", {"ga.mutation.rate=\"auto\""}).ga.mutation.rate == std::nullopt);
  // The later of two overrides of one key wins.
  CHECK(parse_config(quadratic, "run.yaml", {"ga.generations=5", "ga.generations=6"}).ga.generations == 6);
}

TEST_CASE("error: malformed --set", "[config][set][errors]") {
  CHECK(error_of(quadratic, {"ga.population"}) == "--set 'ga.population': expected key.path=value");
  CHECK(error_of(quadratic, {"=3"}) == "--set '=3': expected key.path=value");
  CHECK(error_of(quadratic, {"ga..population=3"}) == "--set 'ga..population=3': expected key.path=value");
  CHECK(error_of(quadratic, {" =3"}) == "--set ' =3': expected key.path=value");
  CHECK(error_of(quadratic, {"problem.constraints[1]=x <= 3"}) ==
        "--set 'problem.constraints[1]=x <= 3': problem.constraints: --set replaces a list whole, not one entry: give "
        "problem.constraints=[...] with every entry");
}

TEST_CASE("error: invalid --set value", "[config][set][errors]") {
  CHECK(error_of(quadratic, {"ga.population=abc"}) ==
        "--set ga.population=abc: ga.population: expected an integer >= 2, got abc");
  CHECK(error_of(quadratic, {"ga={population: 1}"}) ==
        "--set ga={population: 1}: ga.population: expected an integer >= 2, got 1");
  CHECK(error_of(quadratic, {"ga.crossovr.type=sbx"}) ==
        "--set ga.crossovr.type=sbx: ga.crossovr: unknown key, expected one of (population, generations, seed, "
        "selection, crossover, mutation, elitism, constraint_handling, algorithm, survival, de, restarts, islands); did you mean crossover?");
  CHECK(error_of(quadratic + "ga: {population: 50}\n", {"ga.population.x=3"}) ==
        "--set ga.population.x=3: ga.population: expected a map, got 50");
  CHECK(error_of(quadratic, {"ga.population=[1,"}) ==
        "--set ga.population=[1,: ga.population: expected a YAML value, got [1, (end of sequence flow not found)");
  // Values from the file keep their file location next to an override.
  CHECK(error_of(quadratic + "ga:\n  population: 1\n", {"ga.generations=5"}) ==
        "run.yaml:3:15: ga.population: expected an integer >= 2, got 1");
}

// ------------------------------------------------------------------ load_config

TEST_CASE("load_config reads a file and names it in errors", "[config][file]") {
  const auto dir = std::filesystem::temp_directory_path() / "fusedga_test_parse_config";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "run.yaml").string();
  {
    std::ofstream out(path);
    out << quadratic << "ga:\n  population: 1\n";
  }
  try {
    load_config(path);
    FAIL("expected a config_error");
  } catch (const config_error& e) {
    CHECK(std::string(e.what()) == path + ":3:15: ga.population: expected an integer >= 2, got 1");
  }
  const run_config c = load_config(path, {"ga.population=20"});
  CHECK(c.source == path);
  CHECK(c.ga.population == 20);

  const std::string missing = (dir / "missing.yaml").string();
  CHECK_THROWS_WITH(load_config(missing), missing + ": cannot read config file: No such file or directory");
  CHECK_THROWS_WITH(load_config(dir.string()), dir.string() + ": cannot read config file: is a directory");
  std::filesystem::remove_all(dir);
}

// yaml-cpp 0.7's LoadAll loops forever (allocating) on a ',' that starts a document: refused before it runs.
TEST_CASE("error: a ',' starting a document is refused", "[config][errors]") {
  const std::string flow = "invalid YAML: ',' outside a flow collection ([...] or {...})";
  CHECK(error_of(",") == "run.yaml:1:1: " + flow);
  CHECK(error_of("# comment\n\n  , a\n") == "run.yaml:3:3: " + flow);
  CHECK(error_of("--- ,\n") == "run.yaml:1:5: " + flow);
  CHECK(error_of(quadratic + "---\n# second\n,\n") == "run.yaml:4:1: " + flow);
  // a ',' later in a document reaches the YAML parser, which reports it
  CHECK(error_of("a: 1\n, b\n").find("invalid YAML") != std::string::npos);
  // and commas inside flow collections and block scalars are text as usual
  CHECK(error_of(quadratic + "ga: {population: 10, generations: 5}\n") == "(no error)");
}

// Found by the config fuzzer: a ',' that yaml-cpp cannot consume after a document's root made LoadAll loop too.
// Documents are now counted by parsing at most two.
TEST_CASE("error: a ',' after a document's root is a second document, not a hang", "[config][errors]") {
  const std::string second = "invalid YAML: expected a single document, got a second one";
  CHECK(error_of("|\n-\n, yy") == "run.yaml:2:1: " + second);
  CHECK(error_of(quadratic + "---\nga: {}\n") == "run.yaml:3:1: " + second);
  CHECK(error_of("a: [1\n") .find("run.yaml:") == 0);  // a syntax error in the first document is still located
}

TEST_CASE("error: binary data is named, with where", "[config][errors]") {
  CHECK(error_of(std::string("problem:\n  b\0x", 14)) ==
        "run.yaml:2:4: binary data (a NUL byte); expected a YAML text file");
}

TEST_CASE("error: an endless or huge config file fails fast", "[config][errors]") {
  try {
    load_config("/dev/zero");
    FAIL("no error");
  } catch (const config_error& e) {
    CHECK(std::string(e.what()) == "/dev/zero: not a config file: larger than 16 MiB");
  }
}

TEST_CASE("error: a problem name that is not UTF-8", "[config][errors]") {
  const std::string expr = "problem:\n  name: \"bad\xff\"\n  variables: {x: [0, 1]}\n  objective: \"x\"\n";
  CHECK(error_of(expr) ==
        "run.yaml:2:9: problem.name: expected a problem name in UTF-8 (it is written to the result "
        "JSON), got invalid UTF-8");
}

TEST_CASE("valid_utf8 follows RFC 3629", "[config]") {
  using fusedga::detail::valid_utf8;
  CHECK(valid_utf8(""));
  CHECK(valid_utf8("seed/gene-sum"));
  CHECK(valid_utf8("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));  // été € 😀
  CHECK_FALSE(valid_utf8("\xff"));                                       // never a UTF-8 byte
  CHECK_FALSE(valid_utf8("\xc3"));                                       // truncated
  CHECK_FALSE(valid_utf8("\xc0\xaf"));                                   // overlong '/'
  CHECK_FALSE(valid_utf8("\xed\xa0\x80"));                               // surrogate U+D800
  CHECK_FALSE(valid_utf8("\xf4\x90\x80\x80"));                           // above U+10FFFF
  CHECK_FALSE(valid_utf8("a\x80" "b"));                                     // lone continuation byte
}

TEST_CASE("stop.evaluations and ga.restarts are read", "[config][budget][restarts]") {
  const run_config c = parse_config(
      "problem: {builtin: seed/constrained-quadratic}\n"
      "ga: {population: 100, restarts: {stall_generations: 30, population_growth: 1.5}}\n"
      "stop: {evaluations: 5e5}\n",
      "run.yaml");
  REQUIRE(c.ga.stop.evaluations.has_value());
  CHECK(*c.ga.stop.evaluations == 500000u);
  REQUIRE(c.ga.restarts.stall_generations.has_value());
  CHECK(*c.ga.restarts.stall_generations == 30);
  CHECK(c.ga.restarts.population_growth == 1.5);
  CHECK_FALSE(c.ga.restarts.convergence_tolerance);  // given restarts: end at the stall, as written
  CHECK(c.ga.restarts.schedule == restart_schedule::ipop);
  CHECK(parse_config("problem: {builtin: seed/constrained-quadratic}\n"
                     "ga: {restarts: {stall_generations: 30, schedule: bipop}}\n",
                     "run.yaml")
            .ga.restarts.schedule == restart_schedule::bipop);
  const run_config w = parse_config(
      "problem: {builtin: seed/constrained-quadratic}\n"
      "ga: {restarts: {stall_generations: 30, convergence_tolerance: 1e-6, max_stall_generations: 90}}\n",
      "run.yaml");
  CHECK(w.ga.restarts.convergence_tolerance == 1e-6);
  CHECK(w.ga.restarts.max_stall_generations == 90);
  const run_config d =
      parse_config("problem: {builtin: seed/constrained-quadratic}\nga: {algorithm: ga, restarts: null}\n", "run.yaml");
  CHECK_FALSE(d.ga.restarts.stall_generations.has_value());
  CHECK_FALSE(d.ga.stop.evaluations.has_value());
  CHECK(d.ga.generations == 300);
}

TEST_CASE("stop.evaluations without ga.generations lifts the generation limit", "[config][budget]") {
  const std::string problem = "problem: {builtin: seed/constrained-quadratic}\n";
  const auto generations_of = [&](const std::string& text) {
    return parse_config(problem + text, "run.yaml").ga.generations;
  };
  constexpr int unlimited = std::numeric_limits<int>::max();
  CHECK(generations_of("stop: {evaluations: 5e5}\n") == unlimited);
  CHECK(generations_of("ga: {population: 20}\nstop: {evaluations: 5e5, target: 1}\n") == unlimited);
  CHECK(generations_of("ga: {generations: 300}\nstop: {evaluations: 5e5}\n") == 300);  // given: kept
  CHECK(generations_of("ga: {generations: 0}\nstop: {evaluations: 5e5}\n") == 0);
  CHECK(generations_of("ga: {algorithm: ga}\nstop: {evaluations: null}\n") == 300);
  CHECK(generations_of("ga: {algorithm: ga}\nstop: {time_limit_s: 10, target: 1}\n") == 300);       // no budget: 300
  CHECK(parse_config(problem, "run.yaml", {"stop.evaluations=1000"}).ga.generations == unlimited);  // --set alike
  CHECK(parse_config(problem, "run.yaml", {"stop.evaluations=1000", "ga.generations=7"}).ga.generations == 7);
}

TEST_CASE("auto's DE given no run length gets a budget of 10^4·d evaluations", "[config][budget][auto]") {
  const std::string serial = "backend: serial\n";
  const auto parsed = [&](const std::string& text) { return parse_config(text + serial, "run.yaml"); };
  const run_config c = parsed("problem: {builtin: seed/constrained-quadratic}\n");  // d = 3
  CHECK(c.ga.algorithm == algorithm_kind::de);
  CHECK(c.ga.stop.evaluations == 30000u);
  CHECK(c.ga.generations == std::numeric_limits<int>::max());
  CHECK(c.choice.budget ==
        "auto: 10^4 x the dimension 3 evaluations (CEC's MaxFES), as neither ga.generations nor stop.evaluations is "
        "given");
  const std::string rastrigin = "problem: {builtin: classic/rastrigin, params: {dimension: 30}}\n";
  CHECK(parsed(rastrigin).ga.stop.evaluations == 300000u);
  CHECK(parsed(rastrigin + "ga: {islands: {count: 2}}\n").ga.stop.evaluations == 300000u);
  // A run length given, or not auto's DE: no budget chosen.
  for (const char* ga :
       {"ga: {generations: 300}\n", "ga: {algorithm: de}\n", "ga: {algorithm: ga}\n", "ga: {elitism: 3}\n"}) {
    const run_config g = parsed(rastrigin + ga);
    CHECK_FALSE(g.ga.stop.evaluations.has_value());
    CHECK(g.choice.budget.empty());
  }
  const run_config given = parsed(rastrigin + "stop: {evaluations: 1000}\n");
  CHECK(given.ga.stop.evaluations == 1000u);
  CHECK(given.choice.budget.empty());
  CHECK_FALSE(parsed("problem: {builtin: seed/gene-sum}\n").ga.stop.evaluations.has_value());  // integer genes: GA
}

TEST_CASE("error: a budget below the population, or malformed restarts", "[config][errors][budget][restarts]") {
  const std::string head = "problem: {builtin: seed/constrained-quadratic}\nga: {population: 100";
  CHECK(error_of(head + "}\nstop: {evaluations: 99}\n") ==
        "run.yaml:3:21: stop.evaluations: expected an integer >= population = 100 or null, got 99");
  CHECK(error_of(head + "}\nstop: {evaluations: 1000.5}\n") ==
        "run.yaml:3:21: stop.evaluations: expected an integer >= population = 100 or null, got 1000.5");
  CHECK(error_of(head + ", restarts: {population_growth: 2}}\n") ==
        "run.yaml:2:33: ga.restarts: expected a map with stall_generations (an integer >= 1) and optionally "
        "population_growth, schedule, convergence_tolerance, max_stall_generations, or null, got a map without "
        "stall_generations");
  CHECK(error_of(head + ", restarts: {stall_generations: 5, schedule: bi-pop}}\n") ==
        "run.yaml:2:66: ga.restarts.schedule: expected one of (ipop, bipop), got bi-pop; did you mean bipop?");
  CHECK_THAT(error_of(head + ", restarts: {stall_generations: 0}}\n"),
             Catch::Contains("ga.restarts.stall_generations: expected an integer >= 1, got 0"));
  CHECK_THAT(error_of(head + ", restarts: {stall_generations: 5, population_growth: 0.5}}\n"),
             Catch::Contains("ga.restarts.population_growth: expected a number in [1, 1000000], got 0.5"));
  CHECK_THAT(error_of(head + ", restarts: {stall: 5}}\n"), Catch::Contains("ga.restarts.stall"));
  CHECK(error_of(head + ", restarts: {stall_generations: 5, convergence_tolerance: 2}}\n") ==
        "run.yaml:2:79: ga.restarts.convergence_tolerance: expected a number in [0, 1], got 2");
  CHECK(error_of(head + ", restarts: {stall_generations: 5, max_stall_generations: 50}}\n") ==
        "run.yaml:2:79: ga.restarts.max_stall_generations: max_stall_generations needs convergence_tolerance "
        "(without it, a start ends at stall_generations)");
  CHECK(error_of(head + ", restarts: {stall_generations: 5, convergence_tolerance: 0, max_stall_generations: 4}}\n") ==
        "run.yaml:2:105: ga.restarts.max_stall_generations: expected an integer >= 5, got 4");
}
