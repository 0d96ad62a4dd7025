// Generation loop behaviour: elitism, statistics, stopping rules, option checks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <vector>
#include <cstdint>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/classic/sphere.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>

using namespace fusedga;
using CQ = problems::ConstrainedQuadratic<double>;

TEST_CASE("elitism never loses the best individual", "[elitism]") {
  for (std::size_t elites : {1, 2, 10}) {
    ga_options o;
    o.population = 300;
    o.generations = 60;
    o.elitism = elites;
    o.mutation.rate = 0.9;  // very disruptive: without elitism the best would be lost
    engine<CQ, backend::serial> e(CQ{}, o, backend::serial{});
    e.initialize();
    auto key_of = [](const generation_stats& s) {
      return make_rank_key<double>(s.best_objective, s.best_violation, Sense::maximize,
                                   constraint_rule::feasibility_rules, 1.0);
    };
    auto previous = key_of(e.stats());
    for (int g = 0; g < o.generations; ++g) {
      e.step();
      const auto now = key_of(e.stats());
      REQUIRE(now <= previous);
      previous = now;
    }
  }
}

TEST_CASE("elites are exactly the E best of the previous population, for E beyond a tile", "[elitism]") {
  for (std::size_t elites : {1, 3, 64, 150, 400}) {
    ga_options o;
    o.population = 1000;
    o.generations = 5;
    o.elitism = elites;
    engine<CQ, backend::tbb> e(CQ{}, o, backend::tbb{2});
    e.initialize();
    for (int g = 0; g < 3; ++g) {
      const auto before = e.current();
      std::vector<std::uint64_t> keys(before.rank_key, before.rank_key + before.size);
      std::sort(keys.begin(), keys.end());
      e.step();
      const auto after = e.current();
      std::vector<std::uint64_t> kept(after.rank_key, after.rank_key + elites);
      std::sort(kept.begin(), kept.end());
      INFO("elitism " << elites << ", generation " << g + 1);
      REQUIRE(std::equal(kept.begin(), kept.end(), keys.begin()));
    }
  }
}

TEST_CASE("every crossover/mutation pair keeps genes in the bounds, staged and row layouts", "[repair]") {
  // BLX-alpha draws beyond the parents; the children must still be repaired into the box,
  // and polynomial mutation must never see (or make) an out-of-box gene.
  for (int d : {4, 40}) {
    for (auto ck : {crossover_kind::blx_alpha, crossover_kind::sbx, crossover_kind::uniform, crossover_kind::two_point})
      for (auto mk : {mutation_kind::polynomial, mutation_kind::gaussian, mutation_kind::uniform_reset}) {
        ga_options o;
        o.population = 500;
        o.generations = 15;
        o.crossover.kind = ck;
        o.crossover.alpha = 2.0;  // wide blends
        o.mutation.kind = mk;
        o.mutation.rate = 0.05;
        problems::Sphere<double> p;
        p.dim = d;
        engine<problems::Sphere<double>, backend::serial> e(p, o, backend::serial{});
        e.initialize();
        for (int g = 0; g < o.generations; ++g) e.step();
        const auto pop = e.current();
        INFO("d = " << d << ", " << to_string(ck) << " + " << to_string(mk));
        for (std::size_t i = 0; i < pop.size * static_cast<std::size_t>(d); ++i) {
          REQUIRE(pop.genes[i] >= -5.12);
          REQUIRE(pop.genes[i] <= 5.12);
        }
        REQUIRE(std::isfinite(e.stats().mean_objective));
      }
  }
}

TEST_CASE("statistics match a direct recount of the population", "[statistics]") {
  ga_options o;
  o.population = 777;
  o.generations = 3;
  engine<CQ, backend::tbb> e(CQ{}, o, backend::tbb{2});
  e.initialize();
  e.step();
  e.step();
  const auto pop = e.current();
  double sum = 0;
  int feasible = 0;
  std::uint64_t best_key = ~0ull;
  double best_obj = 0;
  for (std::size_t i = 0; i < pop.size; ++i) {
    sum += pop.objective[i];
    feasible += pop.violation[i] == 0 ? 1 : 0;
    if (pop.rank_key[i] < best_key) best_key = pop.rank_key[i], best_obj = pop.objective[i];
    // stored objective/violation/key agree with a fresh evaluation of the stored genes
    const gene_view<double, 1> x{pop.row(i)};
    REQUIRE(pop.objective[i] == CQ{}.objective(x));
  }
  CHECK(e.stats().mean_objective == Approx(sum / pop.size).epsilon(1e-12));
  CHECK(e.stats().feasible_fraction == Approx(double(feasible) / pop.size));
  CHECK(e.stats().best_objective == best_obj);
  CHECK(e.stats().evaluations == 777u + 2u * (777u - 2u));
  CHECK(e.history().size() == 3);
}

TEST_CASE("stopping rules: target, stall, time limit, interrupt", "[stop]") {
  ga_options o;
  o.population = 2000;
  o.generations = 500;
  SECTION("target") {
    o.stop.target = 260.0;
    const Result r = solve(CQ{}, o, backend::tbb{});
    CHECK(r.reason == stop_reason::target);
    CHECK(r.objective >= 260.0);
    CHECK(r.generations < 500);
  }
  SECTION("stall") {
    o.stop.stall_generations = 5;
    const Result r = solve(CQ{}, o, backend::tbb{});
    CHECK(r.reason == stop_reason::stall);
    CHECK(r.generations < 500);
  }
  SECTION("time limit") {
    o.generations = 1000000;
    o.stop.time_limit_s = 0.2;
    const Result r = solve(CQ{}, o, backend::tbb{});
    CHECK(r.reason == stop_reason::time_limit);
    CHECK(r.wall_time_s >= 0.2);
    CHECK(r.wall_time_s < 5.0);
  }
  SECTION("interrupt stops at the end of the current generation") {
    std::atomic<bool> stop{false};
    o.interrupt = &stop;
    o.on_generation = [&](const generation_stats& s) {
      if (s.generation == 7) stop = true;
    };
    const Result r = solve(CQ{}, o, backend::tbb{});
    CHECK(r.reason == stop_reason::interrupted);
    CHECK(r.generations == 7);
    CHECK(r.history.size() == 8);
  }
}

TEST_CASE("invalid options are rejected with the option's name", "[validate]") {
  ga_options o;
  const auto message = [&] {
    try {
      solve(CQ{}, o, backend::serial{});
    } catch (const config_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  o.population = 1;
  CHECK_THAT(message(), Catch::Contains("ga.population"));
  o = {};
  o.crossover.rate = 1.5;
  CHECK_THAT(message(), Catch::Contains("ga.crossover.rate"));
  o = {};
  o.selection.tournament_size = 101;
  CHECK(message() == "ga.selection.size: expected an integer in [1, population = 100], got 101");  // as the parser says
  o = {};
  o.elitism = 100;
  CHECK_THAT(message(), Catch::Contains("ga.elitism"));
  o = {};
  o.mutation.kind = mutation_kind::creep;
  CHECK_THAT(message(), Catch::Contains("creep needs integer genes"));
  // SBX on integer genes
  ga_options oi;
  try {
    solve(problems::GeneSum<double>{}, oi, backend::serial{});
    FAIL("expected a config_error");
  } catch (const config_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("sbx needs real genes"));
  }
}
