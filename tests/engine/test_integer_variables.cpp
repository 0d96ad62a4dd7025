// Integer variables among real genes (Bounds::integer): every individual the
// engine makes — initial, crossed, mutated, DE trial, gradient-repaired — holds
// integers there; the runs stay bitwise the same for every backend and thread
// count; and a problem whose continuous optimum is off the lattice is solved
// at its integer optimum (found here by enumeration).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fusedga/fusedga.hpp>
#include <vector>

#include "engine/same_result.hpp"

using namespace fusedga;
using namespace engine_test;

namespace {

/// minimize Σ (x_j − c_j)², c_j = 0.37·j − 1.3, over D genes in [−5, 5] (even genes integer variables, odd ones
/// real), subject to x0 + x1 >= 1.2: targets off the lattice, one linear inequality (finite-difference Jacobian).
template <int D>
struct lattice_problem {
  using gene_type = double;
  int dimension() const { return D; }
  int inequality_count() const { return 1; }
  Bounds<double> bounds() const {
    Bounds<double> b = Bounds<double>::uniform(D, -5.0, 5.0);
    b.integer.assign(D, 0);
    for (int j = 0; j < D; j += 2) b.integer[static_cast<std::size_t>(j)] = 1;
    return b;
  }
  static double target(int j) { return 0.37 * j - 1.3; }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    double s = 0;
    for (int j = 0; j < D; ++j) s += (x[j] - target(j)) * (x[j] - target(j));
    return s;
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& x, G& g) const {
    g[0] = 1.2 - x[0] - x[1];
  }
};

/// The variation settings under test: the GA with each real crossover and mutation, DE, SHADE, and both with
/// the gradient repair.
std::vector<std::pair<const char*, ga_options>> settings() {
  ga_options base;
  base.population = 130;
  base.generations = 25;
  base.seed = 11;
  std::vector<std::pair<const char*, ga_options>> out;
  out.emplace_back("GA: SBX + polynomial", base);
  ga_options blx = base;
  blx.crossover.kind = crossover_kind::blx_alpha;
  blx.mutation.kind = mutation_kind::gaussian;
  out.emplace_back("GA: BLX-alpha + Gaussian", blx);
  ga_options uniform = base;
  uniform.crossover.kind = crossover_kind::uniform;
  uniform.mutation.kind = mutation_kind::uniform_reset;
  out.emplace_back("GA: uniform + uniform reset", uniform);
  ga_options repair = base;
  repair.constraints.gradient_repair.rate = 0.5;
  out.emplace_back("GA: gradient repair", repair);
  ga_options de = base;
  de.algorithm = algorithm_kind::de;
  de.de.strategy = de_strategy::rand_1_bin;
  out.emplace_back("DE/rand/1/bin", de);
  ga_options shade = de;
  shade.de.strategy = de_strategy::shade;
  shade.constraints.gradient_repair.rate = 0.5;
  out.emplace_back("SHADE + gradient repair", shade);
  return out;
}

template <class Problem, class Backend>
void check_population_integral(const Problem& p, const ga_options& o, const Backend& backend) {
  engine<Problem, Backend> e(p, o, backend);
  const auto marks = p.bounds().integer;
  const std::size_t d = static_cast<std::size_t>(p.dimension());
  int fractional_real = 0;
  for (int g = 0; g <= o.generations; ++g) {
    g == 0 ? e.initialize() : e.step();
    const double* genes = e.current().genes;  // N × d, row-major
    for (std::size_t i = 0; i < o.population; ++i)
      for (std::size_t j = 0; j < d; ++j) {
        const double x = genes[i * d + j];
        INFO("generation " << g << ", individual " << i << ", gene " << j << " = " << x);
        REQUIRE(x >= -5.0);
        REQUIRE(x <= 5.0);
        if (marks[j])
          REQUIRE(std::floor(x) == x);
        else
          fractional_real += std::floor(x) != x;
      }
  }
  CHECK(fractional_real > 0);  // the real genes are not rounded
}

}  // namespace

TEST_CASE("integer variables: every individual holds integers there, under every variation", "[integer]") {
  for (const auto& [name, o] : settings()) {
    INFO(name);
    check_population_integral(lattice_problem<6>{}, o, backend::serial{});   // staged tiles; DE across targets
    check_population_integral(lattice_problem<40>{}, o, backend::serial{});  // rows; DE target by target
  }
}

TEST_CASE("integer variables: the gradient repair's steps are rounded too", "[integer][gradient-repair]") {
  // The repair settings must actually repair (their steps cost evaluations), so the test above, which finds
  // every individual of every generation integral there, covers the repair's rounding.
  for (const auto& [name, o] : settings()) {
    if (o.constraints.gradient_repair.rate == 0) continue;
    INFO(name);
    ga_options off = o;
    off.constraints.gradient_repair.rate = 0;
    CHECK(solve(lattice_problem<6>{}, o, backend::serial{}).evaluations >
          solve(lattice_problem<6>{}, off, backend::serial{}).evaluations);
  }
}

TEST_CASE("integer variables: serial and TBB give bitwise identical runs", "[integer]") {
  for (const auto& [name, o] : settings()) {
    INFO(name);
    for (int threads : {1, 2, 3}) {
      INFO("tbb threads = " << threads);
      require_identical(solve(lattice_problem<6>{}, o, backend::serial{}),
                        solve(lattice_problem<6>{}, o, backend::tbb{threads}));
      require_identical(solve(lattice_problem<40>{}, o, backend::serial{}),
                        solve(lattice_problem<40>{}, o, backend::tbb{threads}));
    }
  }
}

TEST_CASE("integer variables: the initial genes take every integer of the bounds, equally often", "[integer]") {
  ga_options o;
  o.population = 11000;
  o.generations = 0;
  engine<lattice_problem<6>, backend::serial> e(lattice_problem<6>{}, o, backend::serial{});
  e.initialize();
  const double* genes = e.current().genes;
  int count[11] = {};
  for (std::size_t i = 0; i < o.population; ++i) ++count[static_cast<int>(genes[i * 6]) + 5];  // gene 0 in -5 .. 5
  for (int k = 0; k < 11; ++k) {
    INFO("value " << k - 5 << ": " << count[k] << " of 11000");
    CHECK(count[k] > 850);  // expected 1000 each; the ends too (rounding a uniform real would halve them)
    CHECK(count[k] < 1150);
  }
}

TEST_CASE("integer variables: SHADE with the repair and the GA reach the lattice optimum", "[integer]") {
  // The optimum by enumeration: integer genes (even j) take the nearest integer to c_j, real genes c_j, except
  // that x0 + x1 >= 1.2 couples x0 (integer) and x1 (real): x1 = max(c_1, 1.2 - x0) for each integer x0.
  constexpr int D = 6;
  using P = lattice_problem<D>;
  double optimum = 1e300, best_x0 = 0;
  for (int x0 = -5; x0 <= 5; ++x0) {
    const double x1 = std::max(P::target(1), 1.2 - x0);
    if (x1 > 5) continue;
    double f = (x0 - P::target(0)) * (x0 - P::target(0)) + (x1 - P::target(1)) * (x1 - P::target(1));
    for (int j = 2; j < D; ++j) {
      const double c = P::target(j);
      const double x = j % 2 == 0 ? std::floor(c + 0.5) : c;
      f += (x - c) * (x - c);
    }
    if (f < optimum) optimum = f, best_x0 = x0;
  }
  REQUIRE(best_x0 == 0.0);  // the continuous optimum has x0 = 0.415
  for (auto o : {settings()[0].second, settings()[5].second}) {
    o.population = 100;
    o.generations = 400;
    const Result r = solve(P{}, o, backend::serial{});
    REQUIRE(r.feasible);
    CHECK(r.objective == Approx(optimum).margin(1e-4));  // the real genes approach their optimum, x1 from above
    CHECK(r.best_genes[0] == best_x0);
    CHECK(r.best_genes[2] == -1.0);  // c_2 = -0.56
    CHECK(r.best_genes[4] == 0.0);   // c_4 = 0.18
  }
}
