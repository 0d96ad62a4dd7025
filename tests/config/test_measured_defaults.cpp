// fusedga::measured_defaults (engine/measured_defaults.hpp): a C++ caller gets the options ga-run's
// `ga.algorithm: auto` resolves to for the same problem, and the same run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "config/batch_specs.hpp"
#include "engine/same_result.hpp"
#include "fusedga/config/batch_entry.hpp"
#include "fusedga/config/registry.hpp"
#include "fusedga/config/run_config.hpp"
#include "fusedga/engine/measured_defaults.hpp"
#include "fusedga/problems/classic/rastrigin.hpp"
#include "fusedga/problems/engineering/pressure_vessel.hpp"
#include "fusedga/problems/seed/constrained_quadratic.hpp"
#include "fusedga/problems/seed/gene_sum.hpp"
#include "fusedga/solve.hpp"

using namespace fusedga;

namespace {

/// Every search setting auto may set, compared field by field.
void require_same_search(const ga_options& a, const ga_options& b) {
  CHECK(a.algorithm == b.algorithm);
  CHECK(a.population == b.population);
  CHECK(a.generations == b.generations);
  CHECK(a.seed == b.seed);
  CHECK(a.elitism == b.elitism);
  CHECK(a.selection.tournament_size == b.selection.tournament_size);
  CHECK(a.crossover.kind == b.crossover.kind);
  CHECK(a.mutation.kind == b.mutation.kind);
  CHECK(a.mutation.rate == b.mutation.rate);
  CHECK(a.survival.kind == b.survival.kind);
  CHECK(a.constraints.rule == b.constraints.rule);
  CHECK(a.constraints.gradient_repair.rate == b.constraints.gradient_repair.rate);
  CHECK(a.constraints.gradient_repair.iterations == b.constraints.gradient_repair.iterations);
  CHECK(a.de.strategy == b.de.strategy);
  CHECK(a.de.archive == b.de.archive);
  CHECK(a.de.memory == b.de.memory);
  CHECK(a.de.crossover == b.de.crossover);
  CHECK(a.de.pbest == b.de.pbest);
  CHECK(a.restarts.stall_generations == b.restarts.stall_generations);
  CHECK(a.restarts.population_growth == b.restarts.population_growth);
  CHECK(a.restarts.schedule == b.restarts.schedule);
  CHECK(a.restarts.convergence_tolerance == b.restarts.convergence_tolerance);
  CHECK(a.restarts.max_stall_generations == b.restarts.max_stall_generations);
  CHECK(a.stop.evaluations == b.stop.evaluations);
  CHECK(a.stop.target == b.stop.target);
  CHECK(a.islands.count == b.islands.count);
}

/// The pressure vessel without its `jacobian` member: the gradient repair takes its Jacobian by differences.
struct vessel_by_differences {
  using gene_type = double;
  static constexpr Sense sense = Sense::minimize;
  problems::PressureVessel<double> vessel;
  int dimension() const { return vessel.dimension(); }
  int inequality_count() const { return vessel.inequality_count(); }
  Bounds<double> bounds() const { return vessel.bounds(); }
  template <class X>
  double objective(const X& v) const {
    return vessel.objective(v);
  }
  template <class X, class G>
  void inequalities(const X& v, G& g) const {
    vessel.inequalities(v, g);
  }
};

ga_options ga_run_default(const std::string& problem) {
  return parse_config("problem: " + problem + "\nbackend: serial\n", "run.yaml").ga;
}

}  // namespace

TEST_CASE("measured defaults: the options ga-run's auto resolves to", "[config][defaults]") {
  SECTION("constrained real genes, d = 3: DE with the repair, population 50, a budget of 10^4 · d") {
    const ga_options o = measured_defaults(problems::ConstrainedQuadratic{});
    CHECK(o.algorithm == algorithm_kind::de);
    CHECK(o.population == 50);
    CHECK(o.de.archive == 1.0);  // N 50 > d: SHADE's archive
    CHECK(o.constraints.gradient_repair.rate == 0.2);
    CHECK(o.constraints.gradient_repair.iterations == 3);  // its own Jacobian: ga_options' 3 Newton steps
    CHECK(o.stop.evaluations == 30000u);
    require_same_search(o, ga_run_default("{builtin: seed/constrained-quadratic}"));
  }
  SECTION("which shapes are repaired, and which by differences") {
    namespace m = measured_default;
    // {dimension, integer genes, constrained, population evaluated, own jacobian}
    STATIC_REQUIRE(m::repaired({3, false, true, false, true}));
    STATIC_REQUIRE(!m::repaired({3, false, false, false, true}));  // nothing to repair
    STATIC_REQUIRE(!m::repaired({3, false, true, true, false}));   // no per-individual constraints
    STATIC_REQUIRE(m::repaired_by_differences({3, false, true, false, false}));
    STATIC_REQUIRE(!m::repaired_by_differences({3, false, true, false, true}));
    STATIC_REQUIRE(!m::repaired_by_differences({3, false, true, true, false}));
    const ga_options batch = measured_defaults(problem_shape{3, false, true, true, false});
    CHECK(batch.constraints.gradient_repair.rate == 0);
    CHECK(batch.constraints.gradient_repair.iterations == 3);
  }
  SECTION("no jacobian member: the repair's Jacobian by finite differences gets 8 steps") {
    static_assert(!detail::has_jacobian<vessel_by_differences>::value);
    const ga_options o = measured_defaults(vessel_by_differences{});
    CHECK(o.constraints.gradient_repair.rate == 0.2);
    CHECK(o.constraints.gradient_repair.iterations == measured_default::repair_iterations_by_differences);
    CHECK(measured_default::repair_iterations_by_differences == 8);
    // The built-in has its exact Jacobian: ga_options' 3 Newton steps, in C++ and in ga-run alike.
    const ga_options own = measured_defaults(problems::PressureVessel<double>{});
    CHECK(own.constraints.gradient_repair.iterations == 3);
    require_same_search(own, ga_run_default("{builtin: engineering/pressure-vessel}"));
  }
  SECTION("unconstrained, d = 100: population 100, L-SHADE's archive, no repair") {
    const ga_options o = measured_defaults(problems::Rastrigin<double>{100});
    CHECK(o.population == 100);
    CHECK(o.de.archive == 2.6);
    CHECK(o.constraints.gradient_repair.rate == 0);
    CHECK(o.stop.evaluations == 1000000u);
    require_same_search(o, ga_run_default("{builtin: classic/rastrigin, params: {dimension: 100}}"));
  }
  SECTION("integer genes: the GA with the integer operators") {
    const ga_options o = measured_defaults(problems::GeneSum<double>{40});
    CHECK(o.algorithm == algorithm_kind::ga);
    CHECK(o.crossover.kind == crossover_kind::uniform);
    CHECK(o.mutation.kind == mutation_kind::uniform_reset);
    CHECK_FALSE(o.stop.evaluations);
    require_same_search(o, ga_run_default("{builtin: seed/gene-sum, params: {genes: 40}}"));
  }
  SECTION("the population's and the archive's boundaries: d = 1, 49, 50, 51, 100, 101") {
    for (const int d : {1, 49, 50, 51, 100, 101}) {
      INFO("d = " << d);
      const ga_options o = measured_defaults(problems::Rastrigin<double>{d});
      CHECK(o.population == (d < 50 ? 50u : d > 100 ? 100u : std::size_t(d)));
      CHECK(o.de.archive == (d >= 50 ? 2.6 : 1.0));
      CHECK(o.stop.evaluations == std::max<std::uint64_t>(10000u * std::uint64_t(d), o.population));
      require_same_search(
          o, ga_run_default("{builtin: classic/rastrigin, params: {dimension: " + std::to_string(d) + "}}"));
    }
  }
  SECTION("a population-evaluated problem: no repair, no budget") {
    const ga_options o = measured_defaults(problem_shape{2, false, true, true});
    CHECK(o.constraints.gradient_repair.rate == 0);
    CHECK_FALSE(o.stop.evaluations);
    CHECK(o.generations == 300);
    require_same_search(o, parse_batch_config(batch_test::disk_spec(), "backend: serial\n", "run.yaml").ga);
  }
  SECTION("an expression problem's shape: integer variables are real genes") {
    const run_config cfg = parse_config(
        "problem:\n  variables: {n: {bounds: [1, 9], integer: true}, x: [0, 1]}\n  objective: \"n * x\"\n"
        "  constraints: [\"n + x >= 2\"]\nbackend: serial\n",
        "run.yaml");
    require_same_search(measured_defaults(problem_shape{2, false, true, false}), cfg.ga);
  }
}

TEST_CASE("measured defaults: a C++ run is ga-run's default run, and finds the seed problem's optimum",
          "[config][defaults]") {
  const problems::ConstrainedQuadratic p{};
  const Result cpp = solve(p, measured_defaults(p), backend::serial{});
  const Result cli = run(parse_config("problem: {builtin: seed/constrained-quadratic}\nbackend: serial\n", "r.yaml"));
  engine_test::require_identical(cpp, cli);
  CHECK(cpp.feasible);
  CHECK(std::abs(cpp.objective - 263.1739479) <= 1e-6 * 263.1739479);  // f* (README, seed example 2)
}
