// The separable-objective declaration (core/problem_traits.hpp: partial_type, partial_objective, objective_of):
// which problems have it, and that GeneSum's partial sums over any partition of the genes give its objective.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <fusedga/core/gene_view.hpp>
#include <fusedga/core/problem_traits.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>

using namespace fusedga;

TEST_CASE("separable objectives: GeneSum declares one, problems with constraints or real sums do not", "[problems]") {
  STATIC_REQUIRE(separable_objective_v<problems::GeneSum<double>>);
  STATIC_REQUIRE(separable_objective_v<problems::GeneSum<float>>);
  STATIC_REQUIRE_FALSE(separable_objective_v<problems::ConstrainedQuadratic<double>>);
  STATIC_REQUIRE_FALSE(separable_objective_v<problems::Rastrigin<double>>);
}

TEST_CASE("separable objectives: GeneSum's partial sums over random partitions add up to its objective",
          "[problems]") {
  std::mt19937 rng(7);
  for (const int d : {1, 16, 255, 256, 257, 999, 1000, 4000}) {
    problems::GeneSum<double> p;
    p.genes = d;
    std::vector<std::int8_t> x(static_cast<std::size_t>(d));
    for (auto& g : x) g = static_cast<std::int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
    const gene_view<std::int8_t, 1> v{x.data()};
    std::int64_t expected = 0;
    for (const auto g : x) expected += g;
    REQUIRE(p.objective(v) == static_cast<double>(expected));  // hand-summed, int8 extremes included
    for (int trial = 0; trial < 20; ++trial) {
      std::int32_t total = 0;
      for (int begin = 0; begin < d;) {  // ranges of 0..300 genes, empty ones included
        const int end = std::min(d, begin + std::uniform_int_distribution<int>(0, 300)(rng));
        total += p.partial_objective(v, begin, end);
        begin = end;
      }
      INFO("d = " << d << ", trial " << trial);
      CHECK(p.objective_of(total) == static_cast<double>(expected));
    }
  }
}
