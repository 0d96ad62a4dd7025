// Checkpoints of island-model runs (islands/island_checkpoint.hpp, solve_islands): a run resumed from any of
// its checkpoints — periodic, after an interrupt, or finished and continued further — ends bitwise as the run
// uninterrupted, on another backend and thread layout too; a checkpoint of other island settings is refused
// naming what differs. Across MPI ranks (R ranks written, R' resumed): tests/mpi. Issue 18.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "islands/same_islands.hpp"

using namespace fusedga;
using islands_test::require_same_islands;
using CQ = problems::ConstrainedQuadratic<double>;

namespace {

// 5 islands of a 203 population (uneven), random topology (drawn by epoch), migration every 4 generations:
// island 0 a GA, island 1 SHADE under the ε-constrained method (its state: SHADE's memories, archive, ε).
ga_options heterogeneous(int generations) {
  ga_options o;
  o.population = 203;
  o.generations = generations;
  o.elitism = 2;
  o.seed = 11;
  o.islands.count = 5;
  o.islands.migration.every = 4;
  o.islands.migration.size = 2;
  o.islands.migration.topology = migration_topology::random;
  ga_options ga = o, de = o;
  de.algorithm = algorithm_kind::de;
  de.de.strategy = de_strategy::shade;
  de.de.archive = 0.5;
  de.constraints.rule = constraint_rule::epsilon;
  o.islands.variants = {ga, de};
  return o;
}

template <class Problem, class Backend>
std::vector<std::string> checkpoints_of(const Problem& p, ga_options o, const Backend& b, int every) {
  std::vector<std::string> out;
  o.checkpoint.write = [&](const std::string& bytes) { out.push_back(bytes); };
  o.checkpoint.every_generations = every;
  solve(p, o, b);
  return out;
}

template <class Problem, class Backend>
Result resume(const Problem& p, const ga_options& o, const Backend& b, const std::string& bytes) {
  std::istringstream in(bytes);
  return solve(p, o, b, in);
}

std::string resume_error(const ga_options& o, const std::string& bytes) {
  try {
    resume(CQ{}, o, backend::serial{}, bytes);
  } catch (const checkpoint_error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("islands checkpoint: resumed from each checkpoint, serial or TBB, the run ends as uninterrupted",
          "[islands][checkpoint]") {
  const ga_options o = heterogeneous(37);  // epochs of 4: the last one 1 generation
  const Result whole = solve(CQ{}, o, backend::serial{});
  const std::vector<std::string> ck = checkpoints_of(CQ{}, o, backend::serial{}, 8);
  // Due at the first epoch end past 8, 16, 24, 32 (generations 8, 16, 24, 32), and the last at 37.
  REQUIRE(ck.size() == 5);
  for (std::size_t c = 0; c + 1 < ck.size(); ++c) {
    INFO("checkpoint " << c);
    require_same_islands(resume(CQ{}, o, backend::serial{}, ck[c]), whole);
    // TBB at 2 threads runs 5 islands side by side, at 8 one after another (solve.hpp run_islands).
    require_same_islands(resume(CQ{}, o, backend::tbb{2}, ck[c]), whole);
    require_same_islands(resume(CQ{}, o, backend::tbb{8}, ck[c]), whole);
  }
  // The last one is the finished run: resumed as it is, it does nothing more.
  require_same_islands(resume(CQ{}, o, backend::serial{}, ck.back()), whole);
}

TEST_CASE("islands checkpoint: with restarts, each island's start and kept best resume bitwise", "[islands][checkpoint]") {
  ga_options o = heterogeneous(60);
  o.restarts.stall_generations = 4;  // islands of about 40 on CQ stall often: restarts at many epoch ends, grown
  const Result whole = solve(CQ{}, o, backend::serial{});
  REQUIRE(whole.restarts >= 3);  // the checkpoints below fall between restarts
  const std::vector<std::string> ck = checkpoints_of(CQ{}, o, backend::serial{}, 8);
  REQUIRE(ck.size() == 8);
  for (std::size_t c = 0; c + 1 < ck.size(); ++c) {
    INFO("checkpoint " << c);
    require_same_islands(resume(CQ{}, o, backend::serial{}, ck[c]), whole);
    require_same_islands(resume(CQ{}, o, backend::tbb{2}, ck[c]), whole);
  }
  // A checkpoint of the run without restarts is of another run.
  ga_options none = o;
  none.restarts = restart_options{};
  CHECK_THAT(resume_error(none, ck[0]), Catch::Contains("restarts"));
}

TEST_CASE("islands checkpoint: a run stopped by an interrupt at an epoch end resumes to the uninterrupted end",
          "[islands][checkpoint]") {
  ga_options o = heterogeneous(30);
  const Result whole = solve(CQ{}, o, backend::serial{});
  std::atomic<bool> stop{false};
  std::string last;
  ga_options interrupted = o;
  interrupted.interrupt = &stop;
  interrupted.on_generation = [&](const generation_stats& s) {
    if (s.generation == 13) stop = true;  // in the gather after generation 16: seen at the next one, after 20
  };
  interrupted.checkpoint.write = [&](const std::string& bytes) { last = bytes; };
  const Result cut = solve(CQ{}, interrupted, backend::serial{});
  REQUIRE(cut.reason == stop_reason::interrupted);
  REQUIRE(cut.generations == 20);
  // Its migrants were packed but not received: the resumed run receives them first.
  require_same_islands(resume(CQ{}, o, backend::tbb{2}, last), whole);
}

TEST_CASE("islands checkpoint: a finished run resumed with a higher generation limit equals the longer run",
          "[islands][checkpoint]") {
  ga_options o;  // a GA under Deb's rules: the generation limit shapes nothing but the end
  o.population = 160;
  o.generations = 23;  // its last epoch (21-23) ends early: the longer run's epoch goes on to 25, then migrates
  o.elitism = 2;
  o.seed = 3;
  o.islands.count = 4;
  o.islands.migration.every = 5;
  o.islands.migration.size = 3;
  const problems::Rastrigin<double> p{6};
  const std::vector<std::string> ck = checkpoints_of(p, o, backend::serial{}, 0);
  REQUIRE(ck.size() == 1);  // every_generations 0: the last one only
  o.generations = 43;
  require_same_islands(resume(p, o, backend::serial{}, ck[0]), solve(p, o, backend::serial{}));
}

TEST_CASE("islands checkpoint: a finished run with restarts, resumed with a higher limit, restarts as the longer run",
          "[islands][checkpoint]") {
  ga_options o;  // a GA under Deb's rules, as above; islands of 40 on CQ stall often
  o.population = 160;
  o.generations = 23;
  o.elitism = 2;
  o.seed = 3;
  o.islands.count = 4;
  o.islands.migration.every = 5;
  o.islands.migration.size = 3;
  o.restarts.stall_generations = 4;
  const std::vector<std::string> ck = checkpoints_of(CQ{}, o, backend::serial{}, 0);
  REQUIRE(ck.size() == 1);
  const Result shorter = solve(CQ{}, o, backend::serial{});
  o.generations = 80;
  const Result longer = solve(CQ{}, o, backend::serial{});
  REQUIRE(longer.restarts > shorter.restarts);  // restarts past generation 23, which the resumed run must make too
  require_same_islands(resume(CQ{}, o, backend::serial{}, ck[0]), longer);
  require_same_islands(resume(CQ{}, o, backend::tbb{2}, ck[0]), longer);
}

TEST_CASE("islands checkpoint: resuming with other island settings is refused, naming each field",
          "[islands][checkpoint]") {
  using Catch::Contains;
  const ga_options o = heterogeneous(12);
  const std::vector<std::string> ck = checkpoints_of(CQ{}, o, backend::serial{}, 0);
  REQUIRE(ck.size() == 1);
  ga_options other = o;
  other.islands.count = 4;
  CHECK_THAT(resume_error(other, ck[0]), Contains("ga.islands.count: checkpoint 5, this run 4"));
  other = o;
  other.islands.migration.topology = migration_topology::ring;
  CHECK_THAT(resume_error(other, ck[0]), Contains("ga.islands.migration.topology: checkpoint random, this run ring"));
  other = o;
  other.islands.variants[1].de.archive = 1.0;
  CHECK_THAT(resume_error(other, ck[0]), Contains("island 1: ga.de.archive: checkpoint 0.5, this run 1"));
  other = o;
  other.islands.variants[1].de.pbest = 0.3;  // numbers at their shortest exact spelling, not 0.10000000000000001
  CHECK_THAT(resume_error(other, ck[0]), Contains("island 1: ga.de.pbest: checkpoint 0.1, this run 0.3"));
  // A single population's checkpoint is no island run's, and the other way round.
  ga_options one = o;
  one.islands = island_options{};
  const std::string without = resume_error(one, ck[0]);
  CHECK_THAT(without, Contains("ga.islands.count: checkpoint 5, this run does not set it"));
  // The islands' other fields are counted, not listed one by one.
  CHECK_THAT(without, Contains("more fields the checkpoint sets, this run does not"));
  CHECK(std::count(without.begin(), without.end(), '\n') <= 8);
  CHECK(resume_error(o, ck[0]) == "(no error)");
}
