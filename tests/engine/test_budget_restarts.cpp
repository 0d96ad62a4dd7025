// stop.evaluations (a budget the run never exceeds) and IPOP/BIPOP restarts (solve.hpp, engine/restart.hpp).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <fusedga/fusedga.hpp>
#include <fusedga/problems/classic/rastrigin.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <optional>
#include <utility>
#include <vector>

using namespace fusedga;
using CQ = problems::ConstrainedQuadratic<double>;

TEST_CASE("budget: never exceeded, the generation that would exceed it is not run", "[budget]") {
  ga_options o;
  o.population = 1000;
  o.elitism = 10;
  o.generations = 10000;
  for (std::uint64_t budget : {1000ull, 1989ull, 1990ull, 100000ull, 123457ull}) {
    o.stop.evaluations = budget;
    const Result r = solve(CQ{}, o, backend::serial{});
    INFO("budget " << budget);
    // 1000 initial evaluations, then 990 per generation: the most generations that fit.
    const std::uint64_t generations = (budget - 1000) / 990;
    CHECK(r.generations == static_cast<int>(generations));
    CHECK(r.evaluations == 1000 + generations * 990);
    CHECK(r.evaluations <= budget);
    CHECK(r.reason == stop_reason::evaluations);
    CHECK(r.history.back().evaluations == r.evaluations);
  }
}

TEST_CASE("budget: the generation limit still applies when it comes first", "[budget]") {
  ga_options o;
  o.population = 500;
  o.generations = 7;
  o.stop.evaluations = 1000000;
  const Result r = solve(CQ{}, o, backend::serial{});
  CHECK(r.generations == 7);
  CHECK(r.reason == stop_reason::generations);
}

TEST_CASE("budget: below the population is rejected by name", "[budget][validate]") {
  ga_options o;
  o.population = 500;
  o.stop.evaluations = 499;
  REQUIRE_THROWS_WITH(solve(CQ{}, o, backend::serial{}), Catch::Contains("stop.evaluations"));
}

TEST_CASE("restarts: populations grow, counters carry over, the best never worsens", "[restarts]") {
  using R = problems::Rastrigin<double>;
  for (const restart_schedule schedule : {restart_schedule::ipop, restart_schedule::bipop}) {
    INFO("schedule " << to_string(schedule));
    ga_options o;
    o.population = 64;
    o.elitism = 4;
    o.generations = 100000;
    o.stop.evaluations = 200000;
    o.restarts.stall_generations = 15;
    o.restarts.population_growth = 2;
    o.restarts.schedule = schedule;
    std::vector<generation_stats> rows;
    o.on_generation = [&](const generation_stats& s) { rows.push_back(s); };
    const Result r = solve(R{10}, o, backend::serial{});
    REQUIRE(r.restarts >= (schedule == restart_schedule::ipop ? 2 : 5));  // BIPOP: past its second large start
    CHECK(r.reason == stop_reason::evaluations);
    CHECK(r.evaluations <= 200000);
    REQUIRE(rows.size() == r.history.size());
    // Each start begins with a row of the same generation number whose evaluations grew by its population
    // (IPOP: 64·2^k for start k; restart_options_for is checked against hand-computed sizes below): the
    // starts' initial populations are found and sized as the schedule says.
    int starts = 1;
    for (std::size_t i = 1; i < rows.size(); ++i) {
      CHECK(rows[i].evaluations > rows[i - 1].evaluations);
      CHECK(rows[i].elapsed_s >= rows[i - 1].elapsed_s);
      if (rows[i].generation == rows[i - 1].generation) {
        CHECK(rows[i].evaluations - rows[i - 1].evaluations == detail::restart_options_for(o, starts).population);
        ++starts;
      } else {
        CHECK(rows[i].generation == rows[i - 1].generation + 1);
      }
    }
    CHECK(starts == r.restarts + 1);
    CHECK(r.generations == rows.back().generation);
    // The result is the best over all starts: no row's population best beats it.
    for (const auto& s : rows) CHECK(r.objective <= s.best_objective);
    // Its genes are the reported individual's (the engine's SIMD cos may differ from std::cos in the last bits).
    CHECK(R{10}.objective(gene_view<double, 1>{r.best_genes.data()}) == Approx(r.objective).margin(1e-12));
    o.on_generation = nullptr;
    const Result tbb = solve(R{10}, o, backend::tbb{2});
    CHECK(tbb.best_genes == r.best_genes);
    CHECK(tbb.evaluations == r.evaluations);
  }
}

TEST_CASE("restarts: BIPOP interlaces 2^j small starts after the j-th large one", "[restarts]") {
  // Hand-computed: block j begins at k = j + 2^j - 1 (0, 2, 5, 10, 19).
  const std::vector<std::pair<int, bool>> expected = {{0, false}, {0, true}, {1, false}, {1, true}, {1, true},
                                                      {2, false}, {2, true}, {2, true},  {2, true}, {2, true},
                                                      {3, false}, {3, true}};
  for (int k = 0; k < static_cast<int>(expected.size()); ++k) {
    INFO("k " << k);
    const detail::bipop_position p = detail::bipop_position_of(k);
    CHECK(p.block == expected[static_cast<std::size_t>(k)].first);
    CHECK(p.small == expected[static_cast<std::size_t>(k)].second);
  }
  CHECK(detail::bipop_position_of(18).small);
  CHECK_FALSE(detail::bipop_position_of(19).small);
  CHECK(detail::bipop_position_of(19).block == 4);

  ga_options o;
  o.population = 64;
  o.elitism = 8;
  o.restarts.stall_generations = 10;
  for (int k = 0; k < 25; ++k) CHECK(detail::restart_options_for(o, k).population == (std::size_t(64) << k));  // IPOP
  CHECK(detail::restart_options_for(o, 40).population == (std::size_t(1) << 31) - 1);  // capped
  o.restarts.schedule = restart_schedule::bipop;
  std::size_t small_above_first = 0;
  for (int k = 0; k < 40; ++k) {
    INFO("k " << k);
    const detail::bipop_position p = detail::bipop_position_of(k);
    const ga_options r = detail::restart_options_for(o, k);
    if (!p.small) {
      CHECK(r.population == (std::size_t(64) << p.block));
    } else {  // 64 · 2^(j·u²), u in [0, 1): from the first start's size up to (not including) the block's large one
      CHECK(r.population >= 64);
      CHECK(r.population < (std::size_t(64) << p.block) + (p.block == 0 ? 1 : 0));
      small_above_first += r.population > 64;
    }
    CHECK(std::abs(static_cast<double>(r.elitism) - static_cast<double>(r.population) / 8) <= 1);  // scaled alike
    CHECK(r.seed == detail::restart_options_for(o, k).seed);
    if (k > 0) CHECK(r.seed != detail::restart_options_for(o, k - 1).seed);
  }
  CHECK(small_above_first > 10);  // the sizes are drawn, not all the first start's
  o.restarts.population_growth = 1;  // nothing grows: every start has the first's size
  for (int k = 0; k < 40; ++k) CHECK(detail::restart_options_for(o, k).population == 64);
  o.de.crossover = de_crossover::alternate;  // BIPOP: exp on the small starts (k = 1, 3-4, 6-9), bin on the others
  for (int k = 0; k < 11; ++k)
    CHECK(detail::restart_options_for(o, k).de.crossover ==
          (k == 1 || k == 3 || k == 4 || (k >= 6 && k <= 9) ? de_crossover::exp : de_crossover::bin));
  o.restarts.schedule = restart_schedule::ipop;  // IPOP: exp on the odd restarts
  for (int k = 0; k < 6; ++k)
    CHECK(detail::restart_options_for(o, k).de.crossover == (k % 2 == 0 ? de_crossover::bin : de_crossover::exp));
  o.de.crossover = de_crossover::exp;
  for (int k = 0; k < 3; ++k) CHECK(detail::restart_options_for(o, k).de.crossover == de_crossover::exp);
}

TEST_CASE("restarts: bitwise equal on serial and TBB at any thread count", "[restarts][determinism]") {
  using R = problems::Rastrigin<double>;
  ga_options o;
  o.population = 100;
  o.generations = 400;
  o.restarts.stall_generations = 10;
  o.restarts.population_growth = 1.5;
  const Result a = solve(R{6}, o, backend::serial{});
  REQUIRE(a.restarts >= 1);
  for (int threads : {1, 2, 3}) {
    const Result b = solve(R{6}, o, backend::tbb{threads});
    INFO("threads " << threads);
    CHECK(b.restarts == a.restarts);
    CHECK(b.best_genes == a.best_genes);
    CHECK(b.objective == a.objective);
    CHECK(b.evaluations == a.evaluations);
    REQUIRE(b.history.size() == a.history.size());
    for (std::size_t i = 0; i < a.history.size(); ++i) CHECK(b.history[i].mean_objective == a.history[i].mean_objective);
  }
}

TEST_CASE("restarts: a larger budget never ends worse on the same seed", "[restarts][budget]") {
  using R = problems::Rastrigin<double>;
  ga_options o;
  o.population = 50;
  o.elitism = 2;
  o.generations = 1000000;
  o.restarts.stall_generations = 20;
  double previous = 1e300;
  for (std::uint64_t budget : {20000ull, 80000ull, 320000ull}) {
    o.stop.evaluations = budget;
    const Result r = solve(R{8}, o, backend::serial{});
    INFO("budget " << budget);
    CHECK(r.objective <= previous);
    previous = r.objective;
  }
}

namespace {

// f = floor(scale · Σ x²) on [-1, 1]². scale 4: the best (0) is found within a few generations of every start,
// then never improves, while a wide mutation of every gene keeps some individuals on the higher steps: stalled,
// never converged. scale 0: f = 0 everywhere, stalled and converged from generation 0.
struct Steps {
  using gene_type = double;
  static constexpr Sense sense = Sense::minimize;
  double scale = 4;
  int dimension() const { return 2; }
  Bounds<double> bounds() const { return Bounds<double>::uniform(2, -1.0, 1.0); }
  template <class X>
  FUSEDGA_HD double objective(const X& x) const {
    return std::floor(scale * (x[0] * x[0] + x[1] * x[1]));
  }
};

struct start_span {
  int length = 0;        // generations run by the start
  int improved_at = 0;   // the start's generation of its best's last improvement
  double last_mean = 0;  // its population's mean objective at its last generation
};

// The starts of a run, from its rows: a start begins with a row of the same generation number as the row before.
std::vector<start_span> starts_of(const std::vector<generation_stats>& rows) {
  std::vector<start_span> out;
  double best = 0;
  int first = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const generation_stats& s = rows[i];
    if (i == 0 || s.generation == rows[i - 1].generation) {
      out.push_back({});
      first = s.generation;
      best = s.best_objective;
    } else if (s.best_objective < best) {
      best = s.best_objective;
      out.back().improved_at = s.generation - first;
    }
    out.back().length = s.generation - first;
    out.back().last_mean = s.mean_objective;
  }
  return out;
}

template <class Problem>
std::vector<start_span> run_starts(const Problem& p, std::optional<double> tolerance) {
  ga_options o;
  o.population = 32;
  o.elitism = 2;
  o.generations = 600;
  o.restarts.stall_generations = 10;
  o.restarts.population_growth = 1;
  o.restarts.convergence_tolerance = tolerance;
  if (tolerance) o.restarts.max_stall_generations = 40;
  o.mutation.rate = 1;
  o.mutation.eta = 0;
  std::vector<generation_stats> rows;
  o.on_generation = [&](const generation_stats& s) { rows.push_back(s); };
  const Result r = solve(p, o, backend::serial{});
  std::vector<start_span> starts = starts_of(rows);
  REQUIRE(static_cast<int>(starts.size()) == r.restarts + 1);
  starts.pop_back();  // the last start ends at the generation limit
  REQUIRE(!starts.empty());
  return starts;
}

}  // namespace

TEST_CASE("restarts: with convergence_tolerance a stalled start waits for its population to converge", "[restarts]") {
  SECTION("never converged (mutation keeps individuals on higher steps): the start ends at max_stall_generations") {
    for (const start_span& s : run_starts(Steps{}, 1e-12)) {
      CHECK(s.length - s.improved_at == 40);
      CHECK(s.last_mean > 0);  // not converged: the best is 0
    }
    for (const start_span& s : run_starts(Steps{}, std::nullopt)) CHECK(s.length - s.improved_at == 10);
  }
  SECTION("converged: the start ends at stall_generations, as without the tolerance") {
    for (const start_span& s : run_starts(Steps{0}, 1e-12)) CHECK(s.length == 10);
    for (const start_span& s : run_starts(Steps{0}, std::nullopt)) CHECK(s.length == 10);
  }
}

TEST_CASE("restart_due: stalled, then converged or past max_stall_generations", "[restarts]") {
  restart_options r;
  generation_stats far;  // the mean 1 above a best of 100: not converged at 1e-3 (100 · 1e-3 = 0.1 allowed)
  far.best_objective = 100;
  far.mean_objective = 101;
  generation_stats near = far;  // 0.05 above: converged at 1e-3
  near.mean_objective = 100.05;
  CHECK_FALSE(detail::restart_due(r, 1000, near));  // no restarts configured
  r.stall_generations = 10;
  CHECK_FALSE(detail::restart_due(r, 9, near));
  CHECK(detail::restart_due(r, 10, far));  // without a tolerance: at the stall, converged or not
  r.convergence_tolerance = 1e-3;
  CHECK_FALSE(detail::restart_due(r, 9, near));
  CHECK(detail::restart_due(r, 10, near));
  CHECK_FALSE(detail::restart_due(r, 10, far));
  CHECK_FALSE(detail::restart_due(r, 49, far));
  CHECK(detail::restart_due(r, 50, far));  // 5 × stall_generations by default
  r.max_stall_generations = 20;
  CHECK(r.max_stall() == 20);
  CHECK_FALSE(detail::restart_due(r, 19, far));
  CHECK(detail::restart_due(r, 20, far));
  generation_stats all_nan = far;  // every individual NaN: the mean is NaN, never converged
  all_nan.mean_objective = std::nan("");
  CHECK_FALSE(detail::restart_due(r, 19, all_nan));
  CHECK(detail::restart_due(r, 20, all_nan));
  generation_stats small = far;  // |best| < 1: the tolerance is absolute
  small.best_objective = 0;
  small.mean_objective = 5e-4;
  CHECK(detail::restart_due(r, 10, small));
}

TEST_CASE("made_progress: feasible gains above tolerance · max(1, |best|), any infeasible change", "[restarts]") {
  const Sense mn = Sense::minimize, mx = Sense::maximize;
  CHECK(detail::made_progress(mn, 1e-2, 100.0, 0.0, 98.9, 0.0));        // gained 1.1 > 1e-2 · 100
  CHECK_FALSE(detail::made_progress(mn, 1e-2, 100.0, 0.0, 99.0, 0.0));  // gained exactly 1: not more
  CHECK_FALSE(detail::made_progress(mn, 1e-2, -100.0, 0.0, -100.5, 0.0));
  CHECK(detail::made_progress(mn, 1e-2, 0.5, 0.0, 0.489, 0.0));  // |best| < 1: absolute, 0.011 > 0.01
  CHECK_FALSE(detail::made_progress(mn, 1e-2, 0.5, 0.0, 0.491, 0.0));
  CHECK(detail::made_progress(mx, 1e-2, 100.0, 0.0, 101.5, 0.0));  // maximizing: gains upwards
  CHECK_FALSE(detail::made_progress(mx, 1e-2, 100.0, 0.0, 100.5, 0.0));
  CHECK(detail::made_progress(mn, 1e-2, 100.0, 3.0, 100.0, 2.9));       // lowered the violation
  CHECK(detail::made_progress(mn, 1e-2, 100.0, 3.0, 100.0, 0.0));       // became feasible
  CHECK(detail::made_progress(mn, 1e-2, std::nan(""), 0.0, 5.0, 0.0));  // from an all-NaN start
  CHECK(detail::made_progress(mn, 0.0, 1.0, 0.0, 0.999999, 0.0));       // tolerance 0: every gain
  CHECK(detail::made_progress(mn, 1e-2, 1.0f, 0.0f, 0.98f, 0.0f));      // float
}

TEST_CASE("engine: generations_without_progress restarts only on gains above the tolerance", "[restarts]") {
  using R = problems::Rastrigin<double>;
  ga_options o;
  o.algorithm = algorithm_kind::de;
  o.population = 40;
  o.generations = 400;
  o.restarts.stall_generations = 1000;  // the engine runs one start here
  o.restarts.convergence_tolerance = 0.05;
  engine<R, backend::serial> e(R{6}, o, backend::serial{});
  e.initialize();
  // Recomputed from the population bests (DE keeps the best, so they are the best-so-far): progress where the
  // best fell more than 0.05 · max(1, |reference|) below the best at the last progress.
  double best = e.stats().best_objective, reference = best;
  int improved = 0, progressed = 0, differed = 0;
  for (int g = 1; g <= 400; ++g) {
    e.step();
    const double now = e.stats().best_objective;
    if (now < best) {
      best = now;
      improved = g;
      if (reference - now > 0.05 * std::max(1.0, std::abs(reference))) {
        reference = now;
        progressed = g;
      }
    }
    INFO("generation " << g);
    REQUIRE(e.stalled_generations() == g - improved);
    REQUIRE(e.generations_without_progress() == g - progressed);
    differed += progressed != improved;
  }
  CHECK(differed > 0);                       // the tolerance mattered in this run
  o.restarts.convergence_tolerance.reset();  // without it every improvement is progress
  engine<R, backend::serial> every(R{6}, o, backend::serial{});
  every.initialize();
  for (int g = 1; g <= 100; ++g) {
    every.step();
    REQUIRE(every.generations_without_progress() == every.stalled_generations());
  }
}

TEST_CASE("restarts: max_stall_generations without convergence_tolerance, or below the stall, is refused by name",
          "[restarts][validate]") {
  ga_options o;
  o.population = 50;
  o.restarts.stall_generations = 10;
  o.restarts.max_stall_generations = 20;  // would be ignored: a start ends at the stall without a tolerance
  REQUIRE_THROWS_WITH(solve(CQ{}, o, backend::serial{}),
                      Catch::Contains("ga.restarts.max_stall_generations: needs convergence_tolerance"));
  o.restarts.convergence_tolerance = 1e-8;
  o.restarts.max_stall_generations = 9;
  REQUIRE_THROWS_WITH(solve(CQ{}, o, backend::serial{}),
                      Catch::Contains("ga.restarts.max_stall_generations: expected an integer >= stall_generations "
                                      "= 10, got 9"));
}
