// Generation loop behaviour on the CPU: elite choice, repair, option checks. Monotonic best, statistics, counts
// and stopping rules are checked on every backend in backends/test_engine_properties.cpp.
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
