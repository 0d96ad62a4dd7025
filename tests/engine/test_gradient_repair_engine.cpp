// The gradient repair inside the fused offspring pass (repair_pass.hpp):
// bitwise identical for every backend and thread count, honest evaluation
// counts, and the quality it buys on a problem with nonlinear equalities
// (built here, not from the held-back suite); the same repair of DE's trial
// vectors (εDEg, de_pass.hpp) on a hand-checkable linear equality.
#include <catch2/catch.hpp>

#include <cmath>

#include <fusedga/fusedga.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>

#include "engine/same_result.hpp"

using namespace fusedga;
using namespace engine_test;

namespace {

/// minimize Σ (x_i − 1)² over D genes in [−3, 3] subject to the sphere Σ x_i² = 4 and x0·x1·x2 − x3 = 0.5:
/// two nonlinear equalities (feasible set of dimension D − 2), finite-difference Jacobians.
template <class Real, int D>
struct sphere_and_twist {
  using gene_type = Real;
  int dimension() const { return D; }
  int equality_count() const { return 2; }
  Bounds<Real> bounds() const { return {std::vector<Real>(D, Real(-3)), std::vector<Real>(D, Real(3))}; }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    double s = 0;
    for (int j = 0; j < D; ++j) s += (double(x[j]) - 1) * (double(x[j]) - 1);
    return s;
  }
  template <class X, class H>
  FUSEDGA_HD void equalities(const X& x, H& h) const {
    Real s = 0;
    for (int j = 0; j < D; ++j) s += x[j] * x[j];
    h[0] = s - Real(4);
    h[1] = x[0] * x[1] * x[2] - x[3] - Real(0.5);
  }
};

/// The same with its exact Jacobian (the `jacobian` member of the problem concept).
template <int D>
struct sphere_and_twist_exact : sphere_and_twist<double, D> {
  void jacobian(const double* x, double* c, double* J) const {
    double s = 0;
    for (int j = 0; j < D; ++j) s += x[j] * x[j];
    c[0] = s - 4;
    c[1] = x[0] * x[1] * x[2] - x[3] - 0.5;
    for (int j = 0; j < D; ++j) {
      J[j] = 2 * x[j];
      J[D + j] = 0;
    }
    J[D + 0] = x[1] * x[2];
    J[D + 1] = x[0] * x[2];
    J[D + 2] = x[0] * x[1];
    J[D + 3] = -1;
  }
};

/// minimize Σ x_i² over 4 genes in [−1, 1] subject to Σ x_i = 1: optimum x_i = 1/4, f* = 1/4 (with the
/// tolerance eps, Σ x_i = 1 − eps and f = (1 − eps)²/4). A Newton step on the equality is the projection
/// x − (Σ x − 1)/4 onto the plane: exact unless a gene is clipped at a bound, after which the unclipped genes
/// close at least 1/4 of the remaining gap per step. Exact Jacobian (1 evaluation per step).
struct plane_sphere {
  using gene_type = double;
  int dimension() const { return 4; }
  int equality_count() const { return 1; }
  Bounds<double> bounds() const { return {std::vector<double>(4, -1.0), std::vector<double>(4, 1.0)}; }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    return x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
  }
  template <class X, class H>
  FUSEDGA_HD void equalities(const X& x, H& h) const {
    h[0] = x[0] + x[1] + x[2] + x[3] - 1.0;
  }
  void jacobian(const double* x, double* c, double* J) const {
    c[0] = x[0] + x[1] + x[2] + x[3] - 1.0;
    for (int j = 0; j < 4; ++j) J[j] = 1.0;
  }
};

/// SHADE (one-to-one survival) with the gradient repair of its trial vectors at `rate`.
ga_options de_repair_options(double rate) {
  ga_options o;
  o.algorithm = algorithm_kind::de;
  o.elitism = 0;
  o.population = 150;
  o.generations = 30;
  o.seed = 5;
  o.constraints.gradient_repair.rate = rate;
  o.constraints.gradient_repair.iterations = 3;
  return o;
}

ga_options repair_options(double rate) {
  ga_options o;
  o.population = 301;
  o.generations = 40;
  o.seed = 3;
  o.constraints.gradient_repair.rate = rate;
  o.constraints.gradient_repair.iterations = 3;
  return o;
}

template <class Problem>
void check_all_backends(const Problem& p, const ga_options& o) {
  const Result serial = solve(p, o, backend::serial{});
  for (int threads : {1, 2, 3}) {
    INFO("tbb threads = " << threads);
    require_identical(serial, solve(p, o, backend::tbb{threads}));
  }
}

}  // namespace

TEST_CASE("gradient repair: serial and TBB give bitwise identical runs (staged tiles and rows)", "[gradient-repair]") {
  check_all_backends(sphere_and_twist<double, 6>{}, repair_options(0.3));
  check_all_backends(sphere_and_twist<float, 6>{}, repair_options(0.3));
  check_all_backends(sphere_and_twist_exact<6>{}, repair_options(1.0));
  check_all_backends(sphere_and_twist<double, 40>{}, repair_options(0.3));  // d > 32: children built in their rows
}

TEST_CASE("gradient repair: rate 0 leaves a run bitwise unchanged", "[gradient-repair]") {
  ga_options off = repair_options(0.0);
  off.constraints.gradient_repair.iterations = 7;  // read only when the rate is above 0
  require_identical(solve(problems::ConstrainedQuadratic<double>{}, ga_options{}, backend::serial{}),
                    solve(problems::ConstrainedQuadratic<double>{}, [] {
                      ga_options o;
                      o.constraints.gradient_repair.iterations = 7;
                      return o;
                    }(), backend::serial{}));
  const Result r = solve(sphere_and_twist<double, 6>{}, off, backend::serial{});
  CHECK(r.evaluations == off.population + std::uint64_t(off.generations) * (off.population - off.elitism));
}

TEST_CASE("gradient repair: its evaluations are counted (1 per step exact, 1 + d by differences)", "[gradient-repair]") {
  ga_options o = repair_options(1.0);
  o.generations = 1;
  o.constraints.gradient_repair.iterations = 1;  // every child: exactly one step, never stopped early
  const std::uint64_t base = o.population + (o.population - o.elitism);
  const std::uint64_t children = o.population - o.elitism;
  const Result exact = solve(sphere_and_twist_exact<6>{}, o, backend::serial{});
  const Result fd = solve(sphere_and_twist<double, 6>{}, o, backend::serial{});
  CHECK(exact.evaluations == base + children * 1);
  CHECK(fd.evaluations == base + children * (1 + 6));
  // (μ+λ) survival: N children, each repaired once, counted although the parents' summary follows the children's
  ga_options plus = o;
  plus.survival.kind = survival_kind::plus;
  const std::uint64_t n = plus.population;
  CHECK(solve(sphere_and_twist_exact<6>{}, plus, backend::serial{}).evaluations == n + n + n * 1);
  CHECK(solve(sphere_and_twist_exact<6>{}, plus, backend::tbb{2}).evaluations == n + n + n * 1);
}

TEST_CASE("gradient repair: integer genes are a config error", "[gradient-repair]") {
  ga_options integer = repair_options(0.1);
  integer.crossover.kind = crossover_kind::uniform;
  integer.mutation.kind = mutation_kind::uniform_reset;
  REQUIRE_THROWS_WITH(validate(integer, 4, false), Catch::Contains("needs real genes"));
  integer.constraints.gradient_repair.rate = 0;
  REQUIRE_NOTHROW(validate(integer, 4, false));
  ga_options bad = repair_options(1.5);
  REQUIRE_THROWS_WITH(validate(bad, 4, true), Catch::Contains("ga.constraint_handling.gradient_repair.rate"));
}

TEST_CASE("gradient repair: two nonlinear equalities become feasible in most seeds", "[gradient-repair][quality]") {
  int feasible_without = 0, feasible_with = 0;
  double objective_with = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    ga_options o = repair_options(0.0);
    o.population = 200;
    o.generations = 100;
    o.seed = seed;
    feasible_without += solve(sphere_and_twist<double, 6>{}, o, backend::serial{}).feasible;
    o.constraints.gradient_repair.rate = 0.2;
    const Result r = solve(sphere_and_twist<double, 6>{}, o, backend::serial{});
    feasible_with += r.feasible;
    if (r.feasible) objective_with = std::max(objective_with, r.objective);
  }
  INFO("feasible without repair " << feasible_without << "/10, with " << feasible_with << "/10");
  CHECK(feasible_without <= 2);
  CHECK(feasible_with >= 9);
}

TEST_CASE("gradient repair with DE: trials land on a linear equality, counted", "[gradient-repair][de]") {
  ga_options o = de_repair_options(1.0);
  o.generations = 1;
  o.constraints.gradient_repair.iterations = 1;  // one step per trial, 1 evaluation each (exact Jacobian)
  const Result one = solve(plane_sphere{}, o, backend::serial{});
  CHECK(one.evaluations == 150 + 150 + 150 * (1 + 1));  // each trial infeasible: 1 Newton step, 1 evaluation again
  o.constraints.gradient_repair.iterations = 40;  // worst case: gap 5, closed by >= 1/4 per step → < 1e-4
  const Result repaired = solve(plane_sphere{}, o, backend::serial{});
  REQUIRE(repaired.history.size() == 2);
  CHECK(repaired.history[0].feasible_fraction == 0.0);  // random points are off the plane by more than 1e-4
  // Every trial is repaired onto the plane, so it beats its infeasible target (feasibility rules): the whole
  // population is feasible after one generation.
  CHECK(repaired.history[1].feasible_fraction == 1.0);
  CHECK(std::abs(repaired.best_genes[0] + repaired.best_genes[1] + repaired.best_genes[2] + repaired.best_genes[3] -
                 1.0) <= 1e-4);
  o.constraints.gradient_repair.rate = 0;
  const Result plain = solve(plane_sphere{}, o, backend::serial{});
  CHECK(plain.history[1].feasible_fraction < 0.05);
  CHECK(plain.evaluations == 150 + 150);
}

namespace {
/// minimize Σ x_i² over 2 genes in [−1, 1] subject to x_0 − 10 <= 0: every point is feasible.
struct never_violated {
  using gene_type = double;
  int dimension() const { return 2; }
  int inequality_count() const { return 1; }
  Bounds<double> bounds() const { return {std::vector<double>(2, -1.0), std::vector<double>(2, 1.0)}; }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    return x[0] * x[0] + x[1] * x[1];
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& x, G& g) const {
    g[0] = x[0] - 10.0;
  }
  void jacobian(const double* x, double* c, double* J) const {
    c[0] = x[0] - 10.0;
    J[0] = 1.0;
    J[1] = 0.0;
  }
};
}  // namespace

TEST_CASE("gradient repair with DE: feasible trials are left alone and cost nothing", "[gradient-repair][de]") {
  // Takahama & Sakai repair infeasible trials only; the repair runs after the trial's evaluation, so a feasible
  // trial whose coin comes up spends no constraint-and-Jacobian evaluation.
  ga_options o = de_repair_options(1.0);
  const Result repaired = solve(never_violated{}, o, backend::serial{});
  CHECK(repaired.evaluations == 150 + std::uint64_t(30) * 150);
  o.constraints.gradient_repair.rate = 0;
  require_identical(repaired, solve(never_violated{}, o, backend::serial{}));
}

TEST_CASE("gradient repair with DE: reaches the plane's optimum 1/4", "[gradient-repair][de]") {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    ga_options o = de_repair_options(0.2);
    o.seed = seed;
    o.generations = 300;
    const Result r = solve(plane_sphere{}, o, backend::serial{});
    INFO("seed " << seed << ": f = " << r.objective);
    REQUIRE(r.feasible);
    CHECK(r.objective >= (1 - 1e-4) * (1 - 1e-4) / 4 - 1e-12);  // the tolerance allows Σ x = 1 − 1e-4
    CHECK(r.objective <= 0.25 + 1e-6);
    for (double x : r.best_genes) CHECK(std::abs(x - 0.25) <= 1e-3);
  }
}

TEST_CASE("gradient repair with DE: serial and TBB give bitwise identical runs", "[gradient-repair][de]") {
  for (de_strategy s : {de_strategy::shade, de_strategy::rand_1_bin}) {
    ga_options o = de_repair_options(0.3);
    o.de.strategy = s;
    check_all_backends(plane_sphere{}, o);
    check_all_backends(sphere_and_twist<double, 6>{}, o);  // nonlinear equalities, finite differences
    check_all_backends(sphere_and_twist<float, 6>{}, o);
    o.constraints.rule = constraint_rule::epsilon;  // εDEg: ε-constrained DE with gradient repair
    check_all_backends(sphere_and_twist_exact<6>{}, o);
  }
}

TEST_CASE("gradient repair with DE: two nonlinear equalities become feasible", "[gradient-repair][de][quality]") {
  int feasible_without = 0, feasible_with = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    ga_options o = de_repair_options(0.0);
    o.population = 100;
    o.generations = 100;
    o.seed = seed;
    feasible_without += solve(sphere_and_twist<double, 6>{}, o, backend::serial{}).feasible;
    o.constraints.gradient_repair.rate = 0.2;
    feasible_with += solve(sphere_and_twist<double, 6>{}, o, backend::serial{}).feasible;
  }
  INFO("feasible without repair " << feasible_without << "/10, with " << feasible_with << "/10");
  CHECK(feasible_with == 10);
  CHECK(feasible_without <= 2);  // measured: 0 of 10
}

TEST_CASE("gradient repair: stop.evaluations holds, the generations its worst case could pass run without it",
          "[gradient-repair][budget]") {
  // One step per child (iterations 1, rate 1: every child, 1 evaluation exact, 1 + d by differences): a
  // generation spends c children plus exactly its worst case b, so which generations repair is known by hand.
  ga_options o = repair_options(1.0);
  o.generations = 1000;
  o.constraints.gradient_repair.iterations = 1;
  const std::uint64_t n = o.population, c = o.population - o.elitism;
  SECTION("exact Jacobian: b = c") {
    // Five generations with the repair (2c each); then 1.5c are left, less than 2c: one more without it.
    o.stop.evaluations = n + 5 * 2 * c + c + c / 2;
    const Result r = solve(sphere_and_twist_exact<6>{}, o, backend::serial{});
    CHECK(r.evaluations == n + 5 * 2 * c + c);
    CHECK(r.reason == stop_reason::evaluations);
    REQUIRE(r.history.size() == 7);
    for (std::size_t g = 1; g < r.history.size(); ++g)
      CHECK(r.history[g].evaluations - r.history[g - 1].evaluations == (g <= 5 ? 2 * c : c));
    o.stop.evaluations = n + 5 * 2 * c;  // exactly five repaired generations, and nothing left
    CHECK(solve(sphere_and_twist_exact<6>{}, o, backend::serial{}).evaluations == n + 5 * 2 * c);
  }
  SECTION("finite differences: b = 7c; bitwise the same on TBB") {
    // Three generations with the repair (8c each); then 7c + 2 are left, less than 8c: seven without it.
    o.stop.evaluations = n + 3 * 8 * c + 7 * c + 2;
    const Result r = solve(sphere_and_twist<double, 6>{}, o, backend::serial{});
    CHECK(r.evaluations == n + 3 * 8 * c + 7 * c);
    CHECK(r.generations == 10);
    require_identical(r, solve(sphere_and_twist<double, 6>{}, o, backend::tbb{2}));
  }
  SECTION("DE (each repaired trial evaluated again), every budget near the end of a run") {
    ga_options de = de_repair_options(1.0);
    de.generations = 1000;
    for (std::uint64_t budget : {1000ull, 1234ull, 2999ull, 4321ull}) {
      de.stop.evaluations = budget;
      const Result r = solve(sphere_and_twist<double, 6>{}, de, backend::serial{});
      INFO("budget " << budget);
      CHECK(r.evaluations <= budget);
      CHECK(r.evaluations > budget - de.population);  // stopped only when not even the trials fit
      CHECK(r.reason == stop_reason::evaluations);
    }
  }
}
