// The GPU JIT (issue 4): generated CUDA source, NVRTC compile and nvJitLink
// link into the prebuilt kernels, the cache — all without a GPU — and, when a
// GPU is usable, the linked kernels' objective and violation against the
// interpreter at 10,000 random points for every configs/expr-*.yaml, and a
// whole run through the registry. GPU tests skip with a message otherwise.
#include <catch2/catch.hpp>

#if defined(FUSEDGA_WITH_CUDA)

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <fusedga/backends/cuda/device.hpp>
#include <fusedga/config/registry.hpp>
#include <fusedga/config/run_config.hpp>
#include <fusedga/core/error.hpp>
#include <fusedga/core/problem_traits.hpp>
#include <fusedga/expr/codegen.hpp>
#include <fusedga/expr/interpreter.hpp>
#include <fusedga/operators/gradient_repair.hpp>
#include <random>
#include <string>
#include <vector>

#include "cuda/device_jit.hpp"
#include "cuda/expr_device_problem.hpp"
#include "cuda/gpu_harness.hpp"
#include "expr/interpreter_reference.hpp"
#include "expr/program_builder.hpp"
#include "expr/temp_cache.hpp"
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

using namespace fusedga;

namespace {

const std::vector<std::string> expr_configs = {
    "expr-seed-constrained-quadratic.yaml",   "expr-seed-trig-constrained.yaml",
    "expr-seed-gene-sum.yaml",                "expr-engineering-pressure-vessel.yaml",
    "expr-engineering-welded-beam.yaml",      "expr-engineering-tension-compression-spring.yaml",
    "expr-engineering-speed-reducer.yaml",    "expr-engineering-three-bar-truss.yaml",
    "device_coverage.yaml"};

/// A config of configs/, or tests/expr/device_coverage.yaml (equalities, nested reductions, the math functions).
run_config load(const std::string& name) {
  const std::string dir = name == "device_coverage.yaml" ? "/tests/expr/" : "/configs/";
  return load_config(std::string(FUSEDGA_SOURCE_DIR) + dir + name);
}

bool contains(const std::vector<char>& bytes, const std::string& text) {
  return std::search(bytes.begin(), bytes.end(), text.begin(), text.end()) != bytes.end();
}

const char* kernel_kinds[] = {"init", "evaluate", "offspring_short", "offspring_long"};

}  // namespace

TEST_CASE("gpu jit: device source is deterministic, free of user text, and declares the kernels' entry points",
          "[cuda][jit]") {
  using namespace fusedga::expr;
  using namespace expr_test;
  const program p = parsed({declared("secret_length", 1, 0, 1), declared("payload", 4, -1, 1)},
                           "0.1*secret_length + sum(i=0:3, payload[i]^2) + min(i=1:3, payload[i-1]) + 1e308*10",
                           {"secret_length - payload[2] <= 0.25", "secret_length == 0.5"});
  const std::string a = generate_device_source(p, "double");
  CHECK(a == generate_device_source(p, "double"));
  for (const char* entry : {"fusedga_expr_objective_f64(const R* x)", "fusedga_expr_inequalities_f64(const R* x, R* total)",
                            "fusedga_expr_equalities_f64(const R* x, R eps, R* total)"})
    CHECK(a.find(entry) != std::string::npos);
  CHECK(a.find("std::") == std::string::npos);  // NVRTC has no standard library
  CHECK(a.find("jit_infinity<R>()") != std::string::npos);  // the folded 1e308*10 and min's start value
  CHECK(a.find("secret_length") == std::string::npos);
  CHECK(a.find("payload") == std::string::npos);
  CHECK(a.find("R(0.10000000000000001)") != std::string::npos);
  const std::string f = generate_device_source(p, "float");
  CHECK(f.find("using R = float;") != std::string::npos);
  CHECK(f.find("fusedga_expr_objective_f32") != std::string::npos);
  CHECK_THROWS_WITH(generate_device_source(p, "half"), Catch::Contains("\"float\" or \"double\""));
  // And it compiles and links (the non-finite constants and reductions included).
  const expr_test::temp_cache temp;
  const std::string cache = temp.dir();
  const std::vector<char> image = device_jit_image<double>(p, 90, {cache, {}});
  CHECK(contains(image, detail::expr_kernel_name("evaluate", Sense::minimize)));
}

TEST_CASE("gpu jit: every expression config compiles with NVRTC and links into the three kernels its run launches "
          "(no GPU needed)",
          "[cuda][jit]") {
  const expr_test::temp_cache temp;
  const std::string cache = temp.dir();
  // The image holds exactly expr_kernels_used(p): init and evaluate of p's sense and the offspring kernel of its
  // genome length (the configs cover both senses and both offspring kernels).
  const auto check_kernels = [](const std::vector<char>& image, const expr::program& p) {
    const std::vector<std::string> used = detail::expr_kernels_used(p);
    REQUIRE(used.size() == 3);
    for (const char* kind : kernel_kinds)
      for (const Sense s : {Sense::minimize, Sense::maximize}) {
        const std::string name = detail::expr_kernel_name(kind, s);
        INFO(name);
        CHECK(contains(image, name) == (std::find(used.begin(), used.end(), name) != used.end()));
      }
  };
  bool saw_long = false, saw_max = false;
  for (const std::string& name : expr_configs) {
    INFO(name);
    const run_config cfg = load(name);
    const expr::program& p = *cfg.problem.expression;
    expr::device_jit_stats stats;
    const std::vector<char> image = expr::device_jit_image<double>(p, 90, {cache, {}}, &stats);
    CHECK_FALSE(stats.cache_hit);
    CHECK(stats.compile_seconds > 0);
    CHECK(stats.link_seconds > 0);
    REQUIRE(image.size() > 4);
    CHECK(std::string(image.begin(), image.begin() + 4) == "\x7f" "ELF");  // a cubin
    check_kernels(image, p);
    saw_long |= !detail::cuda_geometry::short_genome(p.dimension());
    saw_max |= p.sense == Sense::maximize;
  }
  CHECK(saw_long);
  CHECK(saw_max);
  const run_config first = load(expr_configs[0]);
  const expr::program& f = *first.problem.expression;
  check_kernels(expr::device_jit_image<float>(f, 90, {cache, {}}), f);
}

TEST_CASE("gpu jit: table lookups compile with NVRTC in float and double and link (no GPU needed)", "[cuda][jit][table]") {
  const expr_test::temp_cache temp;
  const expr::program p = expr_test::table_program();
  for (const std::vector<char>& image : {expr::device_jit_image<double>(p, 90, {temp.dir(), {}}),
                                         expr::device_jit_image<float>(p, 90, {temp.dir(), {}})})
    CHECK(contains(image, detail::expr_kernel_name("evaluate", Sense::minimize)));
}

TEST_CASE("gpu jit: the device problem has constraints, so the prebuilt kernels evaluate them (no GPU needed)",
          "[cuda][jit]") {
  // The engine calls inequalities() / equalities() only for problems with the count members; the prebuilt
  // kernels are compiled against expr_device_problem, so without them every constraint would be dropped.
  using P = detail::expr_device_problem<double, Sense::minimize>;
  STATIC_REQUIRE(detail::has_inequalities<P>::value);
  STATIC_REQUIRE(detail::has_equalities<P>::value);
  STATIC_REQUIRE(detail::has_inequalities<detail::expr_device_problem<float, Sense::maximize>>::value);
  const run_config cfg = load("expr-engineering-welded-beam.yaml");
  const P p{cfg.problem.expression.get(), nullptr};
  CHECK(p.inequality_count() == cfg.problem.expression->inequality_count());
  CHECK(p.inequality_count() > 0);
}

TEST_CASE(
    "gpu jit: a repairing DE run's Jacobian compiles with NVRTC and links into the DE kernel, in float and "
    "double (no GPU needed)",
    "[cuda][jit][repair]") {
  // The DE kernel's gradient repair calls expr_device_problem::jacobian (a repairable problem), hence the
  // generated fusedga_expr_jacobian_*: the real one when the run repairs, a trapping stub otherwise.
  using P = detail::expr_device_problem<double, Sense::minimize>;
  STATIC_REQUIRE(detail::has_jacobian<P>::value);
  STATIC_REQUIRE(repairable_v<P>);
  STATIC_REQUIRE(repairable_v<detail::expr_device_problem<float, Sense::maximize>>);
  const expr_test::temp_cache temp;
  const run_config cfg = load("expr-engineering-welded-beam.yaml");
  const expr::program& p = *cfg.problem.expression;
  const std::string with = expr::generate_device_source(p, "double", true);
  const std::string without = expr::generate_device_source(p, "double", false);
  CHECK(with.find("void fusedga_expr_jacobian_f64(const R* __restrict__ x, R* __restrict__ c, R* __restrict__ J)") !=
        std::string::npos);
  CHECK(without.find("__trap()") != std::string::npos);
  CHECK(with.find("__trap()") == std::string::npos);
  expr::device_jit_options o{temp.dir(), {}};
  o.genetic_algorithm = false;
  o.differential_evolution = true;
  o.jacobian = true;
  expr::device_jit_stats stats;
  const std::vector<char> image = expr::device_jit_image<double>(p, 90, o, &stats);
  CHECK(contains(image, detail::expr_kernel_name("de", p.sense)));
  // A different source, so a different cache entry than the run without the repair.
  expr::device_jit_options plain = o;
  plain.jacobian = false;
  expr::device_jit_stats plain_stats;
  expr::device_jit_image<double>(p, 90, plain, &plain_stats);
  CHECK_FALSE(plain_stats.cache_hit);
  CHECK(plain_stats.image_path != stats.image_path);
  CHECK(contains(expr::device_jit_image<float>(p, 90, o), detail::expr_kernel_name("de", p.sense)));
}

TEST_CASE("gpu jit: islands that mix the GA and DE get both variation kernels in one image (no GPU needed)",
          "[cuda][jit][islands]") {
  const expr_test::temp_cache temp;
  const run_config cfg = load("expr-seed-constrained-quadratic.yaml");
  const expr::program& p = *cfg.problem.expression;
  const std::vector<std::string> both = detail::expr_kernels_used(p, true, true);
  REQUIRE(both.size() == 4);
  CHECK(both[3] == detail::expr_kernel_name("de", p.sense));
  CHECK(detail::expr_kernels_used(p, false, true).size() == 3);
  expr::device_jit_options o{temp.dir(), {}};
  o.differential_evolution = true;  // and genetic_algorithm, by default
  const std::vector<char> image = expr::device_jit_image<double>(p, 90, o);
  for (const std::string& name : both) {
    INFO(name);
    CHECK(contains(image, name));
  }
  // Each run's image has only its own: a DE run's lacks the GA's offspring kernel.
  o.genetic_algorithm = false;
  CHECK_FALSE(contains(expr::device_jit_image<double>(p, 90, o), both[2]));
}

TEST_CASE("gpu jit: the cache hits on the second call, rebuilds a tampered image, and is private", "[cuda][jit]") {
  const expr_test::temp_cache temp;
  const std::string cache = temp.dir();
  const run_config cfg = load("expr-seed-trig-constrained.yaml");
  const expr::program& p = *cfg.problem.expression;
  expr::device_jit_stats first, second, third;
  const std::vector<char> a = expr::device_jit_image<double>(p, 90, {cache, {}}, &first);
  const std::vector<char> b = expr::device_jit_image<double>(p, 90, {cache, {}}, &second);
  CHECK_FALSE(first.cache_hit);
  CHECK(second.cache_hit);
  CHECK(second.compile_seconds == 0);
  CHECK(a == b);
  struct stat st {};
  REQUIRE(::stat(cache.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  {
    std::ofstream out(first.image_path, std::ios::binary | std::ios::app);
    out << "tampered";
  }
  const std::vector<char> c = expr::device_jit_image<double>(p, 90, {cache, {}}, &third);
  CHECK_FALSE(third.cache_hit);
  CHECK(c == a);
  // Another architecture is another image.
  expr::device_jit_stats other;
  expr::device_jit_image<double>(p, 100, {cache, {}}, &other);
  CHECK_FALSE(other.cache_hit);
  CHECK(other.image_path != first.image_path);
}

TEST_CASE("gpu jit: failures are clear errors (missing headers, an architecture older than the kernels')",
          "[cuda][jit]") {
  const expr_test::temp_cache temp;
  const std::string cache = temp.dir();
  const run_config cfg = load("expr-seed-trig-constrained.yaml");
  const expr::program& p = *cfg.problem.expression;
  CHECK_THROWS_WITH(expr::device_jit_image<double>(p, 90, {cache, {cache + "/no-such-include-dir"}}),
                    Catch::Contains("NVRTC could not compile the generated problem") &&
                        Catch::Contains("constraint_sink.hpp"));
  CHECK_THROWS_WITH(expr::device_jit_image<double>(p, expr::device_jit_lto_arch() - 10, {cache, {}}),
                    Catch::Contains("older than the prebuilt kernels'"));
}

TEST_CASE("gpu jit: --explain plans the GPU JIT for backend cuda and refuses the interpreter there", "[cuda][jit]") {
  run_config cfg = load("expr-seed-trig-constrained.yaml");
  cfg.backend = backend_kind::cuda;
  const expression_plan plan = plan_expression(cfg);
  CHECK(plan.gpu);
  CHECK(plan.engine == expression_engine::jit);
  CHECK_THAT(plan.reason, Catch::Contains("NVRTC") && Catch::Contains("nvJitLink"));
  cfg.problem.engine = expression_engine::interpreter;
  CHECK_THROWS_WITH(plan_expression(cfg), Catch::Contains("interpreter runs on the CPU backends only"));
  cfg.backend = backend_kind::tbb;
  CHECK_FALSE(plan_expression(cfg).gpu);
}

TEST_CASE("gpu jit: on the GPU every expression config's objective and violation equal the interpreter's",
          "[cuda][jit][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  const cuda_device_status gpu = probe_cuda_device(0);
  const int sm = gpu.compute_major * 10 + gpu.compute_minor;
  constexpr int points = 10000;
  constexpr double eps = 1e-4;
  for (const std::string& name : expr_configs) {
    INFO(name);
    const run_config cfg = load(name);
    const expr::program& p = *cfg.problem.expression;
    const auto ref = expr_test::interpreter_at_random_points(p, points, eps, name == "expr-seed-gene-sum.yaml");

    ga_options o;
    o.population = points;
    o.elitism = 1;
    o.constraints.equality_tolerance = eps;
    const detail::cuda_expr_module module(expr::device_jit_image<double>(p, sm), p);
    const auto check = [&](const auto& population) {
      int mismatches = 0;
      for (std::size_t l = 0; l < static_cast<std::size_t>(points); ++l) {
        if (!expr_test::agree_to_1e12(population.objective[l], ref.objective[l]) ||
            !expr_test::agree_to_1e12(population.violation[l], ref.violation[l]))
          if (++mismatches <= 3)
            UNSCOPED_INFO("point " << l << ": objective " << population.objective[l] << " vs " << ref.objective[l]
                                   << ", violation " << population.violation[l] << " vs " << ref.violation[l]);
      }
      CHECK(mismatches == 0);
    };
    if (p.sense == Sense::maximize)
      check(cuda_test::evaluate_on_gpu(detail::expr_device_problem<double, Sense::maximize>{&p, &module}, o, ref.rows));
    else
      check(cuda_test::evaluate_on_gpu(detail::expr_device_problem<double, Sense::minimize>{&p, &module}, o,
                                       ref.rows));
  }
}

TEST_CASE("gpu jit: on the GPU table lookups equal the interpreter's, NaN outside the table included",
          "[cuda][jit][gpu][table]") {
  FUSEDGA_REQUIRE_GPU();
  const cuda_device_status gpu = probe_cuda_device(0);
  const expr::program p = expr_test::table_program();
  const int d = p.dimension();
  std::vector<double> rows = expr_test::table_rows(2000);
  for (double& v : rows)
    if (!(v >= -1 && v <= 4)) v = 3.5;  // genes inside the bounds (3.5 still indexes past P's end)
  const int points = static_cast<int>(rows.size()) / d;
  const expr_test::outputs<double> ref = expr_test::run_rows(*expr::make_interpreter<double>(p), rows, d, 1e-4);
  ga_options o;
  o.population = points;
  o.elitism = 1;
  o.constraints.equality_tolerance = 1e-4;
  const detail::cuda_expr_module module(expr::device_jit_image<double>(p, gpu.compute_major * 10 + gpu.compute_minor), p);
  const auto g = cuda_test::evaluate_on_gpu(detail::expr_device_problem<double, Sense::minimize>{&p, &module}, o, rows);
  int mismatches = 0;
  for (std::size_t l = 0; l < static_cast<std::size_t>(points); ++l)
    if (!expr_test::close(g.objective[l], ref.objective[l], 1e-12) || !expr_test::close(g.violation[l], ref.violation[l], 1e-12))
      if (++mismatches <= 3)
        UNSCOPED_INFO("point " << l << ": objective " << g.objective[l] << " vs " << ref.objective[l] << ", violation "
                               << g.violation[l] << " vs " << ref.violation[l]);
  CHECK(mismatches == 0);
}

TEST_CASE("gpu jit: float kernels agree with the float interpreter to float rounding", "[cuda][jit][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  const cuda_device_status gpu = probe_cuda_device(0);
  const run_config cfg = load("expr-seed-trig-constrained.yaml");
  const expr::program& p = *cfg.problem.expression;
  constexpr int points = 4096;
  std::mt19937_64 rng(5);
  std::vector<float> rows;
  for (int l = 0; l < points; ++l)
    for (const expr::variable& v : p.variables)
      for (int k = 0; k < v.size; ++k)
        rows.push_back(static_cast<float>(std::uniform_real_distribution<double>(v.lower[k], v.upper[k])(rng)));
  std::vector<float> obj(points), vio(points);
  expr::make_interpreter<float>(p)->evaluate(rows.data(), p.dimension(), 1, points, 1e-4f, obj.data(), vio.data());
  ga_options o;
  o.population = points;
  o.elitism = 1;
  o.constraints.equality_tolerance = 1e-4;
  const detail::cuda_expr_module module(expr::device_jit_image<float>(p, gpu.compute_major * 10 + gpu.compute_minor),
                                        p);
  const auto g = cuda_test::evaluate_on_gpu(detail::expr_device_problem<float, Sense::minimize>{&p, &module}, o, rows);
  for (std::size_t l = 0; l < static_cast<std::size_t>(points); ++l) {
    CHECK(g.objective[l] == Approx(obj[l]).epsilon(1e-5).margin(1e-5));
    CHECK(g.violation[l] == Approx(vio[l]).epsilon(1e-5).margin(1e-5));
  }
}

TEST_CASE("gpu jit: expr-seed-constrained-quadratic on backend cuda finds the built-in's optimum", "[cuda][jit][gpu]") {
  FUSEDGA_REQUIRE_GPU();
  run_config cfg = load_config(std::string(FUSEDGA_SOURCE_DIR) + "/configs/expr-seed-constrained-quadratic.yaml",
                                {"backend=cuda", "ga.population=100000", "ga.generations=200"});
  int threads = -1;
  const Result r = run(cfg, {}, &threads);
  CHECK(threads == 0);
  CHECK(r.feasible);
  CHECK(r.objective == Approx(263.1739).epsilon(1e-3));  // the built-in's optimum (tests/cuda/test_gpu.cpp)
  CHECK(r.history.size() == 201);
}

#else
TEST_CASE("gpu jit tests: without the CUDA backend they are not built", "[cuda]") {
  WARN("skipped: this build has no CUDA backend (FUSEDGA_CUDA=OFF or no nvcc)");
}
#endif
