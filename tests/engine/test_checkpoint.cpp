// Checkpoint and exact resume (solve.hpp, engine/checkpoint.hpp): a run resumed from any of its
// checkpoints ends bitwise identical to the same run uninterrupted, for every algorithm, constraint
// handler, survivor selection, restarts and budgets, on serial and TBB at any thread count; a checkpoint
// of another run or a damaged one is a clear error naming what differs.
#include <catch2/catch.hpp>

#include <atomic>
#include <sstream>
#include <string>
#include <vector>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>

#include "engine/checkpoint_runs.hpp"
#include "engine/handler_problems.hpp"
#include "engine/same_result.hpp"

using namespace fusedga;
using CQ = problems::ConstrainedQuadratic<double>;

using checkpoint_test::base;
using checkpoint_test::checkpoints_of;
using checkpoint_test::require_same_run;
using checkpoint_test::resume;

TEST_CASE("checkpoint: resumed from every checkpoint, the run ends bitwise the same", "[checkpoint]") {
  std::vector<std::pair<std::string, ga_options>> cases;
  cases.push_back({"GA, feasibility rules", base(200, 40)});
  ga_options plus = base(130, 40);
  plus.survival.kind = survival_kind::plus;
  cases.push_back({"GA, plus survival", plus});
  ga_options shade = base(100, 40);
  shade.algorithm = algorithm_kind::de;
  shade.de.strategy = de_strategy::shade;
  cases.push_back({"SHADE (memories, archive)", shade});
  ga_options eps = base(150, 40);
  eps.constraints.rule = constraint_rule::epsilon;
  cases.push_back({"epsilon", eps});
  ga_options sap = base(150, 30);
  sap.constraints.rule = constraint_rule::self_adaptive_penalty;
  cases.push_back({"self-adaptive penalty", sap});
  ga_options sr = base(150, 30);
  sr.constraints.rule = constraint_rule::stochastic_ranking;
  cases.push_back({"stochastic ranking", sr});
  ga_options repair = base(100, 25);
  repair.constraints.gradient_repair.rate = 0.3;
  cases.push_back({"gradient repair", repair});
  ga_options restarts = base(64, 400);
  restarts.algorithm = algorithm_kind::de;
  restarts.restarts.stall_generations = 8;
  restarts.stop.evaluations = 30000;
  cases.push_back({"SHADE with restarts and a budget", restarts});
  ga_options bipop = restarts;
  bipop.restarts.schedule = restart_schedule::bipop;
  cases.push_back({"SHADE with BIPOP restarts and a budget", bipop});
  ga_options tolerance = bipop;  // the restarts' stall count ignores improvements below 1 %: saved apart
  tolerance.restarts.convergence_tolerance = 1e-2;
  tolerance.de.crossover = de_crossover::alternate;
  cases.push_back({"SHADE, BIPOP, alternate crossover, convergence_tolerance", tolerance});
  for (const auto& [name, o] : cases) {
    INFO(name);
    const Result whole = solve(handler_test::HS39{}, o, backend::serial{});
    const std::vector<std::string> cks = checkpoints_of(handler_test::HS39{}, o, backend::serial{}, 6);
    REQUIRE(cks.size() >= 4);
    for (std::size_t i = 0; i < cks.size(); ++i) {
      INFO("checkpoint " << i);
      require_same_run(whole, resume(handler_test::HS39{}, o, backend::serial{}, cks[i]));
    }
    // written by serial, resumed by TBB at another thread count, and the other way round
    require_same_run(whole, resume(handler_test::HS39{}, o, backend::tbb{3}, cks[1]));
    const std::vector<std::string> tbb_cks = checkpoints_of(handler_test::HS39{}, o, backend::tbb{2}, 9);
    require_same_run(whole, resume(handler_test::HS39{}, o, backend::serial{}, tbb_cks[0]));
  }
}

TEST_CASE("checkpoint: an interrupted run resumed ends as the uninterrupted one", "[checkpoint]") {
  ga_options o = base(300, 60);
  const Result whole = solve(CQ{}, o, backend::tbb{2});
  std::atomic<bool> stop{false};
  std::string last;
  ga_options cut = o;
  cut.interrupt = &stop;
  cut.on_generation = [&](const generation_stats& s) { stop = s.generation == 23; };
  cut.checkpoint.write = [&](const std::string& bytes) { last = bytes; };
  const Result part = solve(CQ{}, cut, backend::tbb{2});
  REQUIRE(part.reason == stop_reason::interrupted);
  REQUIRE(part.generations == 23);
  require_same_run(whole, resume(CQ{}, o, backend::tbb{1}, last));
}

TEST_CASE("checkpoint: a finished run continued with a higher limit equals the longer run", "[checkpoint]") {
  ga_options shorter = base(200, 30), longer = base(200, 70);
  std::string last;
  shorter.checkpoint.write = [&](const std::string& bytes) { last = bytes; };
  solve(CQ{}, shorter, backend::serial{});
  require_same_run(solve(CQ{}, longer, backend::serial{}), resume(CQ{}, longer, backend::serial{}, last));
}

TEST_CASE("checkpoint: integer genes and float precision resume exactly", "[checkpoint]") {
  ga_options o = base(100, 30);
  ga_options oi = o;
  oi.crossover.kind = crossover_kind::uniform;
  oi.mutation.kind = mutation_kind::creep;
  const auto ints = checkpoints_of(handler_test::IntegerConstrained{}, oi, backend::serial{}, 10);
  require_same_run(solve(handler_test::IntegerConstrained{}, oi, backend::serial{}),
                   resume(handler_test::IntegerConstrained{}, oi, backend::tbb{2}, ints[1]));
  const auto floats = checkpoints_of(problems::Rastrigin<float>{}, o, backend::serial{}, 10);
  require_same_run(solve(problems::Rastrigin<float>{}, o, backend::serial{}),
                   resume(problems::Rastrigin<float>{}, o, backend::tbb{2}, floats[1]));
}

TEST_CASE("checkpoint: another run's checkpoint is refused naming what differs", "[checkpoint]") {
  ga_options o = base(100, 20);
  const std::string ck = checkpoints_of(CQ{}, o, backend::serial{}, 5).front();
  ga_options seed = o;
  seed.seed = 8;
  REQUIRE_THROWS_AS(resume(CQ{}, seed, backend::serial{}, ck), checkpoint_error);
  REQUIRE_THROWS_WITH(resume(CQ{}, seed, backend::serial{}, ck), Catch::Contains("ga.seed: checkpoint 7, this run 8"));
  ga_options sbx = o;
  sbx.crossover.eta = 3;
  REQUIRE_THROWS_WITH(resume(CQ{}, sbx, backend::serial{}, ck),
                      Catch::Contains("ga.crossover.eta: checkpoint 15, this run 3"));
  ga_options de = o;
  de.algorithm = algorithm_kind::de;
  REQUIRE_THROWS_WITH(resume(CQ{}, de, backend::serial{}, ck), Catch::Contains("ga.algorithm: checkpoint ga, this run de"));
  REQUIRE_THROWS_WITH(resume(problems::ConstrainedQuadratic<float>{}, o, backend::serial{}, ck),
                      Catch::Contains("fitness: checkpoint double, this run float"));
  REQUIRE_THROWS_WITH(
      resume(problems::Rastrigin<double>{}, o, backend::serial{}, ck),
      Catch::Contains("problem type: checkpoint fusedga::problems::ConstrainedQuadratic<double>, this run "
                      "fusedga::problems::Rastrigin<double>"));
  // What does not shape the trajectory may change: the limit, stop rules, checkpoint settings.
  ga_options other = o;
  other.generations = 25;
  other.stop.stall_generations = 1000;
  other.checkpoint.every_generations = 3;
  REQUIRE_NOTHROW(resume(CQ{}, other, backend::serial{}, ck));
}

TEST_CASE("checkpoint: a problem described over several lines is shown whole, below its label", "[checkpoint]") {
  // An expression problem's description spans lines (variables, objective, constraints): its lines are one
  // field, not fields of their own that one run or the other "does not set".
  ga_options o = base(100, 20);
  o.checkpoint.problem_id = "pv\nvariables (2 genes): x in [0, 1]; y in [0, 1]\ng1(x) = x + y - 1 <= 0";
  const std::string ck = checkpoints_of(CQ{}, o, backend::serial{}, 5).front();
  ga_options other = o;
  other.checkpoint.problem_id = "wb\nvariables (2 genes): x in [0, 2]; y in [0, 1]\ng1(x) = x + y - 1 <= 0";
  REQUIRE_THROWS_WITH(
      resume(CQ{}, other, backend::serial{}, ck),
      Catch::EndsWith("what differs:\n  problem:\n    checkpoint:\n      pv\n      variables (2 genes): x in "
                      "[0, 1]; y in [0, 1]\n      g1(x) = x + y - 1 <= 0\n    this run:\n      wb\n  "
                      "    variables (2 genes): x in [0, 2]; y in [0, 1]\n      g1(x) = x + y - 1 <= 0"));
}

TEST_CASE("checkpoint: damaged files are refused before any state is read", "[checkpoint]") {
  ga_options o = base(100, 10);
  const std::string ck = checkpoints_of(CQ{}, o, backend::serial{}, 5).front();
  std::string flipped = ck;
  flipped[flipped.size() / 2] ^= 0x10;
  REQUIRE_THROWS_AS(resume(CQ{}, o, backend::serial{}, flipped), checkpoint_error);
  REQUIRE_THROWS_WITH(resume(CQ{}, o, backend::serial{}, flipped), Catch::Contains("checksum does not match"));
  REQUIRE_THROWS_WITH(resume(CQ{}, o, backend::serial{}, ck.substr(0, ck.size() - 100)), Catch::Contains("truncated"));
  REQUIRE_THROWS_WITH(resume(CQ{}, o, backend::serial{}, "population: 100\n"), Catch::Contains("not a FusedGA checkpoint"));
  REQUIRE_THROWS_WITH(resume(CQ{}, o, backend::serial{}, ""), Catch::Contains("not a FusedGA checkpoint"));
  std::istringstream in(ck);
  const auto header = read_checkpoint_header(in, "ck");
  CHECK_THAT(header.lines, Catch::Contains("format = 2") && Catch::Contains("endianness = little") &&
                               Catch::Contains("dimension = 3") && Catch::Contains("ga.population = 100"));
}
