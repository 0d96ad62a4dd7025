// Tournament selection compares rank keys, so it obeys Deb's feasibility rules.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <fusedga/core/rank_key.hpp>
#include <fusedga/operators/tournament.hpp>

using namespace fusedga;

TEST_CASE("the tournament winner is the candidate with the smallest rank key", "[tournament]") {
  const auto rng = counter_rng::from_seed(3);
  const std::uint32_t n = 50;
  std::vector<std::uint64_t> keys(n);
  for (std::uint32_t i = 0; i < n; ++i) keys[i] = (i * 7919u) % 101u;  // arbitrary distinct-ish keys
  for (int k : {1, 2, 3, 5}) {
    const tournament<0> t{k};
    for (std::uint32_t pair = 0; pair < 200; ++pair) {
      std::uint32_t p1, p2;
      t(keys.data(), n, rng, pair, 1, p1, p2);
      // recompute the candidates independently
      std::uint32_t best[2] = {0, 0};
      for (int c = 0; c < 2 * k; ++c) {
        const std::uint32_t cand = t.candidate(rng, pair, 1, c, n);
        const int p = c < k ? 0 : 1;
        if (c == 0 || c == k || keys[cand] < keys[best[p]]) best[p] = cand;
      }
      REQUIRE(p1 == best[0]);
      REQUIRE(p2 == best[1]);
    }
  }
}

TEST_CASE("with feasibility rules a feasible candidate always beats an infeasible one", "[tournament]") {
  // individual 0 feasible with a poor objective, 1 infeasible with a great objective
  const std::uint64_t feasible = make_rank_key<double>(1e9, 0.0, Sense::minimize, constraint_rule::feasibility_rules, 1.0);
  const std::uint64_t infeasible = make_rank_key<double>(-1e9, 1e-9, Sense::minimize, constraint_rule::feasibility_rules, 1.0);
  const std::uint64_t keys[2] = {feasible, infeasible};
  const auto rng = counter_rng::from_seed(11);
  const tournament<2> t{2};
  int mixed = 0;
  for (std::uint32_t pair = 0; pair < 1000; ++pair) {
    std::uint32_t p1, p2;
    t(keys, 2, rng, pair, 1, p1, p2);
    const bool saw0 = t.candidate(rng, pair, 1, 0, 2) == 0 || t.candidate(rng, pair, 1, 1, 2) == 0;
    if (saw0) {
      ++mixed;
      REQUIRE(p1 == 0);
    } else {
      REQUIRE(p1 == 1);
    }
  }
  CHECK(mixed > 600);  // 3/4 of the tournaments see the feasible one
}
