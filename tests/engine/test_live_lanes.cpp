// A tile of fewer than 64 pairs (targets) plans, varies and draws only its live lanes (philox_lanes.hpp's
// live_lanes): those lanes must come out exactly as in a whole tile, and the others must not be touched.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>

using namespace fusedga;

TEST_CASE("live_lanes: whole groups of 16, at most the tile", "[lanes]") {
  CHECK(detail::live_lanes(1, 64) == 16);
  CHECK(detail::live_lanes(16, 64) == 16);
  CHECK(detail::live_lanes(17, 64) == 32);
  CHECK(detail::live_lanes(50, 64) == 64);
  CHECK(detail::live_lanes(64, 64) == 64);
  CHECK(detail::live_lanes(5, 8) == 8);  // a group of fewer lanes than 16
}

TEST_CASE("draw_lanes: the live lanes are the whole tile's draws", "[lanes]") {
  const auto rng = counter_rng::from_seed(3);
  constexpr int L = 64;
  alignas(64) std::uint32_t all[4][L], some[4][L];
  detail::draw_lanes<L>(rng, 100, 7, stream::de_select, 1, all);
  for (const int live : {16, 32, 48}) {
    detail::draw_lanes<L>(rng, 100, 7, stream::de_select, 1, some, live);
    for (int w = 0; w < 4; ++w)
      for (int l = 0; l < live; ++l) REQUIRE(some[w][l] == all[w][l]);
  }
}

TEST_CASE("plan_pairs and vary over the live lanes equal the whole tile's, and leave the rest", "[lanes]") {
  using R = problems::Rastrigin<double>;
  constexpr int P = detail::kTilePairs;
  R problem;
  problem.dim = 5;
  const int d = problem.dimension();
  const Bounds<double> b = problem.bounds();
  std::vector<std::uint8_t> integer(static_cast<std::size_t>(d));
  integer[2] = 1;  // one integer variable: its genes are rounded
  // The compacted real-gene operators (SBX, polynomial) and the element loops (BLX-alpha, Gaussian).
  for (const bool compact : {true, false}) {
    INFO((compact ? "sbx + polynomial" : "blx-alpha + gaussian"));
    ga_options o;
    o.population = 1000;
    if (!compact) {
      o.crossover.kind = crossover_kind::blx_alpha;
      o.mutation.kind = mutation_kind::gaussian;
    }
    o.mutation.rate = 0.5;
    detail::kernel_params<R> kp = detail::make_kernel_params(problem, o, d);
    kp.bounds = {b.lower.data(), b.upper.data(), integer.data()};
    std::vector<std::uint64_t> keys(o.population);
    for (std::uint32_t i = 0; i < o.population; ++i) keys[i] = (i * 2654435761u) % 97u;
    std::vector<double> rows(static_cast<std::size_t>(d) * o.population);
    for (std::size_t k = 0; k < rows.size(); ++k) rows[k] = -5.0 + 0.37 * static_cast<double>(k % 27);
    const std::uint32_t first = 3 * P, generation = 9;
    detail::pair_plan<P> whole{};
    detail::plan_pairs<P>(kp, keys.data(), rows.data(), first, generation, whole);
    std::vector<double> w1(static_cast<std::size_t>(d) * P), w2(w1.size());
    for (int j = 0; j < d; ++j)
      for (int l = 0; l < P; ++l) {
        w1[j * P + l] = rows[whole.parent1[l] * d + j];
        w2[j * P + l] = rows[whole.parent2[l] * d + j];
      }
    detail::vary<P>(kp, first, generation, whole, w1.data(), w2.data());
    for (const int live : {16, 32}) {
      INFO("live lanes " << live);
      detail::pair_plan<P> plan{};
      detail::plan_pairs<P>(kp, keys.data(), rows.data(), first, generation, plan, nullptr, nullptr, live);
      std::vector<double> c1(w1.size(), 1234.5), c2(w1.size(), 1234.5);  // a value no operator writes
      for (int j = 0; j < d; ++j)
        for (int l = 0; l < live; ++l) {
          REQUIRE(plan.parent1[l] == whole.parent1[l]);
          REQUIRE(plan.parent2[l] == whole.parent2[l]);
          REQUIRE(plan.crosses[l] == whole.crosses[l]);
          c1[j * P + l] = rows[plan.parent1[l] * d + j];
          c2[j * P + l] = rows[plan.parent2[l] * d + j];
        }
      detail::vary<P>(kp, first, generation, plan, c1.data(), c2.data(), live);
      for (int j = 0; j < d; ++j)
        for (int l = 0; l < P; ++l) {
          const std::size_t e = static_cast<std::size_t>(j) * P + static_cast<std::size_t>(l);
          REQUIRE(c1[e] == (l < live ? w1[e] : 1234.5));
          REQUIRE(c2[e] == (l < live ? w2[e] : 1234.5));
        }
    }
  }
}
