// The engine's properties, written once and checked on every backend it runs
// on here: serial, TBB (2 threads) and the CUDA executor on the kernel
// emulator (tests/cuda/emulator: the executor's own host sequence with
// kernels.cuh's kernels run on the host). A GPU's real runtime is checked by
// tests/cuda/test_gpu.cpp (skipped with a message without a GPU).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <catch2/catch.hpp>
#include <cstdint>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <tuple>
#include <type_traits>
#include <vector>

#include "cuda/emulator/emulated_runtime.hpp"
#include "engine/handler_problems.hpp"
#include "engine/same_result.hpp"

using namespace fusedga;
using namespace engine_test;
using CQ = problems::ConstrainedQuadratic<double>;

namespace {

struct on_serial {
  using backend_type = backend::serial;
  static backend_type make() { return {}; }
  static constexpr std::size_t population = 1001;
  static constexpr int generations = 30;
};
struct on_tbb {
  using backend_type = backend::tbb;
  static backend_type make() { return backend::tbb{2}; }
  static constexpr std::size_t population = 1001;
  static constexpr int generations = 30;
};
struct on_emulated_cuda {  // fibers per CUDA thread: smaller runs
  using backend_type = cuda_test::emulated_cuda;
  static backend_type make() { return {}; }
  static constexpr std::size_t population = 301;
  static constexpr int generations = 12;
};

/// Catch2 names the cases "... - engine_backends - 0/1/2": serial, TBB, emulated CUDA.
using engine_backends = std::tuple<on_serial, on_tbb, on_emulated_cuda>;

template <class Case>
ga_options options_for() {
  ga_options o;
  o.population = Case::population;
  o.generations = Case::generations;
  return o;
}

std::uint64_t key_of(const generation_stats& s) {
  return make_rank_key<double>(s.best_objective, s.best_violation, Sense::maximize, constraint_rule::feasibility_rules,
                               1.0);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("over backends: the same seed gives the same run, another seed another", "[engine]",
                        engine_backends) {
  ga_options o = options_for<TestType>();
  const Result a = solve(CQ{}, o, TestType::make());
  require_identical(a, solve(CQ{}, o, TestType::make()));
  o.seed += 1;
  const Result b = solve(CQ{}, o, TestType::make());
  CHECK(a.best_genes != b.best_genes);
}

TEMPLATE_LIST_TEST_CASE("over backends: elitism never loses the best individual (E = 1, 2, 10)", "[engine]",
                        engine_backends) {
  for (std::size_t elites : {1, 2, 10}) {  // 10 > 8: the CUDA executor picks elites by sorting the keys
    ga_options o = options_for<TestType>();
    o.elitism = elites;
    o.mutation.rate = 0.9;  // very disruptive: without elitism the best would be lost
    engine<CQ, typename TestType::backend_type> e(CQ{}, o, TestType::make());
    e.initialize();
    auto previous = key_of(e.stats());
    for (int g = 0; g < o.generations; ++g) {
      e.step();
      const auto now = key_of(e.stats());
      INFO("elitism " << elites << ", generation " << g + 1);
      REQUIRE(now <= previous);
      previous = now;
    }
    // the best-so-far is the last generation's best (elitism keeps it in the population)
    CHECK(double(e.best_objective()) == e.stats().best_objective);
    CHECK(e.stalled_generations() >= 0);
  }
}

TEMPLATE_LIST_TEST_CASE("over backends: history rows, generation and evaluation counts", "[engine]", engine_backends) {
  ga_options o = options_for<TestType>();
  o.elitism = 3;
  engine<CQ, typename TestType::backend_type> e(CQ{}, o, TestType::make());
  e.initialize();
  CHECK(e.generation() == 0);
  CHECK(e.evaluations() == o.population);
  for (int g = 1; g <= o.generations + 2; ++g) e.step();  // two steps beyond the history's rows
  const std::uint64_t n = o.population, children = n - 3;
  CHECK(e.generation() == o.generations + 2);
  CHECK(e.evaluations() == n + std::uint64_t(o.generations + 2) * children);
  CHECK(e.stats().evaluations == e.evaluations());
  CHECK(e.stats().generation == o.generations + 2);
  REQUIRE(e.history().size() == static_cast<std::size_t>(o.generations) + 1);
  for (std::size_t g = 0; g < e.history().size(); ++g) {
    CHECK(e.history()[g].generation == static_cast<int>(g));
    CHECK(e.history()[g].evaluations == n + g * children);
  }
}

TEMPLATE_LIST_TEST_CASE("over backends: statistics match a recount of the current population", "[engine]",
                        engine_backends) {
  ga_options o = options_for<TestType>();
  engine<CQ, typename TestType::backend_type> e(CQ{}, o, TestType::make());
  e.initialize();
  e.step();
  e.step();
  const auto pop = e.current();  // host memory here (the emulated GPU's memory is the host's)
  double sum = 0;
  int feasible = 0;
  std::uint64_t best_key = ~0ull;
  double best_obj = 0;
  for (std::size_t i = 0; i < pop.size; ++i) {
    sum += pop.objective[i];
    feasible += pop.violation[i] == 0 ? 1 : 0;
    if (pop.rank_key[i] < best_key) best_key = pop.rank_key[i], best_obj = pop.objective[i];
    const gene_view<double, 1> x{pop.row(i)};
    REQUIRE(pop.objective[i] == CQ{}.objective(x));
  }
  CHECK(e.stats().mean_objective == Approx(sum / pop.size).epsilon(1e-12));
  CHECK(e.stats().feasible_fraction == Approx(double(feasible) / pop.size));
  CHECK(e.stats().best_objective == best_obj);
}

TEMPLATE_LIST_TEST_CASE("over backends: stopping rules target, stall, time limit, interrupt", "[engine]",
                        engine_backends) {
  ga_options o = options_for<TestType>();
  o.generations = 500;
  SECTION("target") {
    o.stop.target = 250.0;
    const Result r = solve(CQ{}, o, TestType::make());
    CHECK(r.reason == stop_reason::target);
    CHECK(r.objective >= 250.0);
    CHECK(r.generations < 500);
    CHECK(r.history.size() == static_cast<std::size_t>(r.generations) + 1);
  }
  SECTION("stall") {
    o.stop.stall_generations = 3;
    const Result r = solve(CQ{}, o, TestType::make());
    CHECK(r.reason == stop_reason::stall);
    CHECK(r.generations < 500);
    // the best did not improve in the last 3 generations
    const auto& h = r.history;
    REQUIRE(h.size() >= 4);
    CHECK(key_of(h.back()) == key_of(h[h.size() - 4]));
  }
  SECTION("time limit") {
    o.generations = 1000000;
    o.stop.time_limit_s = 0.2;
    const Result r = solve(CQ{}, o, TestType::make());
    CHECK(r.reason == stop_reason::time_limit);
    CHECK(r.wall_time_s >= 0.2);
    CHECK(r.wall_time_s < 5.0);
  }
  SECTION("interrupt stops at the end of the current generation") {
    std::atomic<bool> stop{false};
    o.interrupt = &stop;
    o.on_generation = [&](const generation_stats& s) {
      if (s.generation == 5) stop = true;
    };
    const Result r = solve(CQ{}, o, TestType::make());
    CHECK(r.reason == stop_reason::interrupted);
    CHECK(r.generations == 5);
    CHECK(r.history.size() == 6);
  }
}

TEMPLATE_LIST_TEST_CASE("over backends: integer genes give the serial backend's run bitwise", "[engine]",
                        engine_backends) {
  ga_options o = options_for<TestType>();
  o.crossover.kind = crossover_kind::two_point;
  o.mutation.kind = mutation_kind::uniform_reset;
  o.elitism = 4;
  problems::GeneSum<double> p;
  for (int genes : {20, 40}) {  // staged tiles / thread per pair, and rows / warp per pair
    p.genes = genes;
    INFO(genes << " genes");
    require_identical(solve(p, o, backend::serial{}), solve(p, o, TestType::make()));  // integer sums: exact
  }
}

TEMPLATE_LIST_TEST_CASE("over backends: plus survival keeps the best N of parents and children", "[engine][survival]",
                        engine_backends) {
  ga_options o = options_for<TestType>();
  o.survival.kind = survival_kind::plus;
  o.mutation.rate = 0.9;  // disruptive: only the survivor selection keeps the population improving
  engine<CQ, typename TestType::backend_type> e(CQ{}, o, TestType::make());
  e.initialize();
  std::vector<std::uint64_t> before(o.population), now(o.population);
  for (int g = 0; g < o.generations; ++g) {
    const auto pop = e.current();
    std::copy(pop.rank_key, pop.rank_key + pop.size, before.begin());
    std::sort(before.begin(), before.end());
    e.step();
    const auto next = e.current();
    std::copy(next.rank_key, next.rank_key + next.size, now.begin());
    std::sort(now.begin(), now.end());
    INFO("generation " << g + 1);
    for (std::size_t k = 0; k < now.size(); ++k) REQUIRE(now[k] <= before[k]);  // elementwise never worse
    CHECK(key_of(e.stats()) == now[0]);
  }
  CHECK(e.evaluations() == o.population * std::uint64_t(o.generations + 1));
}

TEMPLATE_LIST_TEST_CASE("over backends: plus survival on integer genes gives the serial backend's run bitwise",
                        "[engine][survival]", engine_backends) {
  ga_options o = options_for<TestType>();
  o.crossover.kind = crossover_kind::two_point;
  o.mutation.kind = mutation_kind::uniform_reset;
  o.survival.kind = survival_kind::plus;
  problems::GeneSum<double> p;
  for (int genes : {20, 40}) {
    p.genes = genes;
    INFO(genes << " genes");
    require_identical(solve(p, o, backend::serial{}), solve(p, o, TestType::make()));
  }
}

TEMPLATE_LIST_TEST_CASE("over backends: differential evolution gives the serial backend's run (3 strategies)",
                        "[engine][de]", engine_backends) {
  ga_options o = options_for<TestType>();
  o.algorithm = algorithm_kind::de;
  constexpr bool device = std::is_same_v<typename TestType::backend_type, cuda_test::emulated_cuda>;
  for (const de_strategy s : {de_strategy::rand_1_bin, de_strategy::current_to_pbest_1, de_strategy::shade}) {
    o.de.strategy = s;
    INFO("strategy " << static_cast<int>(s));
    const Result r = solve(CQ{}, o, TestType::make());
    const Result serial = solve(CQ{}, o, backend::serial{});
    if constexpr (device) {
      // the same trials and survivors; only the mean's summation order (block sums) differs
      require_identical_search(r, serial);
    } else {
      require_identical(r, serial);
    }
    CHECK(r.feasible);
    CHECK(r.evaluations == o.population * std::uint64_t(o.generations + 1));
  }
}

namespace {
/// Minimize sqrt(x0) + x1 over [-1, 1]²: NaN for x0 < 0 (about half of the initial population), with one
/// constraint x1 >= -0.5 whose violation is NaN where x1 > 0.9 (a NaN violation with a finite objective).
struct half_nan {
  using gene_type = double;
  int dimension() const { return 2; }
  int inequality_count() const { return 1; }
  Bounds<double> bounds() const { return Bounds<double>::uniform(2, -1.0, 1.0); }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    return std::sqrt(double(x[0])) + double(x[1]);
  }
  template <class X, class G>
  FUSEDGA_HD void inequalities(const X& x, G& g) const {
    g[0] = double(x[1]) > 0.9 ? std::nan("") : -0.5 - double(x[1]);
  }
};
}  // namespace

TEMPLATE_LIST_TEST_CASE("over backends: NaN individuals are counted, ranked worst, kept out of the mean", "[engine][nan]",
                        engine_backends) {
  ga_options o = options_for<TestType>();
  engine<half_nan, typename TestType::backend_type> e(half_nan{}, o, TestType::make());
  e.initialize();
  std::uint64_t total = 0;
  for (int g = 0; g <= 3; ++g) {
    if (g > 0) e.step();
    const auto pop = e.current();
    double sum = 0;
    std::uint64_t nan = 0, feasible = 0;
    for (std::size_t i = 0; i < pop.size; ++i) {
      const bool bad = std::isnan(pop.objective[i]) || std::isnan(pop.violation[i]);
      REQUIRE(bad == (pop.rank_key[i] == ~std::uint64_t(0)));  // NaN ranks worst, and only NaN does
      if (bad) {
        ++nan;
      } else {
        sum += pop.objective[i];
        feasible += pop.violation[i] == 0 ? 1 : 0;
      }
    }
    INFO("generation " << g);
    if (g == 0) CHECK(nan > pop.size / 4);  // uniform x0 in [-1, 1]: about half
    CHECK(e.stats().not_a_number == nan);
    CHECK(std::isfinite(e.stats().mean_objective));
    CHECK(e.stats().mean_objective == Approx(sum / double(pop.size - nan)).epsilon(1e-12));
    CHECK(e.stats().feasible_fraction == Approx(double(feasible) / double(pop.size)));
    CHECK(std::isfinite(e.stats().best_objective));
    total += nan;
  }
  CHECK(e.not_a_number() == total);
  REQUIRE(e.history().size() == 4);
  CHECK(e.history()[0].not_a_number > 0);
}

namespace {
/// log of a negative number: NaN everywhere.
struct all_nan {
  using gene_type = double;
  int dimension() const { return 1; }
  Bounds<double> bounds() const { return Bounds<double>::uniform(1, -1.0, 1.0); }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    return std::log(-1.0 - double(x[0]) * double(x[0]));
  }
};
}  // namespace

TEST_CASE("solve: a NaN-everywhere objective gives a non-finite, infeasible result with its NaNs counted", "[engine][nan]") {
  ga_options o;
  o.population = 50;
  o.generations = 4;
  const Result r = solve(all_nan{}, o, backend::serial{});
  CHECK(std::isnan(r.objective));
  CHECK_FALSE(r.feasible);  // violation 0, yet a NaN objective is never feasible
  CHECK_FALSE(r.finite());
  CHECK(r.not_a_number == 50 * 5);
  CHECK(std::isnan(r.history.back().mean_objective));
  CHECK(r.history.back().feasible_fraction == 0);
}

TEMPLATE_LIST_TEST_CASE("over backends: constraint handlers give the serial backend's run bitwise", "[engine]",
                        engine_backends) {
  // Integer genes and exactly representable objective and violations: every backend computes the same bits, so
  // the re-key pass, ε schedule, self-adaptive penalty and stochastic ranking's coins are checked end to end.
  ga_options o = options_for<TestType>();
  o.crossover.kind = crossover_kind::two_point;
  o.mutation.kind = mutation_kind::uniform_reset;
  o.elitism = 4;
  for (constraint_rule rule : {constraint_rule::epsilon, constraint_rule::stochastic_ranking,
                               constraint_rule::self_adaptive_penalty}) {
    INFO(to_string(rule));
    o.constraints.rule = rule;
    o.constraints.epsilon_control = 0.5;
    const Result s = solve(handler_test::IntegerConstrained{}, o, backend::serial{});
    require_identical(s, solve(handler_test::IntegerConstrained{}, o, TestType::make()));
    for (std::size_t elites : {0, 10}) {  // 10 > 8: the CUDA executor picks elites by sorting the keys
      ga_options e = o;
      e.elitism = elites;
      require_identical(solve(handler_test::IntegerConstrained{}, e, backend::serial{}),
                        solve(handler_test::IntegerConstrained{}, e, TestType::make()));
    }
  }
}
