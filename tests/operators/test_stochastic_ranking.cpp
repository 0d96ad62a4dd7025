// Stochastic ranking in tournaments (operators/stochastic_ranking.hpp, Runarsson & Yao 2000).
#include <catch2/catch.hpp>
#include <cstdint>
#include <fusedga/core/rank_key.hpp>
#include <fusedga/core/rng.hpp>
#include <fusedga/operators/stochastic_ranking.hpp>
#include <fusedga/operators/tournament.hpp>
#include <vector>

using namespace fusedga;

TEST_CASE("stochastic_better: both feasible or coin by objective, else by violation", "[stochastic-ranking]") {
  // both feasible: by objective whatever the coin
  CHECK(stochastic_better(1.0, 0.0, 2.0, 0.0, Sense::minimize, false));
  CHECK(stochastic_better(1.0, 0.0, 2.0, 0.0, Sense::minimize, true));
  CHECK(stochastic_better(2.0, 0.0, 1.0, 0.0, Sense::maximize, false));
  // one infeasible: the coin decides what is compared
  CHECK(stochastic_better(1.0, 0.5, 2.0, 0.0, Sense::minimize, true));    // by objective: the infeasible one wins
  CHECK(!stochastic_better(1.0, 0.5, 2.0, 0.0, Sense::minimize, false));  // by violation: it loses
  CHECK(stochastic_better(9.0, 0.1, 1.0, 0.5, Sense::minimize, false));
  CHECK(!stochastic_better(1.0, 0.1, 1.0, 0.1, Sense::minimize, false));  // ties are not better
}

namespace {
struct population_fixture {
  std::vector<double> f, v;
  std::vector<std::uint64_t> key;
  explicit population_fixture(std::uint32_t n) {
    for (std::uint32_t i = 0; i < n; ++i) {
      f.push_back(static_cast<double>((i * 37) % 101));
      v.push_back(i % 3 == 0 ? 0.0 : static_cast<double>((i * 13) % 7 + 1));
      key.push_back(make_rank_key(f.back(), v.back(), Sense::minimize, constraint_rule::feasibility_rules, 1.0));
    }
  }
};
}  // namespace

TEST_CASE("stochastic tournament: pf 0 is feasibility rules, pf 1 is by objective", "[stochastic-ranking]") {
  const std::uint32_t n = 200;
  population_fixture p(n);
  const counter_rng rng = counter_rng::from_seed(5);
  for (int k : {1, 2, 3, 5}) {
    for (std::uint32_t pair = 0; pair < 300; ++pair) {
      std::uint32_t a1, a2, b1, b2;
      stochastic_tournament{k, 0.0}(p.key.data(), p.f.data(), p.v.data(), Sense::minimize, n, rng, pair, 3, a1, a2);
      // With pf = 0 only feasibility rules' compares remain; its ties (equal keys) also keep the first, as tournament.
      tournament<0>{k}(p.key.data(), n, rng, pair, 3, b1, b2);
      CHECK(p.key[a1] == p.key[b1]);
      CHECK(p.key[a2] == p.key[b2]);
      // pf = 1: the winner has the lowest objective among the candidates (the first of equal ones)
      stochastic_tournament{k, 1.0}(p.key.data(), p.f.data(), p.v.data(), Sense::minimize, n, rng, pair, 3, a1, a2);
      const tournament<0> t{k};
      double best1 = 1e300, best2 = 1e300;
      for (int c = 0; c < 2 * k; ++c) {
        const std::uint32_t s = t.candidate(rng, pair, 3, c, n);
        double& b = c < k ? best1 : best2;
        b = p.f[s] < b ? p.f[s] : b;
      }
      CHECK(p.f[a1] == best1);
      CHECK(p.f[a2] == best2);
    }
  }
}

TEST_CASE("stochastic tournament: coins are a pure function of the counters", "[stochastic-ranking]") {
  const std::uint32_t n = 64;
  population_fixture p(n);
  const counter_rng rng = counter_rng::from_seed(11);
  int by_objective_wins = 0, comparisons = 0;
  for (std::uint32_t pair = 0; pair < 2000; ++pair) {
    std::uint32_t a1, a2, b1, b2;
    stochastic_tournament{2, 0.45}(p.key.data(), p.f.data(), p.v.data(), Sense::minimize, n, rng, pair, 9, a1, a2);
    stochastic_tournament{2, 0.45}(p.key.data(), p.f.data(), p.v.data(), Sense::minimize, n, rng, pair, 9, b1, b2);
    REQUIRE(a1 == b1);
    REQUIRE(a2 == b2);
    // the first comparison's coin is stream::rank block 0, lane 0
    const bool coin0 = coin<double>(rng(pair, 9, stream::rank, 0).v[0], 0.45);
    by_objective_wins += coin0 ? 1 : 0;
    ++comparisons;
  }
  // pf = 0.45 over 2000 coins: within 5 standard deviations (sd ≈ 22)
  CHECK(by_objective_wins > 900 - 111);
  CHECK(by_objective_wins < 900 + 111);
}
