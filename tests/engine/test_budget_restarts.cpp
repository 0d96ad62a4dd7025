// stop.evaluations (a budget the run never exceeds) and IPOP restarts (solve.hpp).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>

using namespace fusedga;
using CQ = problems::ConstrainedQuadratic<double>;

TEST_CASE("budget: never exceeded, the generation that would exceed it is not run", "[budget]") {
  ga_options o;
  o.population = 1000;
  o.elitism = 10;
  o.generations = 10000;
  for (std::uint64_t budget : {1000ull, 1989ull, 1990ull, 100000ull, 123457ull}) {
    o.stop.evaluations = budget;
    const Result r = solve(CQ{}, o, backend::serial{});
    INFO("budget " << budget);
    // 1000 initial evaluations, then 990 per generation: the most generations that fit.
    const std::uint64_t generations = (budget - 1000) / 990;
    CHECK(r.generations == static_cast<int>(generations));
    CHECK(r.evaluations == 1000 + generations * 990);
    CHECK(r.evaluations <= budget);
    CHECK(r.reason == stop_reason::evaluations);
    CHECK(r.history.back().evaluations == r.evaluations);
  }
}

TEST_CASE("budget: the generation limit still applies when it comes first", "[budget]") {
  ga_options o;
  o.population = 500;
  o.generations = 7;
  o.stop.evaluations = 1000000;
  const Result r = solve(CQ{}, o, backend::serial{});
  CHECK(r.generations == 7);
  CHECK(r.reason == stop_reason::generations);
}

TEST_CASE("budget: below the population is rejected by name", "[budget][validate]") {
  ga_options o;
  o.population = 500;
  o.stop.evaluations = 499;
  REQUIRE_THROWS_WITH(solve(CQ{}, o, backend::serial{}), Catch::Contains("stop.evaluations"));
}

TEST_CASE("restarts: populations grow, counters carry over, the best never worsens", "[restarts]") {
  using R = problems::Rastrigin<double>;
  ga_options o;
  o.population = 64;
  o.elitism = 4;
  o.generations = 100000;
  o.stop.evaluations = 200000;
  o.restarts.stall_generations = 15;
  o.restarts.population_growth = 2;
  std::vector<generation_stats> rows;
  o.on_generation = [&](const generation_stats& s) { rows.push_back(s); };
  const Result r = solve(R{10}, o, backend::serial{});
  REQUIRE(r.restarts >= 2);
  CHECK(r.reason == stop_reason::evaluations);
  CHECK(r.evaluations <= 200000);
  REQUIRE(rows.size() == r.history.size());
  // Each start begins with a row of the same generation number whose evaluations grew by its population,
  // 64·2^k for start k: the starts' initial populations are found and sized right.
  int starts = 1;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    CHECK(rows[i].evaluations > rows[i - 1].evaluations);
    CHECK(rows[i].elapsed_s >= rows[i - 1].elapsed_s);
    if (rows[i].generation == rows[i - 1].generation) {
      CHECK(rows[i].evaluations - rows[i - 1].evaluations == (64u << starts));
      ++starts;
    } else {
      CHECK(rows[i].generation == rows[i - 1].generation + 1);
    }
  }
  CHECK(starts == r.restarts + 1);
  CHECK(r.generations == rows.back().generation);
  // The result is the best over all starts: no row's population best beats it.
  for (const auto& s : rows) CHECK(r.objective <= s.best_objective);
  // Its genes are the reported individual's (the engine's SIMD cos may differ from std::cos in the last bits).
  CHECK(R{10}.objective(gene_view<double, 1>{r.best_genes.data()}) == Approx(r.objective).margin(1e-12));
}

TEST_CASE("restarts: bitwise equal on serial and TBB at any thread count", "[restarts][determinism]") {
  using R = problems::Rastrigin<double>;
  ga_options o;
  o.population = 100;
  o.generations = 400;
  o.restarts.stall_generations = 10;
  o.restarts.population_growth = 1.5;
  const Result a = solve(R{6}, o, backend::serial{});
  REQUIRE(a.restarts >= 1);
  for (int threads : {1, 2, 3}) {
    const Result b = solve(R{6}, o, backend::tbb{threads});
    INFO("threads " << threads);
    CHECK(b.restarts == a.restarts);
    CHECK(b.best_genes == a.best_genes);
    CHECK(b.objective == a.objective);
    CHECK(b.evaluations == a.evaluations);
    REQUIRE(b.history.size() == a.history.size());
    for (std::size_t i = 0; i < a.history.size(); ++i) CHECK(b.history[i].mean_objective == a.history[i].mean_objective);
  }
}

TEST_CASE("restarts: a larger budget never ends worse on the same seed", "[restarts][budget]") {
  using R = problems::Rastrigin<double>;
  ga_options o;
  o.population = 50;
  o.elitism = 2;
  o.generations = 1000000;
  o.restarts.stall_generations = 20;
  double previous = 1e300;
  for (std::uint64_t budget : {20000ull, 80000ull, 320000ull}) {
    o.stop.evaluations = budget;
    const Result r = solve(R{8}, o, backend::serial{});
    INFO("budget " << budget);
    CHECK(r.objective <= previous);
    previous = r.objective;
  }
}
