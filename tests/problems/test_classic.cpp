// Built-in classic benchmark functions (problems/classic/): values at the
// optimum and at hand-checked points, the `dim` parameter, and a fixed-seed
// GA run that must reach the optimum 0 (absolute tolerance 1e-3).
//
// GA settings (the same as in configs/classic-*.yaml):
//  - sphere, Rastrigin, Ackley at d = 10: population 5000, 300 generations,
//    binary tournament, SBX rate 0.9 η 15, polynomial mutation rate 1/d η 20,
//    elitism 1500 (30%), seed 42. All 32 seeds tried reach the optimum.
//  - Rosenbrock at d = 5: population 2000, 3000 generations, tournament 4,
//    SBX rate 0.5 η 15, polynomial mutation rate 1.0 η 1000, elitism 1000,
//    seed 42. Following the curved valley needs small moves of every gene at
//    once; with the sphere settings it stalls between 1e-2 and 1, and d = 10
//    still sits near 1e-2 after 10M evaluations (more than a unit test may take).

#include <array>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <vector>

#include <catch2/catch.hpp>
#include <fusedga/core/gene_view.hpp>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/ackley.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/classic/rosenbrock.hpp>
#include <fusedga/problems/classic/sphere.hpp>

namespace {

using fusedga::problems::Ackley;
using fusedga::problems::Rastrigin;
using fusedga::problems::Rosenbrock;
using fusedga::problems::Sphere;

/// `p` with dimension `d`.
template <class P>
P with_dim(int d) {
  P p;
  p.dim = d;
  return p;
}

/// Objective of `p` at `x` (x.size() == p.dimension()).
template <class P>
double value_at(const P& p, const std::vector<double>& x) {
  REQUIRE(x.size() == static_cast<std::size_t>(p.dimension()));
  return p.objective(fusedga::gene_view<double, 1>{x.data()});
}

/// Objective of `p` at float genes `x`.
template <class P>
double value_at_float(const P& p, const std::vector<float>& x) {
  REQUIRE(x.size() == static_cast<std::size_t>(p.dimension()));
  return p.objective(fusedga::gene_view<float, 1>{x.data()});
}

/// Checks the parts every classic problem shares: `dim` drives dimension and bounds, uniform box [lo, hi].
template <template <class> class P>
void check_shape(double lo, double hi) {
  STATIC_REQUIRE(std::is_trivially_copyable_v<P<double>>);
  STATIC_REQUIRE(std::is_trivially_copyable_v<P<float>>);
  STATIC_REQUIRE(fusedga::sense_of<P<double>>() == fusedga::Sense::minimize);
  CHECK(P<double>{}.dimension() == 30);  // default
  for (int d : {1, 7, 30, 100}) {
    const auto p = with_dim<P<double>>(d);
    CHECK(p.dimension() == d);
    CHECK(fusedga::inequality_count(p) == 0);
    const auto b = p.bounds();
    CHECK_NOTHROW(b.validate(d));
    for (int j = 0; j < d; ++j) {
      CHECK(b.lower[static_cast<std::size_t>(j)] == Approx(lo));
      CHECK(b.upper[static_cast<std::size_t>(j)] == Approx(hi));
    }
  }
}

/// Runs the GA and checks it reaches 0 within 1e-3 (absolute).
template <class P>
void check_ga_reaches_zero(const P& problem, const fusedga::ga_options& o) {
  const fusedga::Result r = fusedga::solve(problem, o, fusedga::backend::tbb{});
  INFO("objective " << r.objective << " after " << r.generations << " generations, " << r.wall_time_s << " s");
  CHECK(r.feasible);
  CHECK(r.objective >= -1e-12);
  CHECK(r.objective < 1e-3);
  REQUIRE(r.best_genes.size() == static_cast<std::size_t>(problem.dimension()));
  // The engine evaluates with libmvec's SIMD cos/exp (<= 4 ulp); Rastrigin and Ackley
  // cancel terms of size ~10·d near the optimum, so a scalar re-evaluation agrees to ~1e-12.
  CHECK(value_at(problem, r.best_genes) == Approx(r.objective).margin(1e-10));
}

/// The shared settings of sphere, Rastrigin and Ackley at d = 10.
fusedga::ga_options separable_settings() {
  fusedga::ga_options o;
  o.population = 5000;
  o.generations = 300;
  o.seed = 42;
  o.selection.tournament_size = 2;
  o.crossover.rate = 0.9;
  o.crossover.eta = 15;
  o.mutation.rate.reset();  // auto = 1/d
  o.mutation.eta = 20;
  o.elitism = 1500;
  return o;
}

}  // namespace

// ---------------------------------------------------------------------------

TEST_CASE("sphere: shape and bounds", "[problems][classic]") { check_shape<Sphere>(-5.12, 5.12); }

TEST_CASE("sphere: values", "[problems][classic]") {
  const auto p = with_dim<Sphere<double>>(4);
  CHECK(value_at(p, {0, 0, 0, 0}) == 0);
  CHECK(value_at(p, {1, -2, 3, 0.5}) == Approx(1 + 4 + 9 + 0.25));
  CHECK(value_at(with_dim<Sphere<double>>(30), std::vector<double>(30, 5.12)) == Approx(30 * 5.12 * 5.12));
  CHECK(value_at_float(with_dim<Sphere<float>>(4), {1, -2, 3, 0.5f}) == Approx(14.25));
}

TEST_CASE("sphere: GA reaches 0 at d = 10", "[problems][classic][solve]") {
  check_ga_reaches_zero(with_dim<Sphere<double>>(10), separable_settings());
}

// ---------------------------------------------------------------------------

TEST_CASE("rastrigin: shape and bounds", "[problems][classic]") { check_shape<Rastrigin>(-5.12, 5.12); }

TEST_CASE("rastrigin: values", "[problems][classic]") {
  const auto p = with_dim<Rastrigin<double>>(3);
  CHECK(value_at(p, {0, 0, 0}) == Approx(0).margin(1e-12));
  // Integer points are local minima: each term is x² − 10 cos(2πx) + 10 = x².
  CHECK(value_at(p, {1, 1, 1}) == Approx(3));
  CHECK(value_at(p, {1, -2, 0}) == Approx(5));
  // Half-integers: cos(2π·0.5) = −1, term = 0.25 + 20.
  CHECK(value_at(p, {0.5, 0, 0}) == Approx(20.25));
  CHECK(value_at(with_dim<Rastrigin<double>>(10), std::vector<double>(10, 0.0)) == Approx(0).margin(1e-12));
  CHECK(value_at_float(with_dim<Rastrigin<float>>(3), {1, 1, 1}) == Approx(3).epsilon(1e-5));
}

TEST_CASE("rastrigin: GA reaches 0 at d = 10", "[problems][classic][solve]") {
  check_ga_reaches_zero(with_dim<Rastrigin<double>>(10), separable_settings());
}

// ---------------------------------------------------------------------------

TEST_CASE("rosenbrock: shape and bounds", "[problems][classic]") { check_shape<Rosenbrock>(-2.048, 2.048); }

TEST_CASE("rosenbrock: values", "[problems][classic]") {
  const auto p = with_dim<Rosenbrock<double>>(4);
  CHECK(value_at(p, {1, 1, 1, 1}) == 0);
  // At 0 every term is (1 − 0)² = 1: f = d − 1.
  CHECK(value_at(p, {0, 0, 0, 0}) == Approx(3));
  // d = 2 at (−1, 2): 100 (2 − 1)² + (1 + 1)² = 104.
  CHECK(value_at(with_dim<Rosenbrock<double>>(2), {-1, 2}) == Approx(104));
  // Chained terms: (1, 2, 3): 100 (2 − 1)² + 0 + 100 (3 − 4)² + (1 − 2)² = 201.
  CHECK(value_at(with_dim<Rosenbrock<double>>(3), {1, 2, 3}) == Approx(201));
  CHECK(value_at(with_dim<Rosenbrock<double>>(1), {-2}) == 0);  // no terms
  CHECK(value_at_float(with_dim<Rosenbrock<float>>(2), {-1, 2}) == Approx(104));
}

TEST_CASE("rosenbrock: GA reaches 0 at d = 5", "[problems][classic][solve]") {
  fusedga::ga_options o;
  o.population = 2000;
  o.generations = 3000;
  o.seed = 42;
  o.selection.tournament_size = 4;
  o.crossover.rate = 0.5;
  o.crossover.eta = 15;
  o.mutation.rate = 1.0;
  o.mutation.eta = 1000;
  o.elitism = 1000;
  check_ga_reaches_zero(with_dim<Rosenbrock<double>>(5), o);
}

// ---------------------------------------------------------------------------

TEST_CASE("ackley: shape and bounds", "[problems][classic]") { check_shape<Ackley>(-32.768, 32.768); }

TEST_CASE("ackley: values", "[problems][classic]") {
  const auto p = with_dim<Ackley<double>>(5);
  CHECK(value_at(p, {0, 0, 0, 0, 0}) == Approx(0).margin(1e-14));
  // At (1, ..., 1): cos(2π) = 1, so f = −20 e^{−0.2} − e + 20 + e = 20 (1 − e^{−0.2}).
  CHECK(value_at(p, {1, 1, 1, 1, 1}) == Approx(20 * (1 - std::exp(-0.2))));
  CHECK(value_at(p, {1, 1, 1, 1, 1}) == Approx(3.6253849384403627));
  // At (0.5, 0, 0, 0, 0): Σx²/d = 0.05, Σcos/d = (−1 + 4)/5 = 0.6.
  CHECK(value_at(p, {0.5, 0, 0, 0, 0}) ==
        Approx(-20 * std::exp(-0.2 * std::sqrt(0.05)) - std::exp(0.6) + 20 + std::exp(1.0)));
  CHECK(value_at_float(with_dim<Ackley<float>>(5), {1, 1, 1, 1, 1}) == Approx(3.6253849384403627).epsilon(1e-5));
}

TEST_CASE("ackley: GA reaches 0 at d = 10", "[problems][classic][solve]") {
  check_ga_reaches_zero(with_dim<Ackley<double>>(10), separable_settings());
}
