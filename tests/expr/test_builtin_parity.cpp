// The expression configs in configs/expr-*.yaml against their compiled
// built-ins: the same objective and violation to 1e-12 relative at 10,000
// random points in the box, on every CPU evaluation path (interpreter, JIT).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <fusedga/config/run_config.hpp>
#include <fusedga/core/constraint_sink.hpp>
#include <fusedga/core/problem_traits.hpp>
#include <fusedga/expr/interpreter.hpp>
#include <fusedga/expr/jacobian_evaluator.hpp>
#include <fusedga/expr/jit.hpp>
#include <fusedga/problems/engineering/pressure_vessel.hpp>
#include <fusedga/problems/engineering/speed_reducer.hpp>
#include <fusedga/problems/engineering/tension_compression_spring.hpp>
#include <fusedga/problems/engineering/three_bar_truss.hpp>
#include <fusedga/problems/engineering/welded_beam.hpp>
#include <fusedga/problems/seed/constrained_quadratic.hpp>
#include <fusedga/problems/seed/gene_sum.hpp>
#include <fusedga/problems/seed/trig_constrained.hpp>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

namespace {

using namespace fusedga;

constexpr int points = 10000;
constexpr double eps = 1e-4;

/// Objective and violation of a built-in at one point, as the engine forms them.
template <class Problem, class X>
std::pair<double, double> builtin_value(const Problem& problem, const X& x) {
  double v = 0;
  if constexpr (detail::has_inequalities<Problem>::value) {
    auto g = inequality_sink(&v);
    problem.inequalities(x, g);
  }
  return {static_cast<double>(problem.objective(x)), v};
}

bool agree(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max({1.0, std::abs(a), std::abs(b)}); }

/// Uniform points in the program's box, row-major; integer points when `integer`.
std::vector<double> random_points(const expr::program& p, bool integer, unsigned seed) {
  std::mt19937_64 rng(seed);
  const int d = p.dimension();
  std::vector<double> lo, hi;
  for (const expr::variable& v : p.variables) {
    lo.insert(lo.end(), v.lower.begin(), v.lower.end());
    hi.insert(hi.end(), v.upper.begin(), v.upper.end());
  }
  std::vector<double> rows(static_cast<std::size_t>(points) * static_cast<std::size_t>(d));
  for (int l = 0; l < points; ++l)
    for (int j = 0; j < d; ++j) {
      const auto u = static_cast<std::size_t>(j);
      double x = std::uniform_real_distribution<double>(lo[u], hi[u])(rng);
      rows[static_cast<std::size_t>(l) * static_cast<std::size_t>(d) + u] = integer ? std::round(x) : x;
    }
  return rows;
}

/// Checks every evaluation path of `config` against `builtin(row)` at random points.
void check_parity(const std::string& config, bool integer,
                  const std::function<std::pair<double, double>(const double*)>& builtin) {
  const run_config cfg = load_config(std::string(FUSEDGA_SOURCE_DIR) + "/configs/" + config);
  REQUIRE(cfg.problem.expression);
  const expr::program& p = *cfg.problem.expression;
  const int d = p.dimension();
  const std::vector<double> rows = random_points(p, integer, 7);

  std::vector<std::pair<std::string, std::unique_ptr<expr::evaluator<double>>>> paths;
  paths.emplace_back("interpreter", expr::make_interpreter<double>(p));
  std::string why;
  if (!expr::find_compiler({}, &why).empty()) paths.emplace_back("jit", expr::jit_compile<double>(p));
  else WARN("JIT path skipped: " << why);

  for (const auto& [name, e] : paths) {
    std::vector<double> obj(points), vio(points);
    e->evaluate(rows.data(), d, 1, points, eps, obj.data(), vio.data());
    int mismatches = 0;
    for (int l = 0; l < points; ++l) {
      const auto [f, v] = builtin(&rows[static_cast<std::size_t>(l) * static_cast<std::size_t>(d)]);
      const auto u = static_cast<std::size_t>(l);
      if (!agree(obj[u], f) || !agree(vio[u], v)) {
        if (++mismatches <= 3)
          UNSCOPED_INFO(config << " on " << name << ", point " << l << ": objective " << obj[u] << " vs built-in " << f
                               << ", violation " << vio[u] << " vs " << v);
      }
    }
    CHECK(mismatches == 0);
  }
}

template <class Problem>
std::function<std::pair<double, double>(const double*)> real_builtin() {
  return [](const double* x) { return builtin_value(Problem{}, x); };
}

/// A built-in's `jacobian` member against the symbolic Jacobian of its expression config (expr/derivative.hpp,
/// the tape interpreter) at random points: values within 1e-12, derivatives within 1e-9 of their row's largest.
template <class Problem>
void check_jacobian_parity(const std::string& config) {
  const run_config cfg = load_config(std::string(FUSEDGA_SOURCE_DIR) + "/configs/" + config);
  REQUIRE(cfg.problem.expression);
  const expr::program& p = *cfg.problem.expression;
  const auto symbolic = expr::make_jacobian_interpreter<double>(expr::build_jacobian(p));
  const Problem builtin;
  const int d = p.dimension(), m = symbolic->constraint_count();
  REQUIRE(m == builtin.inequality_count());
  const std::vector<double> rows = random_points(p, false, 11);
  const auto md = static_cast<std::size_t>(m) * static_cast<std::size_t>(d);
  std::vector<double> c(static_cast<std::size_t>(m)), J(md), cb(c.size()), Jb(md);
  int mismatches = 0;
  for (int l = 0; l < points; ++l) {
    const double* x = &rows[static_cast<std::size_t>(l) * static_cast<std::size_t>(d)];
    symbolic->evaluate(x, c.data(), J.data());
    builtin.jacobian(x, cb.data(), Jb.data());
    for (int k = 0; k < m; ++k) {
      const auto row = [&](const std::vector<double>& a) { return a.begin() + k * d; };
      double largest = 1;
      for (int j = 0; j < d; ++j) largest = std::max({largest, std::abs(row(J)[j]), std::abs(row(Jb)[j])});
      bool same = agree(c[static_cast<std::size_t>(k)], cb[static_cast<std::size_t>(k)]);
      for (int j = 0; j < d; ++j) same = same && std::abs(row(J)[j] - row(Jb)[j]) <= 1e-9 * largest;
      if (!same && ++mismatches <= 3) UNSCOPED_INFO(config << ", point " << l << ", constraint " << k);
    }
  }
  CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("the engineering built-ins' Jacobians equal their expression configs' symbolic ones",
          "[expression][parity]") {
  check_jacobian_parity<problems::PressureVessel<double>>("expr-engineering-pressure-vessel.yaml");
  check_jacobian_parity<problems::WeldedBeam<double>>("expr-engineering-welded-beam.yaml");
  check_jacobian_parity<problems::TensionCompressionSpring<double>>("expr-engineering-tension-compression-spring.yaml");
  check_jacobian_parity<problems::SpeedReducer<double>>("expr-engineering-speed-reducer.yaml");
  check_jacobian_parity<problems::ThreeBarTruss<double>>("expr-engineering-three-bar-truss.yaml");
}

TEST_CASE("expression configs equal their built-ins at 10,000 random points on every path", "[expression][parity]") {
  check_parity("expr-seed-constrained-quadratic.yaml", false, real_builtin<problems::ConstrainedQuadratic<double>>());
  check_parity("expr-seed-trig-constrained.yaml", false, real_builtin<problems::TrigConstrained<double>>());
  check_parity("expr-engineering-pressure-vessel.yaml", false, real_builtin<problems::PressureVessel<double>>());
  check_parity("expr-engineering-welded-beam.yaml", false, real_builtin<problems::WeldedBeam<double>>());
  check_parity("expr-engineering-tension-compression-spring.yaml", false,
               real_builtin<problems::TensionCompressionSpring<double>>());
  check_parity("expr-engineering-speed-reducer.yaml", false, real_builtin<problems::SpeedReducer<double>>());
  check_parity("expr-engineering-three-bar-truss.yaml", false, real_builtin<problems::ThreeBarTruss<double>>());
  // gene-sum: the built-in has int8 genes; compare at integer points.
  check_parity("expr-seed-gene-sum.yaml", true, [](const double* x) {
    std::vector<std::int8_t> genes(1000);
    for (std::size_t j = 0; j < genes.size(); ++j) genes[j] = static_cast<std::int8_t>(x[j]);
    return builtin_value(problems::GeneSum<double>{}, genes.data());
  });
}
