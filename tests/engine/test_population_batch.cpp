// Population-batch problems (`evaluate_population`, problem_traits.hpp): one call per generation over the
// whole offspring population. A population-batch wrapper of a per-individual problem (as_batch) makes the
// same draws and the same arithmetic, so its Result is bitwise the problem's own, on the serial backend and
// on TBB at any thread count, for the GA and SHADE, every constraint handler, plus survival and restarts.
#include <catch2/catch.hpp>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/sphere.hpp>
#include <fusedga/problems/engineering/pressure_vessel.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>

#include "engine/as_population_batch.hpp"
#include "engine/handler_problems.hpp"
#include "engine/same_result.hpp"

using namespace fusedga;
using namespace engine_test;

namespace {

/// The problem's own run on the serial backend against its population-batch wrapper's on serial, TBB 2 and 3.
template <class Problem>
void require_same_as_batch(const Problem& plain, const ga_options& o) {
  const Result want = solve(plain, o, backend::serial{});
  const auto batch = make_batch(plain);
  require_identical(want, solve(batch, o, backend::serial{}));
  require_identical(want, solve(batch, o, backend::tbb{2}));
  require_identical(want, solve(batch, o, backend::tbb{3}));
}

ga_options small_run(std::size_t population, int generations) {
  ga_options o;
  o.population = population;
  o.generations = generations;
  o.seed = 11;
  return o;
}

}  // namespace

TEST_CASE("population batch: GA, SBX + polynomial, elitism, deb rules, bitwise", "[engine][population-batch]") {
  static_assert(detail::has_population_evaluation<as_batch<problems::ConstrainedQuadratic<double>>>::value);
  check_problem<as_batch<problems::ConstrainedQuadratic<double>>>();
  ga_options o = small_run(1003, 20);  // N − E odd: a last pair with one child
  o.elitism = 3;
  require_same_as_batch(problems::ConstrainedQuadratic<double>{}, o);
  require_same_as_batch(problems::PressureVessel<double>{}, o);
  require_same_as_batch(handler_test::HS39{}, o);  // equalities
}

TEST_CASE("population batch: GA on long genomes and integer genes, bitwise", "[engine][population-batch]") {
  problems::Sphere<double> sphere;
  sphere.dim = 40;  // > kStagedGenes: children are varied in place, by rows
  require_same_as_batch(sphere, small_run(501, 8));
  ga_options o = small_run(700, 15);
  o.crossover.kind = crossover_kind::uniform;
  o.mutation.kind = mutation_kind::uniform_reset;
  require_same_as_batch(handler_test::IntegerConstrained{}, o);
}

TEST_CASE("population batch: SHADE and rand/1/bin, bitwise", "[engine][population-batch]") {
  ga_options o = small_run(650, 25);
  o.algorithm = algorithm_kind::de;
  require_same_as_batch(problems::ConstrainedQuadratic<double>{}, o);
  require_same_as_batch(handler_test::HS39{}, o);
  o.de.strategy = de_strategy::rand_1_bin;
  require_same_as_batch(problems::PressureVessel<double>{}, o);
}

TEST_CASE("population batch: epsilon, stochastic ranking, SAP, penalty, bitwise", "[engine][population-batch]") {
  for (const constraint_rule rule : {constraint_rule::epsilon, constraint_rule::stochastic_ranking,
                                     constraint_rule::self_adaptive_penalty, constraint_rule::penalty}) {
    CAPTURE(static_cast<int>(rule));
    ga_options o = small_run(400, 20);
    o.constraints.rule = rule;
    require_same_as_batch(handler_test::HS39{}, o);
    require_same_as_batch(problems::ConstrainedQuadratic<double>{}, o);
    if (rule == constraint_rule::stochastic_ranking) continue;  // the GA's tournaments only (validate)
    o.algorithm = algorithm_kind::de;
    require_same_as_batch(handler_test::HS39{}, o);
  }
}

TEST_CASE("population batch: plus survival and IPOP restarts, bitwise", "[engine][population-batch]") {
  ga_options o = small_run(300, 60);
  o.survival.kind = survival_kind::plus;
  o.elitism = 0;
  require_same_as_batch(problems::ConstrainedQuadratic<double>{}, o);
  ga_options r = small_run(200, 80);
  r.restarts.stall_generations = 4;
  r.stop.evaluations = 30000;
  const Result plain = solve(handler_test::HS39{}, r, backend::serial{});
  REQUIRE(plain.restarts > 0);  // the case really restarts
  require_same_as_batch(handler_test::HS39{}, r);
  r.algorithm = algorithm_kind::de;
  require_same_as_batch(handler_test::HS39{}, r);
}

TEST_CASE("population batch: one call per generation, n = N - E children", "[engine][population-batch]") {
  ga_options o = small_run(1000, 10);
  o.elitism = 5;
  batch_calls calls;
  solve(make_batch(problems::ConstrainedQuadratic<double>{}, &calls), o, backend::tbb{2});
  std::vector<std::size_t> want{1000};  // the initial population
  want.insert(want.end(), 10, 995);
  CHECK(calls.sizes == want);

  o.algorithm = algorithm_kind::de;  // DE evaluates N trials
  calls.sizes.clear();
  solve(make_batch(problems::ConstrainedQuadratic<double>{}, &calls), o, backend::serial{});
  CHECK(calls.sizes == std::vector<std::size_t>(11, 1000));

  // each restart's fresh population is one call of its (grown) size, then its generations
  ga_options r = small_run(100, 200);
  r.restarts.stall_generations = 3;
  r.restarts.population_growth = 2;
  r.stop.evaluations = 20000;
  calls.sizes.clear();
  const Result res = solve(make_batch(handler_test::HS39{}, &calls), r, backend::serial{});
  REQUIRE(res.restarts >= 1);
  std::size_t evaluated = 0, initial = 0;
  for (std::size_t n : calls.sizes) {
    evaluated += n;
    initial += (n == 100 || n == 200 || n == 400 || n == 800) ? 1 : 0;
  }
  CHECK(evaluated == res.evaluations);
  CHECK(calls.sizes.size() ==
        static_cast<std::size_t>(res.generations) + 1 + static_cast<std::size_t>(res.restarts));
  CHECK(initial == static_cast<std::size_t>(res.restarts) + 1);
}

TEST_CASE("population batch: engine evaluate() is one call over the population", "[engine][population-batch]") {
  batch_calls calls;
  const auto problem = make_batch(problems::ConstrainedQuadratic<double>{}, &calls);
  engine<as_batch<problems::ConstrainedQuadratic<double>>, backend::serial> e(problem, small_run(300, 5), backend::serial{});
  engine<problems::ConstrainedQuadratic<double>, backend::serial> plain(problems::ConstrainedQuadratic<double>{},
                                                                        small_run(300, 5), backend::serial{});
  e.initialize();
  plain.initialize();
  e.step();
  plain.step();
  e.evaluate_population();
  plain.evaluate_population();
  CHECK(calls.sizes == std::vector<std::size_t>{300, 298, 300});
  for (std::size_t i = 0; i < 300; ++i) {
    REQUIRE(same_bits(e.current().objective[i], plain.current().objective[i]));
    REQUIRE(same_bits(e.current().violation[i], plain.current().violation[i]));
    REQUIRE(e.current().rank_key[i] == plain.current().rank_key[i]);
  }
}

TEST_CASE("population batch: an exception in evaluate_population leaves solve", "[engine][population-batch]") {
  for (const int at : {0, 3}) {  // the initial population's call, a generation's
    for (const algorithm_kind a : {algorithm_kind::ga, algorithm_kind::de}) {
      batch_calls calls;
      calls.throw_at = at;
      ga_options o = small_run(500, 10);
      o.algorithm = a;
      const auto problem = make_batch(problems::ConstrainedQuadratic<double>{}, &calls);
      REQUIRE_THROWS_WITH(solve(problem, o, backend::tbb{2}), "fitness failed at call " + std::to_string(at));
      CHECK(calls.sizes.size() == static_cast<std::size_t>(at));
    }
  }
}

TEST_CASE("population batch: gradient repair is a config error naming it", "[engine][population-batch]") {
  ga_options o = small_run(100, 5);
  o.constraints.gradient_repair.rate = 0.2;
  REQUIRE_THROWS_AS(solve(make_batch(handler_test::HS39{}), o, backend::serial{}), config_error);
  REQUIRE_THROWS_WITH(solve(make_batch(handler_test::HS39{}), o, backend::serial{}),
                      Catch::Contains("ga.constraint_handling.gradient_repair") &&
                          Catch::Contains("evaluate_population"));
}

TEST_CASE("population batch: host memory estimate counts the constraint scratch", "[engine][population-batch]") {
  detail::host_run_shape s{1000, 3, 8, 8, 8, 2, 0};
  const long double plain = detail::host_run_bytes(s);
  s.batch_row_bytes = 4 * 8;
  CHECK(detail::host_run_bytes(s) - plain == Approx(1001.0 * 32));
}
