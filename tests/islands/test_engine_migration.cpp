// engine::emigrants and engine::immigrate (engine.hpp) on small populations whose rows the test reads:
// which residents leave, which immigrants replace which residents, and that elites and the best-so-far
// follow — under feasibility rules and under the ε-constrained method, whose order the immigrants are
// ranked by on arrival. Issue 18.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <fusedga/fusedga.hpp>
#include <numeric>
#include <vector>

using namespace fusedga;

namespace {

/// Minimize x0 + x1 on [0, 1]^2: every row's objective is the sum of its genes, so the test can order a
/// population by hand and write immigrants whose objective it knows.
struct SumOfTwo {
  using gene_type = double;
  static constexpr Sense sense = Sense::minimize;
  int dimension() const { return 2; }
  Bounds<double> bounds() const { return Bounds<double>::uniform(2, 0.0, 1.0); }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    return x[0] + x[1];
  }
};

/// SumOfTwo subject to x0 + x1 >= 0.5 (g = 0.5 − x0 − x1 <= 0): the infeasible rows are the best by
/// objective, their violation 0.5 minus it.
struct SumAtLeastHalf : SumOfTwo {
  int inequality_count() const { return 1; }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& x, G& g) const {
    g[0] = 0.5 - x[0] - x[1];
  }
};

struct rows {
  std::vector<double> genes, objective, violation;
};

template <class Engine>
rows read(const Engine& e) {
  const auto v = e.current();
  rows r;
  r.genes.assign(v.genes, v.genes + v.size * 2);
  r.objective.assign(v.objective, v.objective + v.size);
  r.violation.assign(v.violation, v.violation + v.size);
  return r;
}

// Slots ordered by `less` on (objective, violation), ties by slot.
template <class Less>
std::vector<std::uint32_t> order(const rows& r, Less less) {
  std::vector<std::uint32_t> idx(r.objective.size());
  std::iota(idx.begin(), idx.end(), 0u);
  std::stable_sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) {
    return less(r.objective[a], r.violation[a], r.objective[b], r.violation[b]);
  });
  return idx;
}

bool feasibility_less(double oa, double va, double ob, double vb) { return va != vb ? va < vb : oa < ob; }

ga_options small(std::size_t n) {
  ga_options o;
  o.population = n;
  o.generations = 10;
  o.elitism = 2;
  o.seed = 11;
  return o;
}

bool has_row(const rows& r, double x0, double x1) {
  for (std::size_t i = 0; i < r.objective.size(); ++i)
    if (r.genes[2 * i] == x0 && r.genes[2 * i + 1] == x1) return true;
  return false;
}

}  // namespace

TEST_CASE("engine::emigrants: the k best rows, best first, ties by lower slot", "[islands]") {
  engine<SumOfTwo, backend::serial> e(SumOfTwo{}, small(16), backend::serial{});
  e.initialize();
  e.step();
  const rows pop = read(e);
  const std::vector<std::uint32_t> best = order(pop, feasibility_less);
  std::vector<double> genes(4 * 2), objective(4), violation(4);
  e.emigrants(4, genes.data(), objective.data(), violation.data());
  for (std::size_t k = 0; k < 4; ++k) {
    INFO("emigrant " << k);
    CHECK(objective[k] == pop.objective[best[k]]);
    CHECK(violation[k] == 0);
    CHECK(genes[2 * k] == pop.genes[2 * best[k]]);
    CHECK(genes[2 * k + 1] == pop.genes[2 * best[k] + 1]);
  }
  CHECK(objective[0] == e.best_objective());  // elitism keeps the best-so-far in the population
}

TEST_CASE("engine::immigrate: the better immigrants replace the worst rows, the best-so-far and elites follow",
          "[islands]") {
  engine<SumOfTwo, backend::serial> e(SumOfTwo{}, small(16), backend::serial{});
  e.initialize();
  const rows before = read(e);
  const std::vector<std::uint32_t> by_rank = order(before, feasibility_less);
  const std::uint32_t worst = by_rank[15], second_worst = by_rank[14];
  const double median = before.objective[by_rank[8]];
  REQUIRE(before.objective[by_rank[0]] > 0.001);  // the premise: (0, 0.001) beats every resident
  const std::size_t history = e.history().size();
  // Immigrants in the order received: a middling one, one worse than every resident, one better than all.
  const double mid_x = median / 2;
  const std::vector<double> genes{mid_x, mid_x, 1.0, 1.0, 0.0, 0.001};
  const std::vector<double> objective{mid_x + mid_x, 2.0, 0.001}, violation{0, 0, 0};
  REQUIRE(objective[0] < before.objective[second_worst]);
  SECTION("limit 3: the best takes the worst slot, the middling one the second worst, the worst none") {
    CHECK(e.immigrate(3, genes.data(), objective.data(), violation.data(), 3) == 2);
    const rows after = read(e);
    CHECK(after.genes[2 * worst] == 0.0);
    CHECK(after.genes[2 * worst + 1] == 0.001);
    CHECK(after.objective[worst] == 0.001);
    CHECK(after.genes[2 * second_worst] == mid_x);
    CHECK(after.objective[second_worst] == mid_x + mid_x);
    for (std::size_t i = 0; i < 16; ++i)
      if (i != worst && i != second_worst) {
        CHECK(after.genes[2 * i] == before.genes[2 * i]);
        CHECK(after.objective[i] == before.objective[i]);
      }
    // The best-so-far is the immigrant; no history row is added for a migration.
    CHECK(e.best_objective() == 0.001);
    CHECK(e.best_genes() == std::vector<double>{0.0, 0.001});
    CHECK(e.history().size() == history);
    // The elites are chosen afresh: the immigrant survives into the next generation.
    e.step();
    CHECK(has_row(read(e), 0.0, 0.001));
    CHECK(e.best_objective() <= 0.001);
  }
  SECTION("limit 1: only the best immigrant, into the worst slot") {
    CHECK(e.immigrate(3, genes.data(), objective.data(), violation.data(), 1) == 1);
    const rows after = read(e);
    CHECK(after.objective[worst] == 0.001);
    CHECK(after.objective[second_worst] == before.objective[second_worst]);
  }
  SECTION("nobody better than the worst resident: nothing changes") {
    CHECK(e.immigrate(1, genes.data() + 2, objective.data() + 1, violation.data() + 1, 3) == 0);
    const rows after = read(e);
    CHECK(after.objective == before.objective);
    CHECK(after.genes == before.genes);
    CHECK(e.best_objective() == before.objective[by_rank[0]]);
  }
}

TEST_CASE("engine::immigrate under feasibility rules: a feasible immigrant replaces the most violating row",
          "[islands]") {
  engine<SumAtLeastHalf, backend::serial> e(SumAtLeastHalf{}, small(32), backend::serial{});
  e.initialize();
  const rows before = read(e);
  const std::vector<std::uint32_t> by_rank = order(before, feasibility_less);
  REQUIRE(before.violation[by_rank[31]] > 0);  // premise: some row is infeasible
  // Feasible on the boundary (objective 0.5), and an infeasible one worse than every row (violation 0.5).
  const std::vector<double> genes{0.25, 0.25, 0.0, 0.0};
  const std::vector<double> objective{0.5, 0.0}, violation{0.0, 0.5};
  CHECK(e.immigrate(2, genes.data(), objective.data(), violation.data(), 2) == 1);
  const rows after = read(e);
  CHECK(after.objective[by_rank[31]] == 0.5);
  CHECK(after.violation[by_rank[31]] == 0.0);
  CHECK(after.objective[by_rank[30]] == before.objective[by_rank[30]]);
  // Every feasible resident has x0 + x1 > 0.5: the immigrant is the new best-so-far.
  CHECK(e.best_objective() == 0.5);
  CHECK(e.best_violation() == 0.0);
  CHECK(e.best_genes() == std::vector<double>{0.25, 0.25});
}

TEST_CASE("engine::immigrate: under the epsilon-constrained method immigrants rank by the receiver epsilon",
          "[islands]") {
  // θ = 1: ε(0) is the largest initial violation, so at generation 0 every resident is ε-feasible and the
  // receiver's order is the objective alone (Takahama & Sakai 2006's ε-level comparison).
  ga_options o = small(32);
  o.constraints.rule = constraint_rule::epsilon;
  o.constraints.epsilon_theta = 1.0;
  engine<SumAtLeastHalf, backend::serial> e(SumAtLeastHalf{}, o, backend::serial{});
  e.initialize();
  const rows before = read(e);
  const double epsilon = e.constraint_state().epsilon;
  REQUIRE(epsilon == *std::max_element(before.violation.begin(), before.violation.end()));
  const std::vector<std::uint32_t> by_objective =
      order(before, [](double oa, double, double ob, double) { return oa < ob; });
  const std::vector<std::uint32_t> by_feasibility = order(before, feasibility_less);
  REQUIRE(by_objective[31] != by_feasibility[31]);
  // Received in this order: feasible on the boundary (objective 0.5), then one infeasible by ε/2 — within ε,
  // so ε-feasible, and better by objective.
  const double a = (0.5 - epsilon / 2) / 2;
  const std::vector<double> genes{0.25, 0.25, a, a};
  const std::vector<double> objective{0.5, a + a}, violation{0.0, 0.5 - a - a};
  REQUIRE(violation[1] > 0);
  REQUIRE(violation[1] <= epsilon);
  REQUIRE(e.executor().key_of(a + a, violation[1]) < e.executor().key_of(0.5, 0.0));  // ε order: a + a first

  CHECK(e.immigrate(2, genes.data(), objective.data(), violation.data(), 2) == 2);
  const rows after = read(e);
  // The ε-better (infeasible) one takes the highest objective's slot, the feasible one the next.
  CHECK(after.objective[by_objective[31]] == a + a);
  CHECK(after.violation[by_objective[31]] == violation[1]);
  CHECK(after.objective[by_objective[30]] == 0.5);
  // The best-so-far is kept by feasibility rules (as the result reports it): the feasible immigrant.
  CHECK(e.best_objective() == 0.5);
  CHECK(e.best_violation() == 0.0);
  CHECK(e.best_genes() == std::vector<double>{0.25, 0.25});

  SECTION("the same immigrants under feasibility rules replace the most violating rows instead") {
    engine<SumAtLeastHalf, backend::serial> f(SumAtLeastHalf{}, small(32), backend::serial{});
    f.initialize();
    REQUIRE(read(f).genes == before.genes);  // the same initial population
    REQUIRE(f.executor().key_of(0.5, 0.0) < f.executor().key_of(a + a, violation[1]));
    const std::size_t expected = before.violation[by_feasibility[30]] > violation[1] ? 2 : 1;
    CHECK(f.immigrate(2, genes.data(), objective.data(), violation.data(), 2) == expected);
    const rows fr = read(f);
    CHECK(fr.objective[by_feasibility[31]] == 0.5);
    if (expected == 2) CHECK(fr.objective[by_feasibility[30]] == a + a);
  }
}
