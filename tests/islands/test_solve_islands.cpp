// solve() with ga.islands (islands/solve_islands.hpp): one island is the plain run; a run is bitwise the
// same for any thread count, every topology, GA, SHADE and heterogeneous islands; evaluation budgets and
// history rows are exact; stopping rules act at epoch ends; migrants really arrive; stalled islands restart on
// their own (counted by hand, within the budget, the best kept); bad settings are config errors naming the field.
// Issue 18.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/classic/sphere.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <string>
#include <vector>

#include "engine/same_result.hpp"
#include "islands/same_islands.hpp"

using namespace fusedga;
using engine_test::require_identical;
using engine_test::same_bits;
using islands_test::require_same_islands;
using CQ = problems::ConstrainedQuadratic<double>;

namespace {

ga_options archipelago(std::size_t n, int generations, int count, int every, std::size_t size,
                       migration_topology t = migration_topology::ring) {
  ga_options o;
  o.population = n;
  o.generations = generations;
  o.elitism = 2;
  o.seed = 7;
  o.islands.count = count;
  o.islands.migration.every = every;
  o.islands.migration.size = size;
  o.islands.migration.topology = t;
  return o;
}

ga_options shade() {
  ga_options v;
  v.algorithm = algorithm_kind::de;
  v.de.strategy = de_strategy::shade;
  v.de.archive = 0.5;
  return v;
}

// Islands of 4 or 5 run side by side at 1, 2 and 4 threads (a rank with as many islands as threads), one
// after another over all threads at 8 (solve.hpp run_islands): both must equal the serial run.
template <class Problem>
Result check_threads(const Problem& p, const ga_options& o) {
  const Result serial = solve(p, o, backend::serial{});
  for (int threads : {1, 2, 4, 8}) {
    INFO("tbb threads = " << threads);
    require_same_islands(serial, solve(p, o, backend::tbb{threads}));
  }
  return serial;
}

std::uint64_t total_immigrants(const Result& r) {
  std::uint64_t s = 0;
  for (const island_result& x : r.islands) s += x.immigrants;
  return s;
}

// A flat landscape: no individual is ever strictly better, so every island stalls from generation 0 and, with
// ga.restarts every M generations, restarts at every epoch end (immigrants are never strictly better either).
struct Flat {
  using gene_type = double;
  static constexpr Sense sense = Sense::minimize;
  int dimension() const { return 3; }
  Bounds<double> bounds() const { return Bounds<double>::uniform(3, -1.0, 1.0); }
  template <class X>
  FUSEDGA_HD double objective(const X&) const { return 0; }
};

// Four levels, floor(4 x0): every population of 50 holds the best level 0 from generation 0 (so islands stall at
// once), and residents above it that immigrants at 0 replace.
struct Steps {
  using gene_type = double;
  static constexpr Sense sense = Sense::minimize;
  int dimension() const { return 3; }
  Bounds<double> bounds() const { return Bounds<double>::uniform(3, 0.0, 0.999); }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const { return static_cast<double>(static_cast<int>(4 * x[0])); }
};

// `runner`: the island runner itself (solve() treats a count below 2 as one population).
std::string config_error_of(const ga_options& o, bool runner = false) {
  try {
    islands::local_transport t;
    if (runner)
      islands::solve_islands(CQ{}, o, backend::serial{}, t);
    else
      solve(CQ{}, o, backend::serial{});
  } catch (const config_error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("solve: one island is the plain run, bitwise", "[islands]") {
  ga_options o = archipelago(500, 20, 1, 5, 2);
  ga_options plain = o;
  plain.islands = island_options{};
  const Result one = solve(CQ{}, plain, backend::serial{});
  require_identical(one, solve(CQ{}, o, backend::serial{}));
  // The island runner itself with one island: the same search, the history's rows and its island's.
  islands::local_transport t;
  const Result r = islands::solve_islands(CQ{}, o, backend::serial{}, t);
  REQUIRE(r.islands.size() == 1);
  REQUIRE(same_bits(r.objective, one.objective));
  REQUIRE(r.best_genes == one.best_genes);
  REQUIRE(r.evaluations == one.evaluations);
  REQUIRE(r.history.size() == one.history.size());
  for (std::size_t g = 0; g < one.history.size(); ++g) {
    INFO("generation " << g);
    REQUIRE(same_bits(r.islands[0].history[g].best_objective, one.history[g].best_objective));
    REQUIRE(same_bits(r.islands[0].history[g].mean_objective, one.history[g].mean_objective));
    REQUIRE(same_bits(r.history[g].best_objective, one.history[g].best_objective));
    REQUIRE(r.history[g].mean_objective == Approx(one.history[g].mean_objective).epsilon(1e-15));
  }
}

TEST_CASE("solve: serial and TBB at 1, 2, 4, 8 threads (islands side by side or not) give bitwise identical runs",
          "[islands][determinism]") {
  SECTION("GA, ring") { check_threads(CQ{}, archipelago(2003, 24, 4, 5, 3)); }
  SECTION("GA, random") { check_threads(CQ{}, archipelago(2003, 24, 5, 4, 2, migration_topology::random)); }
  SECTION("GA, fully-connected") {
    check_threads(CQ{}, archipelago(2003, 24, 4, 3, 2, migration_topology::fully_connected));
  }
  SECTION("SHADE, ring and random") {
    ga_options o = archipelago(1600, 20, 4, 4, 3);
    const ga_options v = shade();
    o.algorithm = v.algorithm;
    o.de = v.de;
    check_threads(CQ{}, o);
    o.islands.migration.topology = migration_topology::random;
    check_threads(CQ{}, o);
  }
  SECTION("heterogeneous: GA and SHADE islands, fully-connected") {
    ga_options o = archipelago(1600, 20, 4, 4, 3, migration_topology::fully_connected);
    ga_options ga = o;
    ga.islands = island_options{};
    o.islands.variants = {ga, shade()};
    const Result r = check_threads(CQ{}, o);
    CHECK(total_immigrants(r) > 0);
  }
  SECTION("integer genes, ring") {
    ga_options o = archipelago(1001, 16, 3, 4, 5);
    o.crossover.kind = crossover_kind::two_point;
    o.mutation.kind = mutation_kind::uniform_reset;
    problems::GeneSum<double> p;
    p.genes = 40;
    check_threads(p, o);
  }
}

TEST_CASE("solve: evaluations are N + generations x children, exactly, and history rows G + 1", "[islands]") {
  SECTION("GA: each island keeps its 2 elites") {
    const ga_options o = archipelago(1000, 23, 4, 5, 2);
    const Result r = solve(CQ{}, o, backend::serial{});
    const std::uint64_t children = 1000 - 4 * 2;
    CHECK(r.generations == 23);
    CHECK(r.evaluations == 1000 + 23 * children);
    CHECK(r.history.size() == 24);
    CHECK(r.history.back().evaluations == r.evaluations);
    REQUIRE(r.islands.size() == 4);
    for (const island_result& x : r.islands) {
      CHECK(x.population == 250);
      CHECK(x.history.size() == 24);
      CHECK(x.evaluations == 250 + 23 * 248);
    }
  }
  SECTION("heterogeneous GA and SHADE on uneven islands: SHADE's children are its whole population") {
    ga_options o = archipelago(1003, 10, 3, 4, 2);
    ga_options ga = o;
    ga.islands = island_options{};
    o.islands.variants = {ga, shade()};  // islands 0 and 2 GA (2 elites), island 1 SHADE
    const Result r = solve(CQ{}, o, backend::serial{});
    REQUIRE(r.islands.size() == 3);
    CHECK(r.islands[0].population == 335);
    CHECK(r.islands[1].population == 334);
    CHECK(r.islands[2].population == 334);
    CHECK(r.islands[0].evaluations == 335 + 10 * 333);
    CHECK(r.islands[1].evaluations == 334 + 10 * 334);
    CHECK(r.islands[2].evaluations == 334 + 10 * 332);
    CHECK(r.evaluations == 1003 + 10 * (333 + 334 + 332));
  }
  SECTION("stop.evaluations: never exceeded, the last epoch cut to what the budget pays for") {
    ga_options o = archipelago(1000, 100, 4, 5, 2);
    const std::uint64_t children = 1000 - 8;
    for (std::uint64_t budget : {1000 + 7 * children + children / 2, 1000 + 10 * children, std::uint64_t(1000 + 3)}) {
      INFO("budget " << budget);
      o.stop.evaluations = budget;
      const Result r = solve(CQ{}, o, backend::serial{});
      const std::uint64_t generations = (budget - 1000) / children;
      CHECK(r.evaluations <= budget);
      CHECK(r.evaluations == 1000 + generations * children);
      CHECK(r.generations == static_cast<int>(generations));
      CHECK(r.history.size() == generations + 1);
      CHECK(r.reason == stop_reason::evaluations);
    }
  }
}

TEST_CASE("solve: stop.evaluations holds with the gradient repair, whose worst case each epoch pays for",
          "[islands][budget]") {
  // CQ has two inequalities and no Jacobian: a repaired child costs up to 3 + 3 = 6 evaluations (3 steps, one
  // Jacobian by differences).
  ga_options o = archipelago(400, 1000, 4, 10, 2);
  o.constraints.gradient_repair.rate = 1.0;
  const std::uint64_t children = 400 - 4 * 2;
  for (std::uint64_t budget : {400ull + 1000, 400ull + 7 * children + 5, 40000ull}) {
    o.stop.evaluations = budget;
    const Result r = solve(CQ{}, o, backend::serial{});
    INFO("budget " << budget);
    CHECK(r.evaluations <= budget);
    CHECK(r.evaluations > budget - children);  // stopped only when not even a generation's children fit
    CHECK(r.reason == stop_reason::evaluations);
    require_identical(r, solve(CQ{}, o, backend::tbb{2}));
  }
}

TEST_CASE("solve: stop.target stops at the end of the epoch that reached it", "[islands]") {
  problems::Sphere<double> p;
  p.dim = 4;
  ga_options o = archipelago(400, 200, 4, 7, 2);
  const Result free_run = solve(p, o, backend::serial{});
  // A target the free run reaches in the middle of an epoch.
  const double target = free_run.history[30].best_objective;
  std::size_t first = 0;
  while (free_run.history[first].best_objective > target) ++first;
  REQUIRE(first % 7 != 0);
  o.stop.target = target;
  const Result r = solve(p, o, backend::serial{});
  CHECK(r.reason == stop_reason::target);
  CHECK(r.generations == static_cast<int>((first / 7 + 1) * 7));  // the end of the epoch holding `first`
  CHECK(r.objective <= target);
  CHECK(r.history.size() == static_cast<std::size_t>(r.generations) + 1);
  for (std::size_t g = 0; g < r.history.size(); ++g)
    CHECK(same_bits(r.history[g].best_objective, free_run.history[g].best_objective));
}

TEST_CASE("solve: migrants arrive: with M = 1, K = 1 on a ring island i + 1 is never worse than island i was",
          "[islands]") {
  problems::Rastrigin<double> p;
  p.dim = 6;
  const int I = 5, G = 30;
  const Result r = solve(p, archipelago(500, G, I, 1, 1), backend::serial{});
  REQUIRE(r.islands.size() == static_cast<std::size_t>(I));
  CHECK(total_immigrants(r) > 0);
  // Island i's best at generation t went to island i + 1 after generation t (t >= 1) and, as an elite,
  // is in island i + 1's generation t + 1 unless that island already had better.
  for (int i = 0; i < I; ++i) {
    const auto& from = r.islands[static_cast<std::size_t>(i)].history;
    const auto& to = r.islands[static_cast<std::size_t>((i + 1) % I)].history;
    for (int t = 1; t < G; ++t) {
      INFO("island " << i << ", generation " << t);
      CHECK(to[static_cast<std::size_t>(t + 1)].best_objective <= from[static_cast<std::size_t>(t)].best_objective);
    }
  }
  // Without migration the islands evolve apart: the same property fails somewhere.
  ga_options apart = archipelago(500, G, I, G, 1);
  const Result a = solve(p, apart, backend::serial{});
  CHECK(total_immigrants(a) == 0);
  bool violated = false;
  for (int i = 0; i < I; ++i)
    for (int t = 1; t < G; ++t)
      violated |=
          a.islands[static_cast<std::size_t>((i + 1) % I)].history[static_cast<std::size_t>(t + 1)].best_objective >
          a.islands[static_cast<std::size_t>(i)].history[static_cast<std::size_t>(t)].best_objective;
  CHECK(violated);
}

TEST_CASE("solve: the archipelago's rows combine the islands' rows", "[islands]") {
  const Result r = solve(CQ{}, archipelago(1003, 12, 3, 4, 2), backend::serial{});
  // Feasibility rules on (violation, objective): the smaller violation, then the larger objective (CQ maximizes).
  const auto better = [](double oa, double va, double ob, double vb) { return va != vb ? va < vb : oa > ob; };
  REQUIRE(r.history.size() == 13);
  for (std::size_t g = 0; g < r.history.size(); ++g) {
    INFO("generation " << g);
    const generation_stats* best = &r.islands[0].history[g];
    std::uint64_t evaluations = 0;
    for (const island_result& x : r.islands) {
      REQUIRE(x.history.size() == 13);
      const generation_stats& row = x.history[g];
      CHECK(row.generation == static_cast<int>(g));
      if (better(row.best_objective, row.best_violation, best->best_objective, best->best_violation)) best = &row;
      evaluations += row.evaluations;
    }
    CHECK(r.history[g].generation == static_cast<int>(g));
    CHECK(r.history[g].evaluations == evaluations);
    CHECK(same_bits(r.history[g].best_objective, best->best_objective));
    CHECK(same_bits(r.history[g].best_violation, best->best_violation));
  }
  const island_result* best = &r.islands[0];
  for (const island_result& x : r.islands)
    if (better(x.objective, x.violation, best->objective, best->violation)) best = &x;
  CHECK(same_bits(r.objective, best->objective));
  CHECK(same_bits(r.violation, best->violation));
}

TEST_CASE("solve: the rows' wall time is the run's clock, the islands' set-up included", "[islands]") {
  // Serial: the islands are built and evaluated one after another, so on the run's clock each island's generation
  // 0 ends after the one before it (on each engine's own clock, counted from its initialize, they were six
  // unordered durations), and the archipelago's generation 0 ends with the last island's.
  const Result r = solve(CQ{}, archipelago(600, 6, 6, 2, 1), backend::serial{});
  REQUIRE(r.islands.size() == 6);
  for (std::size_t i = 0; i + 1 < r.islands.size(); ++i) {
    INFO("island " << i);
    CHECK(r.islands[i].history[0].elapsed_s <= r.islands[i + 1].history[0].elapsed_s);
  }
  CHECK(r.history[0].elapsed_s == r.islands.back().history[0].elapsed_s);
  for (std::size_t g = 0; g + 1 < r.history.size(); ++g) CHECK(r.history[g].elapsed_s <= r.history[g + 1].elapsed_s);
  CHECK(r.history.back().elapsed_s <= r.wall_time_s);
}

TEST_CASE("validate_islands: count, every and size are config errors naming the field",
          "[islands]") {
  using Catch::Contains;
  ga_options o = archipelago(100, 5, 4, 5, 2);
  CHECK(config_error_of(o) == "(no error)");
  ga_options bad = o;
  bad.islands.count = 0;
  CHECK_THAT(config_error_of(bad, true), Contains("ga.islands.count") && Contains("got 0"));
  bad.islands.count = 51;  // 100 / 2 = 50 islands of 2 at most
  CHECK_THAT(config_error_of(bad), Contains("ga.islands.count: expected an integer in [1, 50]"));
  bad = o;
  bad.islands.migration.every = 0;
  CHECK_THAT(config_error_of(bad), Contains("ga.islands.migration.every") && Contains("got 0"));
  bad = o;
  bad.islands.migration.size = 0;
  CHECK_THAT(config_error_of(bad), Contains("ga.islands.migration.size") && Contains("got 0"));
  bad.islands.migration.size = 25;  // islands of 25: at most 24 leave
  CHECK_THAT(config_error_of(bad), Contains("ga.islands.migration.size: expected an integer in [1, 24]"));
  // An island's own error names the island.
  bad = o;
  ga_options v;
  v.elitism = 1000;
  bad.islands.variants = {v};
  CHECK_THAT(config_error_of(bad), Contains("island 0: "));
}

namespace {
struct my_error : std::exception {
  const char* what() const noexcept override { return "my objective failed"; }
};
/// Sphere whose objective throws the user's own exception type past x[0] > 0.9.
struct throwing_sphere {
  using gene_type = double;
  int dimension() const { return 3; }
  Bounds<double> bounds() const { return {{-1, -1, -1}, {1, 1, 1}}; }
  template <class X>
  double objective(const X& x) const {
    if (x[0] > 0.9) throw my_error();
    return x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
  }
};
}  // namespace

TEST_CASE("solve: an exception from the problem reaches the caller as thrown, with islands as without", "[islands]") {
  ga_options o = archipelago(200, 20, 4, 5, 2);
  CHECK_THROWS_AS(solve(throwing_sphere{}, o, backend::serial{}), my_error);
  CHECK_THROWS_AS(solve(throwing_sphere{}, o, backend::tbb{2}), my_error);
  o.islands = island_options{};
  CHECK_THROWS_AS(solve(throwing_sphere{}, o, backend::serial{}), my_error);
}

TEST_CASE("solve: on Rastrigin (d = 10) 8 islands beat one population at no more evaluations", "[islands]") {
  // Measured over seeds 1-10: one population of 800 ends at 0.05-0.43 after 200 generations, 8 islands of 100
  // (M = 10, K = 2, ring) at 0.005-0.017 — a margin wide enough for every seed.
  problems::Rastrigin<double> p;
  p.dim = 10;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    INFO("seed " << seed);
    ga_options o = archipelago(800, 200, 8, 10, 2);
    o.seed = seed;
    const Result islands = solve(p, o, backend::tbb{2});
    o.islands = island_options{};
    const Result one = solve(p, o, backend::tbb{2});
    CHECK(islands.evaluations <= one.evaluations);  // each island keeps its own elites
    CHECK(islands.objective < one.objective);
  }
}

TEST_CASE("solve: restarts on islands, by hand: a stalled island starts afresh at each epoch end, grown", "[islands]") {
  // 4 islands of 250, GA with 2 elites, M = 5, 23 generations: on a flat landscape every island has stalled 5
  // generations at each epoch end before the limit (5, 10, 15, 20), so each restarts 4 times.
  ga_options o = archipelago(1000, 23, 4, 5, 2);
  o.restarts.stall_generations = 5;
  SECTION("population_growth 1: the same size, a fresh population's evaluations per restart") {
    o.restarts.population_growth = 1;
    const Result r = solve(Flat{}, o, backend::serial{});
    CHECK(r.restarts == 16);
    CHECK(r.generations == 23);
    CHECK(r.history.size() == 24);
    for (const island_result& x : r.islands) {
      CHECK(x.restarts == 4);
      CHECK(x.population == 250);
      CHECK(x.evaluations == 5 * 250 + 23 * 248);
      REQUIRE(x.history.size() == 24);
      CHECK(x.history[7].generation == 7);  // counted over the starts
      CHECK(x.history.back().evaluations == x.evaluations);
    }
    CHECK(r.evaluations == 4 * (5 * 250 + 23 * 248));
    CHECK(r.history.back().evaluations == r.evaluations);
  }
  SECTION("population_growth 2: 250, 500, 1000, 2000, 4000 individuals, elitism scaled alike") {
    const Result r = solve(Flat{}, o, backend::serial{});
    // Start k: 250·2^k individuals, 2·2^k elites; generations 5, 5, 5, 5, 3.
    std::uint64_t island = 0;
    for (int k = 0; k < 5; ++k) {
      const std::uint64_t n = 250u << k, children = n - (2u << k);
      island += n + (k < 4 ? 5 : 3) * children;
    }
    for (const island_result& x : r.islands) {
      CHECK(x.restarts == 4);
      CHECK(x.population == 4000);
      CHECK(x.evaluations == island);
    }
    CHECK(r.evaluations == 4 * island);
    // The rows' feasible fraction is over the current populations (every individual of Flat is feasible).
    CHECK(r.history.back().feasible_fraction == 1.0);
  }
  SECTION("stop.evaluations: a restart is skipped when its fresh population and a generation after it do not fit") {
    o.restarts.population_growth = 1;
    // After generation 5: 1000 + 5·992 = 5960 spent. Island 0's restart needs 250 + 992 more: fits under 7300;
    // island 1's would then need 250 more and a generation: 5960 + 500 + 992 = 7452 > 7300, skipped, and so
    // islands 2 and 3.
    o.stop.evaluations = 7300;
    const Result r = solve(Flat{}, o, backend::serial{});
    CHECK(r.evaluations <= 7300);
    CHECK(r.islands[0].restarts == 1);
    CHECK(r.islands[1].restarts == 0);
    CHECK(r.islands[3].restarts == 0);
    CHECK(r.generations == 6);  // 5960 + 250 + 992 = 7202; a seventh generation (8194) does not fit
    CHECK(r.evaluations == 7202);
    CHECK(r.reason == stop_reason::evaluations);
  }
}

TEST_CASE("solve: a restarted island takes no immigrants in its first stall_generations", "[islands]") {
  // 2 islands of 50, M = 5, restarts after 10 stalled generations: both restart at generation 10 (after that
  // epoch's migration), so the migration at 15 is refused by both; the one at 20 is taken again.
  ga_options o = archipelago(100, 14, 2, 5, 3);
  const auto immigrants = [&](int generations, bool restarting) {
    ga_options x = o;
    x.generations = generations;
    if (restarting) x.restarts.stall_generations = 10;
    const Result r = solve(Steps{}, x, backend::serial{});
    if (restarting) CHECK(r.restarts == (generations > 20 ? 4 : 2));
    return total_immigrants(r);
  };
  CHECK(immigrants(16, true) == immigrants(14, true));  // the migration at 15: none taken
  CHECK(immigrants(21, true) > immigrants(16, true));   // at 20: taken again
  // Without restarts the migration at 15 is taken (the same seeds: the shield, not chance, refused it above).
  CHECK(immigrants(16, false) > immigrants(14, false));
}

TEST_CASE("solve: restarts on islands keep each island's best and are bitwise the same at any thread count",
          "[islands]") {
  // Rastrigin d = 6, 5 islands of 20, restarts after 10 stalled generations: islands stall and restart at
  // different epochs, SHADE on island 1 (its archive and memories start afresh too).
  problems::Rastrigin<double> p;
  p.dim = 6;
  ga_options o = archipelago(100, 300, 5, 5, 1);
  o.restarts.stall_generations = 10;
  ga_options ga = o;
  ga.islands = island_options{};
  ga.restarts = restart_options{};
  o.islands.variants = {ga, shade()};
  const Result r = check_threads(p, o);
  CHECK(r.restarts > 0);
  int sum = 0;
  for (const island_result& x : r.islands) {
    sum += x.restarts;
    // An island's best-so-far is never worse than any of its rows' (each row: its current start's best).
    for (const generation_stats& row : x.history) CHECK(x.objective <= row.best_objective);
  }
  CHECK(sum == r.restarts);
  for (const generation_stats& row : r.history) CHECK(r.objective <= row.best_objective);
  // Without restarts the same seeds run another trajectory.
  o.restarts = restart_options{};
  CHECK(solve(p, o, backend::serial{}).restarts == 0);
}
