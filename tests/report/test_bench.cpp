// ga-bench's building blocks: timing statistics, the bytes model, the copy
// probe, the unfused (NumPy-style) seed evaluators against the fused engine,
// the benchmark runner and the JSON/table writers.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>

#include "bench/bench_runner.hpp"
#include "bench/bench_stats.hpp"
#include "bench/bench_target_impl.hpp"
#include "bench/bench_timer.hpp"
#include "bench/bytes_model.hpp"
#include "bench/stream_copy.hpp"
#include "bench/unfused_seed.hpp"
#include "fusedga/backends/serial.hpp"
#include "fusedga/backends/tbb.hpp"
#include "fusedga/core/error.hpp"
#include "fusedga/engine/engine.hpp"
#include "io/atomic_file.hpp"
#include "report/bench_json.hpp"
#include "report/bench_table.hpp"

using namespace fusedga;

TEST_CASE("summarize_times gives median, min and max", "[report]") {
  SECTION("odd count") {
    const auto s = summarize_times({5.0, 1.0, 3.0, 9.0, 2.0});
    CHECK(s.median_s == 3.0);
    CHECK(s.min_s == 1.0);
    CHECK(s.max_s == 9.0);
    CHECK(s.count == 5);
  }
  SECTION("even count averages the two middle samples") {
    const auto s = summarize_times({4.0, 1.0, 8.0, 2.0});
    CHECK(s.median_s == 3.0);
    CHECK(s.min_s == 1.0);
    CHECK(s.max_s == 8.0);
    CHECK(s.count == 4);
  }
  SECTION("one sample") {
    const auto s = summarize_times({0.25});
    CHECK(s.median_s == 0.25);
    CHECK(s.min_s == 0.25);
    CHECK(s.max_s == 0.25);
  }
  SECTION("no samples") { CHECK_THROWS_AS(summarize_times({}), error); }
}

TEST_CASE("time_repeats honours repeats, warm-up and minimum time", "[report]") {
  int calls = 0;
  repeat_policy p;
  p.warmup = 2;
  p.min_repeats = 3;
  p.min_time_s = 0;
  const auto samples = time_repeats([&] { ++calls; }, p);
  CHECK(samples.size() == 3);
  CHECK(calls == 5);
  p.max_repeats = 4;
  p.min_time_s = 1e9;  // capped by max_repeats
  CHECK(time_repeats([] {}, p).size() == 4);
}

TEST_CASE("bytes model on a hand-computed example", "[report]") {
  // d = 3 doubles, double fitness, 64-bit key: a row is 3*8 + 2*8 + 8 = 48 bytes.
  const record_layout r{3, 8, 8, 8};
  CHECK(r.row_bytes() == 48);
  // Evaluation of N = 1000: reads 1000*3*8 = 24000, writes 1000*(16 + 8) = 24000.
  const traffic e = evaluation_traffic(r, 1000);
  CHECK(e.read == 24000);
  CHECK(e.written == 24000);
  CHECK(e.total() == 48000);
  // Generation, N = 1000, E = 2, k = 2: 998 children, each reading 2*24 + 2*2*8 = 80
  // and writing 48; the 2 elites read and write 48 each.
  const traffic g = generation_traffic(r, 1000, 2, 2);
  CHECK(g.read == 998 * 80 + 2 * 48);
  CHECK(g.written == 998 * 48 + 2 * 48);
  CHECK(g.total() == 127936);
  // int8 genes, float fitness, 32-bit key (gene-sum in float): row = 1000 + 8 + 4.
  const record_layout s{1000, 1, 4, 4};
  CHECK(evaluation_traffic(s, 10).total() == 10 * 1000 + 10 * 12);
  CHECK(engine_memory_bytes(s, 10) == 2 * 11 * 1012);
  CHECK(object_tier_memory_bytes(s, 10) == 10 * (8000 + 56));
}

TEST_CASE("stream copy reports a positive finite bandwidth", "[report]") {
  const copy_bandwidth c = measure_copy_bandwidth(1, std::size_t(1) << 20, 2);
  CHECK(std::isfinite(c.gb_per_s));
  CHECK(c.gb_per_s > 0);
  CHECK(c.array_bytes == std::size_t(1) << 20);
  CHECK(c.threads == 1);
  const copy_bandwidth c2 = measure_copy_bandwidth(2, std::size_t(1) << 20, 2);
  CHECK(std::isfinite(c2.gb_per_s));
  CHECK(c2.gb_per_s > 0);
  CHECK_THROWS_AS(measure_copy_bandwidth(0, 1024, 1), error);
  CHECK(default_stream_array_bytes() >= std::size_t(256) << 20);
}

namespace {

/// |a - b| relative to max(|a|, |b|, 1).
double rel_diff(double a, double b) {
  if (a == b) return 0;
  return std::fabs(a - b) / std::max({std::fabs(a), std::fabs(b), 1.0});
}

/// Evaluates a fresh population with the engine (fused) and with the unfused
/// evaluator, and returns the largest difference of objective and violation;
/// also checks the rank keys are equal where objective and violation are.
template <class Problem>
double unfused_vs_fused(const Problem& problem, std::size_t n, ga_options o = {}) {
  o.population = n;
  engine<Problem, backend::serial> e(problem, o, backend::serial{});
  e.initialize();
  e.evaluate_population();
  const auto pop = e.current();
  const auto r = unfused_evaluator<Problem>::evaluate(problem, pop, o.constraints);
  REQUIRE(r.objective.size() == n);
  REQUIRE(r.violation.size() == n);
  REQUIRE(r.rank_key.size() == n);
  double worst = 0;
  std::size_t infeasible = 0;
  for (std::size_t i = 0; i < n; ++i) {
    worst = std::max(worst, rel_diff(r.objective[i], pop.objective[i]));
    worst = std::max(worst, rel_diff(r.violation[i], pop.violation[i]));
    if (r.objective[i] == pop.objective[i] && r.violation[i] == pop.violation[i]) CHECK(r.rank_key[i] == pop.rank_key[i]);
    infeasible += pop.violation[i] > 0 ? 1 : 0;
  }
  (void)infeasible;
  return worst;
}

}  // namespace

TEST_CASE("unfused seed evaluators agree with the fused evaluation", "[report]") {
  STATIC_REQUIRE(unfused_evaluator<problems::ConstrainedQuadratic<double>>::available);
  STATIC_REQUIRE(unfused_evaluator<problems::TrigConstrained<float>>::available);
  STATIC_REQUIRE(unfused_evaluator<problems::GeneSum<double>>::available);

  SECTION("constrained quadratic, double") {
    CHECK(unfused_vs_fused(problems::ConstrainedQuadratic<double>{}, 1000) <= 1e-9);
  }
  SECTION("constrained quadratic, an odd size and penalty ranking") {
    ga_options o;
    o.constraints.rule = constraint_rule::penalty;
    CHECK(unfused_vs_fused(problems::ConstrainedQuadratic<double>{}, 777, o) <= 1e-9);
  }
  SECTION("trig constrained, double") {
    CHECK(unfused_vs_fused(problems::TrigConstrained<double>{}, 1000) <= 1e-9);
  }
  SECTION("float precision agrees to float rounding") {
    CHECK(unfused_vs_fused(problems::ConstrainedQuadratic<float>{}, 1000) <= 1e-5);
    CHECK(unfused_vs_fused(problems::TrigConstrained<float>{}, 1000) <= 1e-5);
  }
  SECTION("gene sum, exact") {
    problems::GeneSum<double> p;
    p.genes = 100;
    ga_options o;
    o.crossover.kind = crossover_kind::uniform;
    o.mutation.kind = mutation_kind::uniform_reset;
    CHECK(unfused_vs_fused(p, 1000, o) == 0);
    problems::GeneSum<float> pf;
    pf.genes = 37;
    CHECK(unfused_vs_fused(pf, 300, o) == 0);
  }
}

TEST_CASE("unfused temporaries are np.empty-like, one pass per operation", "[report]") {
  unfused::array<double> a(4), b(4);
  for (int i = 0; i < 4; ++i) {
    a[i] = i;
    b[i] = 10 * i;
  }
  const auto c = unfused::add(a, unfused::scale(2.0, b));
  CHECK(c[3] == 63.0);
  CHECK(unfused::positive_part(unfused::sub(a, 2.0))[0] == 0.0);
  CHECK(unfused::rsub(1.0, a)[3] == -2.0);
}

TEST_CASE("unfused temporaries reuse a freed block of the same size, as NumPy's heap does", "[report]") {
  unfused::block_cache& cache = unfused::block_cache::local();
  const std::size_t bytes = 100000 * sizeof(double);
  const double* first = nullptr;
  {
    unfused::array<double> a(100000);
    first = a.data();
  }
  REQUIRE(cache.holds(bytes));
  const unfused::array<double> same(100000);  // the freed block, not a fresh mapping
  CHECK(same.data() == first);
  CHECK_FALSE(cache.holds(bytes));
  // A sweep: blocks of earlier sizes age out instead of crowding out the next size's.
  for (int k = 0; k < 40; ++k) unfused::array<double>(1000 + k);
  { unfused::array<double> b(200000); }
  CHECK(cache.holds(200000 * sizeof(double)));
  CHECK_FALSE(cache.holds(1000 * sizeof(double)));  // the oldest went
}

TEST_CASE("bench target: tiers run and the unfused check holds", "[report]") {
  run_config cfg;
  cfg.problem.builtin = "seed/constrained-quadratic";
  const auto t = make_bench_target(problems::ConstrainedQuadratic<double>{}, cfg);
  CHECK(t->dimension() == 3);
  CHECK(t->gene_bytes() == 8);
  CHECK(t->key_bytes() == 8);
  CHECK(t->has_unfused());
  t->prepare(500, backend_kind::tbb, 2);
  CHECK(t->elitism() == 2);
  CHECK(t->tournament_size() == 2);
  CHECK_THROWS_AS(t->unfused_difference(), error);
  t->evaluate_unfused();
  CHECK(t->unfused_difference() <= 1e-9);
  t->evaluate_fused();
  CHECK(t->unfused_difference() <= 1e-9);
  CHECK_THROWS_AS(t->evaluate_objects(), error);
  t->prepare_objects();
  t->evaluate_objects();
  t->release_objects();
  t->generation();
  CHECK_THROWS_AS(t->unfused_difference(), error);
  t->prepare(10, backend_kind::serial, 1);
  t->generation();
  CHECK_THROWS_AS(t->prepare(10, backend_kind::cuda, 1), backend_unavailable);
}

TEST_CASE("run_bench fills rows, speedups and notes, and the writers format them", "[report]") {
  run_config cfg;
  problems::GeneSum<double> p;
  p.genes = 64;
  cfg.ga.crossover.kind = crossover_kind::uniform;
  cfg.ga.mutation.kind = mutation_kind::uniform_reset;
  const auto target = make_bench_target(p, cfg);

  bench_plan plan;
  plan.sizes = {200, 3000};
  plan.backends = {{backend_kind::serial, 1}, {backend_kind::tbb, 2}};
  plan.repeats.min_repeats = 2;
  plan.repeats.min_time_s = 0;
  plan.copy_array_bytes = std::size_t(1) << 20;
  plan.copy_trials = 1;
  plan.object_max_gene_values = 200 * 64;  // the object tier runs at N = 200 only
  std::vector<std::string> lines;
  bench_report r = run_bench(*target, plan, [&](const std::string& l) { lines.push_back(l); });
  r.problem = "seed/gene-sum";
  r.source = "<builtin>";
  r.precision = "double";

  CHECK_FALSE(lines.empty());
  CHECK(r.dimension == 64);
  CHECK(r.environment.copy_gb_per_s.count(1) == 1);
  CHECK(r.environment.copy_gb_per_s.count(2) == 1);
  // N = 200: object + unfused + 2 backends x 2 workloads; N = 3000: no object tier.
  CHECK(r.rows.size() == 6 + 5);
  for (const auto& row : r.rows) {
    CHECK(row.repeats >= 2);
    CHECK(row.median_ms >= row.min_ms);
    CHECK(row.max_ms >= row.median_ms);
    CHECK(row.bytes > 0);
    if (row.workload == bench_workload::eval) {
      CHECK(row.speedup_vs_unfused.has_value());
      CHECK(row.speedup_vs_object.has_value() == (row.population == 200));
      CHECK(row.bytes == evaluation_traffic({64, 1, 8, 8}, row.population).total());
    } else {
      CHECK_FALSE(row.speedup_vs_object.has_value());
      CHECK(row.tier == bench_tier::fused);
    }
  }
  const bool object_note = std::any_of(r.notes.begin(), r.notes.end(),
                                       [](const std::string& n) { return n.find("object tier skipped at N = 3000") == 0; });
  CHECK(object_note);

  const std::string table = format_bench_table(r);
  CHECK(table.find("vs unfused") != std::string::npos);
  CHECK(table.find("seed/gene-sum") != std::string::npos);

  const auto j = bench_report_json(r);
  CHECK(j.at("schema_version") == bench_schema_version);
  CHECK(j.at("rows").size() == r.rows.size());
  CHECK(j.at("environment").contains("cpu_model"));
  CHECK(j.at("environment").at("copy_bandwidth_gb_per_s").contains("2"));
  CHECK(j.at("rows").at(0).at("tier") == "object");

  const std::string path = "test_bench_report.json";
  write_file_atomic(path, j.dump(2));
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(nlohmann::json::parse(text.str()) == j);
  std::remove(path.c_str());
  CHECK_THROWS_AS(write_file_atomic("/nonexistent-dir/x.json", "{}"), error);
}

TEST_CASE("run_bench rejects empty plans and skips what does not fit", "[report]") {
  run_config cfg;
  const auto target = make_bench_target(problems::ConstrainedQuadratic<double>{}, cfg);
  bench_plan plan;
  CHECK_THROWS_AS(run_bench(*target, plan), config_error);
  plan.sizes = {1};
  plan.backends = {{backend_kind::serial, 1}};
  CHECK_THROWS_AS(run_bench(*target, plan), config_error);
  plan.sizes = {1000};
  plan.copy_array_bytes = 1 << 16;
  plan.copy_trials = 1;
  plan.memory_limit_bytes = 1000;  // less than two populations
  const bench_report r = run_bench(*target, plan);
  CHECK(r.rows.empty());
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].find("N = 1000 skipped") == 0);
}
