// The phased binary tournament of CPU tiles picks exactly the parents the
// per-pair tournament functor (the GPU's definition) picks.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>

using namespace fusedga;

TEST_CASE("plan_pairs' binary tournament equals tournament<0>{2} pair by pair", "[tournament]") {
  using CQ = problems::ConstrainedQuadratic<double>;
  detail::kernel_params<CQ> kp{};
  kp.dimension = 3;
  kp.population = 1000;
  kp.rng = counter_rng::from_seed(99);
  kp.tournament_size = 2;
  kp.crossover = crossover_spec{crossover_kind::one_point, 0.9, {}};
  std::vector<std::uint64_t> keys(kp.population);
  for (std::uint32_t i = 0; i < kp.population; ++i) keys[i] = (i * 2654435761u) % 97u;  // many ties
  std::vector<double> rows(3 * kp.population, 0.0);
  constexpr int P = detail::kTilePairs;
  detail::pair_plan<P> plan;
  detail::plan_pairs<P>(kp, keys.data(), rows.data(), 5 * P, 7, plan);
  const tournament<0> reference{2};
  for (int l = 0; l < P; ++l) {
    std::uint32_t p1, p2;
    reference(keys.data(), kp.population, kp.rng, 5 * P + l, 7, p1, p2);
    REQUIRE(plan.parent1[l] == p1);
    REQUIRE(plan.parent2[l] == p2);
  }
}

TEST_CASE("append_set_indices (SIMD left-pack) lists exactly the set flags, in order", "[compaction]") {
  const auto rng = counter_rng::from_seed(5);
  for (int count : {0, 1, 7, 8, 9, 64, 191, 192}) {
    std::vector<std::int32_t> flags(static_cast<std::size_t>(count));
    for (int e = 0; e < count; ++e) flags[e] = static_cast<std::int32_t>(rng(e, count, stream::pair, 0).v[0] & 1);
    std::vector<std::int32_t> out(static_cast<std::size_t>(2 * count + 16), -1), expected;
    for (int e = 0; e < count; ++e)
      if (flags[e]) expected.push_back(100 + e);
    const int n = detail::append_set_indices(flags.data(), count, 100, out.data(), 0);
    REQUIRE(n == static_cast<int>(expected.size()));
    for (int k = 0; k < n; ++k) REQUIRE(out[k] == expected[k]);
    // appending continues after n
    const int m = detail::append_set_indices(flags.data(), count, 100, out.data(), n);
    REQUIRE(m == 2 * n);
    for (int k = 0; k < n; ++k) REQUIRE(out[n + k] == expected[k]);
  }
}
