// The expression interpreter and the reference evaluator, on programs built
// by hand (independent of the parser): hand-computed values, the documented
// power/function/violation semantics, layouts, chunking, threads, and a
// property test against the reference over random expression trees.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fusedga/expr/interpreter.hpp>
#include <fusedga/expr/numpy_source.hpp>
#include <fusedga/expr/parse.hpp>

#include "expr/program_builder.hpp"
#include "expr/temp_cache.hpp"

using namespace fusedga::expr;
using namespace expr_test;

namespace {

/// The constrained quadratic: f = x^2 + 2y^2 + 3z^2 + 4xy − 5yz,
/// g1 = 3 − (x + y + z) <= 0, g2 = x^2 + z^2 − 10 <= 0.
builder quadratic() {
  builder b;
  const ex x = b.scalar("x"), y = b.scalar("y"), z = b.scalar("z");
  b.objective(pw(x, 2) + 2 * pw(y, 2) + 3 * pw(z, 2) + 4 * x * y - 5 * y * z);
  b.inequality(3 - (x + y + z));
  b.inequality(pw(x, 2) + pw(z, 2) - 10);
  return b;
}

double quadratic_by_hand(double x, double y, double z) {  // the same association as the tree above
  return x * x + 2 * (y * y) + 3 * (z * z) + 4 * x * y - 5 * y * z;
}

constexpr double qnan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("the quadratic: objective as written by hand, bit for bit, at any count", "[interpreter]") {
  const program p = quadratic().p;
  const auto e = make_interpreter<double>(p);
  for (int count : {1, 63, 64, 65, 200}) {
    const std::vector<double> rows = random_rows<double>(count, 3, -5, 5, 7u + static_cast<unsigned>(count));
    const outputs<double> o = run_rows(*e, rows, 3);
    for (int l = 0; l < count; ++l) {
      const double* x = &rows[static_cast<std::size_t>(3 * l)];
      INFO("count " << count << ", individual " << l);
      CHECK(o.objective[static_cast<std::size_t>(l)] == quadratic_by_hand(x[0], x[1], x[2]));
      CHECK(o.objective[static_cast<std::size_t>(l)] == Approx(reference_objective(p, x)).epsilon(1e-12));
      const double g1 = 3 - (x[0] + x[1] + x[2]), g2 = x[0] * x[0] + x[2] * x[2] - 10;
      CHECK(o.violation[static_cast<std::size_t>(l)] == (g1 <= 0 ? 0 : g1) + (g2 <= 0 ? 0 : g2));
    }
  }
}

TEST_CASE("violation: sum of max(0, g) and max(0, |h| - eps) in declaration order", "[interpreter]") {
  builder b = quadratic();
  const ex x{&b, 0}, y{&b, 1};  // the gene nodes of x and y (nodes 0 and 1)
  b.equality(x - y);            // |x - y| <= eps
  const program& p = b.p;
  const std::vector<double> rows = {0, 0, 0, 1, 1, 1, 4, 0, 2, 0.25, 0, 0, 0.75, 0, 0};
  const double expected[] = {
      3.0,          // g1 = 3, g2 = -10, h = 0
      0.0,          // g1 = 0 (satisfied at the boundary), g2 = -8, h = 0
      10.0 + 3.5,   // g1 = -3, g2 = 10, |h| - eps = 4 - 0.5
      2.75,         // g1 = 2.75, g2 < 0, |h| = 0.25 within eps
      2.25 + 0.25,  // g1 = 2.25, |h| - eps = 0.75 - 0.5
  };
  const auto d = make_interpreter<double>(p);
  const auto f = make_interpreter<float>(p);
  const outputs<double> od = run_rows<double>(*d, rows, 3, 0.5);
  const outputs<float> of = run_rows<float>(*f, std::vector<float>(rows.begin(), rows.end()), 3, 0.5f);
  for (std::size_t l = 0; l < 5; ++l) {
    INFO("individual " << l);
    CHECK(od.violation[l] == expected[l]);
    CHECK(of.violation[l] == static_cast<float>(expected[l]));
  }
  // The reference returns the raw values, before max and abs.
  CHECK(reference_constraint(p, 0, &rows[0]) == 3.0);
  CHECK(reference_constraint(p, 1, &rows[0]) == -10.0);
  CHECK(reference_constraint(p, 1, &rows[6]) == 10.0);
  CHECK(reference_constraint(p, 2, &rows[6]) == 4.0);
  CHECK(reference_constraint(p, 0, &rows[6]) == -3.0);
}

TEST_CASE("NaN propagates into the objective and the violation", "[interpreter]") {
  builder b;
  const ex x = b.scalar("x");
  const vec v = vector_variable(b, "v", 3);
  b.objective(fn(function::log, x) + fn(function::min, fn(function::sqrt, x), b.num(1)));
  b.inequality(fn(function::sqrt, x) - 1);
  b.inequality(red(reduction::max, 0, 0, 2, fn(function::sqrt, v[b.index(0)])) - 100);
  const program& p = b.p;
  const auto e = make_interpreter<double>(p);
  const std::vector<double> rows = {4, 1, 1, 1,     // log 4 + min(2, 1); g1 = 1; max sqrt = 1
                                    -1, 1, 1, 1,    // log(-1), sqrt(-1): NaN objective and g1
                                    4, 1, -1, 1};   // max over a NaN element: NaN g2
  const outputs<double> o = run_rows(*e, rows, 4);
  CHECK(o.objective[0] == Approx(std::log(4.0) + 1).epsilon(1e-15));
  CHECK(o.violation[0] == 1.0);
  CHECK(std::isnan(o.objective[1]));
  CHECK(std::isnan(o.violation[1]));
  CHECK(o.objective[2] == o.objective[0]);
  CHECK(std::isnan(o.violation[2]));
  for (int l = 0; l < 3; ++l) {
    const double* x = &rows[static_cast<std::size_t>(4 * l)];
    CHECK(close(o.objective[static_cast<std::size_t>(l)], reference_objective(p, x), 1e-15));
    CHECK(close(o.violation[static_cast<std::size_t>(l)], violation_of(p, x, 1e-4), 1e-15));
  }
}

TEST_CASE("min and max are NaN if either argument is NaN, else the smaller/larger", "[interpreter]") {
  builder b;
  const ex x = b.scalar("x"), y = b.scalar("y");
  b.objective(fn(function::min, x, y));
  b.inequality(fn(function::max, x, y));
  const program& p = b.p;
  const auto e = make_interpreter<double>(p);
  const std::vector<double> rows = {1, 2, 2, 1, qnan, 1, 1, qnan, -inf, 3};
  const outputs<double> o = run_rows(*e, rows, 2);
  CHECK(o.objective[0] == 1);
  CHECK(o.violation[0] == 2);
  CHECK(o.objective[1] == 1);
  CHECK(o.violation[1] == 2);
  CHECK(std::isnan(o.objective[2]));
  CHECK(std::isnan(o.violation[2]));
  CHECK(std::isnan(o.objective[3]));
  CHECK(std::isnan(o.violation[3]));
  CHECK(o.objective[4] == -inf);
  CHECK(o.violation[4] == 3);
  for (std::size_t l = 0; l < 5; ++l) CHECK(same(o.objective[l], reference_objective(p, &rows[2 * l])));
}

TEST_CASE("reductions: sum, prod, min, max, nested, x[i+1], x[2i], empty ranges", "[interpreter]") {
  const std::vector<double> v5 = {1, 2, 3, 4, 5};
  struct reduction_case {
    const char* what;
    std::function<ex(builder&, const vec&)> build;
    double expected;
  };
  const std::vector<reduction_case> cases = {
      {"sum(i=0:4, v[i]^2)", [](builder& b, const vec& v) { return red(reduction::sum, 0, 0, 4, pw(v[b.index(0)], 2)); }, 55},
      {"prod(i=0:3, v[i])", [](builder& b, const vec& v) { return red(reduction::prod, 0, 0, 3, v[b.index(0)]); }, 24},
      {"min(i=0:4, (v[i]-3)^2)", [](builder& b, const vec& v) { return red(reduction::min, 0, 0, 4, pw(v[b.index(0)] - 3, 2)); }, 0},
      {"max(i=0:4, (v[i]-3)^2)", [](builder& b, const vec& v) { return red(reduction::max, 0, 0, 4, pw(v[b.index(0)] - 3, 2)); }, 4},
      {"sum(i=0:3, v[i+1] - v[i])",
       [](builder& b, const vec& v) { return red(reduction::sum, 0, 0, 3, v[b.index(0) + b.num(1)] - v[b.index(0)]); }, 4},
      {"sum(i=0:2, v[2*i])", [](builder& b, const vec& v) { return red(reduction::sum, 0, 0, 2, v[b.num(2) * b.index(0)]); }, 9},
      {"sum(i=0:2, sum(j=i:3, v[j]*i))",
       [](builder& b, const vec& v) {
         return red(reduction::sum, 0, 0, 2, red(reduction::sum, 1, b.index(0), b.num(3), v[b.index(1)] * b.index(0)));
       },
       0 + (2 + 3 + 4) * 1 + (3 + 4) * 2},
      {"sum(i=0:4, sum(j=i+1:4, v[i]*v[j])) (empty inner range at i = 4)",
       [](builder& b, const vec& v) {
         return red(reduction::sum, 0, 0, 4,
                    red(reduction::sum, 1, b.index(0) + 1, b.num(4), v[b.index(0)] * v[b.index(1)]));
       },
       (15.0 * 15.0 - 55.0) / 2},
      {"sum(i=0:4, prod(j=i+1:4, v[j])) (empty prod = 1)",
       [](builder& b, const vec& v) {
         return red(reduction::sum, 0, 0, 4, red(reduction::prod, 1, b.index(0) + 1, b.num(4), v[b.index(1)]));
       },
       120 + 60 + 20 + 5 + 1},
      {"min(i=0:4, max(j=i+1:4, v[j])) (empty max = -inf)",
       [](builder& b, const vec& v) {
         return red(reduction::min, 0, 0, 4, red(reduction::max, 1, b.index(0) + 1, b.num(4), v[b.index(1)]));
       },
       -inf},
      {"max(i=0:4, min(j=i+1:4, v[j])) (empty min = +inf)",
       [](builder& b, const vec& v) {
         return red(reduction::max, 0, 0, 4, red(reduction::min, 1, b.index(0) + 1, b.num(4), v[b.index(1)]));
       },
       inf},
      {"sum(i=1:3, i) * v[0] (gene-free reduction)",
       [](builder& b, const vec& v) { return red(reduction::sum, 0, 1, 3, b.index(0)) * v[0]; }, 6},
      {"sum(i=0:3, v[1]^i) (index exponent: std::pow)",
       [](builder& b, const vec& v) { return red(reduction::sum, 0, 0, 3, pw(v[1], b.index(0))); }, 1 + 2 + 4 + 8},
      {"sum(i=0:4, (i - 2) * v[4 - i])",
       [](builder& b, const vec& v) {
         return red(reduction::sum, 0, 0, 4, (b.index(0) - 2) * v[b.num(4) - b.index(0)]);
       },
       -2 * 5 - 1 * 4 + 0 + 1 * 2 + 2 * 1},
  };
  for (const reduction_case& c : cases) {
    INFO(c.what);
    builder b;
    const vec v = vector_variable(b, "v", 5);
    b.objective(c.build(b, v));
    const auto d = make_interpreter<double>(b.p);
    const auto f = make_interpreter<float>(b.p);
    CHECK(run_rows<double>(*d, v5, 5).objective[0] == c.expected);
    CHECK(run_rows<float>(*f, std::vector<float>(v5.begin(), v5.end()), 5).objective[0] == static_cast<float>(c.expected));
    CHECK(reference_objective(b.p, v5.data()) == c.expected);
  }
}

TEST_CASE("powers: small integer literals multiply, 0.5 is sqrt, the rest std::pow", "[interpreter]") {
  const std::vector<double> xs = random_rows<double>(100, 1, 0.1, 3, 11);
  struct power_case {
    double exponent;
    std::function<double(double)> expected;
    bool exact;
  };
  const std::vector<power_case> cases = {
      {0, [](double x) { return 0 * x + 1; }, true},
      {1, [](double x) { return x; }, true},
      {2, [](double x) { return x * x; }, true},
      {3, [](double x) { return x * x * x; }, true},
      {5, [](double x) { return x * x * x * x * x; }, true},
      {-1, [](double x) { return 1 / x; }, true},
      {-3, [](double x) { return 1 / (x * x * x); }, true},
      {16, [](double x) { double r = x; for (int k = 1; k < 16; ++k) r = r * x; return r; }, true},
      {-16, [](double x) { double r = x; for (int k = 1; k < 16; ++k) r = r * x; return 1 / r; }, true},
      {0.5, [](double x) { return std::sqrt(x); }, true},
      {17, [](double x) { return std::pow(x, 17.0); }, false},
      {1.5, [](double x) { return std::pow(x, 1.5); }, false},
      {-0.5, [](double x) { return std::pow(x, -0.5); }, false},
  };
  for (const power_case& c : cases) {
    INFO("x^" << c.exponent);
    builder b;
    const ex x = b.scalar("x");
    b.objective(pw(x, c.exponent));
    const auto e = make_interpreter<double>(b.p);
    const outputs<double> o = run_rows(*e, xs, 1);
    for (std::size_t l = 0; l < xs.size(); ++l) {
      if (c.exact)
        CHECK(o.objective[l] == c.expected(xs[l]));
      else
        CHECK(o.objective[l] == Approx(c.expected(xs[l])).epsilon(1e-14));
      CHECK(reference_objective(b.p, &xs[l]) == std::pow(xs[l], c.exponent));
    }
  }
  // NaN^0 = 1, as std::pow; a uniform base with a varying exponent uses std::pow.
  builder b;
  const ex x = b.scalar("x");
  b.objective(pw(x, 0.0) + pw(b.num(2), x));
  const auto e = make_interpreter<double>(b.p);
  const std::vector<double> rows = {qnan, 3};
  const outputs<double> o = run_rows(*e, rows, 1);
  CHECK(std::isnan(o.objective[0]));  // 1 + 2^NaN
  CHECK(o.objective[1] == Approx(1 + 8).epsilon(1e-15));
}

TEST_CASE("every function matches its std:: counterpart", "[interpreter]") {
  struct function_case {
    function f;
    double lo, hi;
    std::function<double(double, double)> expected;
  };
  const std::vector<function_case> cases = {
      {function::sin, -10, 10, [](double a, double) { return std::sin(a); }},
      {function::cos, -10, 10, [](double a, double) { return std::cos(a); }},
      {function::tan, -1.5, 1.5, [](double a, double) { return std::tan(a); }},
      {function::asin, -1, 1, [](double a, double) { return std::asin(a); }},
      {function::acos, -1, 1, [](double a, double) { return std::acos(a); }},
      {function::atan, -10, 10, [](double a, double) { return std::atan(a); }},
      {function::exp, -10, 10, [](double a, double) { return std::exp(a); }},
      {function::log, 0.01, 100, [](double a, double) { return std::log(a); }},
      {function::log10, 0.01, 100, [](double a, double) { return std::log10(a); }},
      {function::sqrt, 0, 100, [](double a, double) { return std::sqrt(a); }},
      {function::abs, -10, 10, [](double a, double) { return std::fabs(a); }},
      {function::floor, -10, 10, [](double a, double) { return std::floor(a); }},
      {function::ceil, -10, 10, [](double a, double) { return std::ceil(a); }},
      {function::min, -10, 10, [](double a, double b) { return std::min(a, b); }},
      {function::max, -10, 10, [](double a, double b) { return std::max(a, b); }},
      {function::atan2, -10, 10, [](double a, double b) { return std::atan2(a, b); }},
  };
  for (const function_case& c : cases) {
    builder b;
    const ex x = b.scalar("x"), y = b.scalar("y");
    const bool two = c.f == function::min || c.f == function::max || c.f == function::atan2;
    b.objective(two ? fn(c.f, x, y) : fn(c.f, x));
    const std::vector<double> rows = random_rows<double>(130, 2, c.lo, c.hi, 5);
    const auto d = make_interpreter<double>(b.p);
    const auto f = make_interpreter<float>(b.p);
    const outputs<double> od = run_rows(*d, rows, 2);
    const outputs<float> of = run_rows<float>(*f, std::vector<float>(rows.begin(), rows.end()), 2);
    for (std::size_t l = 0; l < 130; ++l) {
      const double want = c.expected(rows[2 * l], rows[2 * l + 1]);
      INFO("function " << static_cast<int>(c.f) << " at " << rows[2 * l] << ", " << rows[2 * l + 1]);
      CHECK(od.objective[l] == Approx(want).epsilon(1e-14).margin(1e-15));  // libmvec: within a few ulp
      CHECK(of.objective[l] == Approx(want).epsilon(1e-6).margin(1e-6));
      CHECK(reference_objective(b.p, &rows[2 * l]) == want);
    }
  }
}

TEST_CASE("rows and SoA layouts, and any chunking, give identical results", "[interpreter]") {
  builder b;
  const ex x = b.scalar("x");
  const vec v = vector_variable(b, "v", 6);
  const ex i = b.index(0), j = b.index(1);
  b.objective(fn(function::sin, x) * red(reduction::sum, 0, 0, 4, v[i + 1] * fn(function::exp, v[i] / 10)) +
              red(reduction::max, 0, 0, 5, red(reduction::sum, 1, i, b.num(5), pw(v[j] - x, 2))));
  b.inequality(pw(x, 3) - v[0]);
  b.equality(fn(function::atan2, v[2], x) - 0.5);
  const program& p = b.p;
  const int d = p.dimension();
  for (int count : {1, 63, 64, 65, 200}) {
    INFO("count " << count);
    const std::vector<double> rows = random_rows<double>(count, d, -3, 3, 3u * static_cast<unsigned>(count));
    const auto e = make_interpreter<double>(p);
    const outputs<double> r = run_rows(*e, rows, d), s = run_soa(*e, rows, d);
    for (int l = 0; l < count; ++l) {
      const auto u = static_cast<std::size_t>(l);
      CHECK(same(r.objective[u], s.objective[u]));
      CHECK(same(r.violation[u], s.violation[u]));
      // One individual at a time: same lane code, same bits.
      const std::vector<double> one(rows.begin() + l * d, rows.begin() + (l + 1) * d);
      const outputs<double> alone = run_rows(*e, one, d);
      CHECK(same(r.objective[u], alone.objective[0]));
      CHECK(same(r.violation[u], alone.violation[0]));
      CHECK(close(r.objective[u], reference_objective(p, &rows[u * static_cast<std::size_t>(d)]), 1e-12));
      CHECK(close(r.violation[u], violation_of(p, &rows[u * static_cast<std::size_t>(d)], 1e-4), 1e-12));
    }
  }
}

TEST_CASE("more than 32 genes: gene reads that share a cache slot stay distinct", "[interpreter]") {
  builder b;
  const vec v = vector_variable(b, "v", 100);
  const ex i = b.index(0);
  // v[i] and v[i+32] map to the same cache slot in the same instruction.
  b.objective(red(reduction::sum, 0, 0, 67, v[i] * v[i + 32]) + red(reduction::sum, 0, 0, 35, v[i + 64] - v[i]) +
              v[3] * v[3] + v[3] - v[35]);
  b.inequality(red(reduction::max, 0, 0, 99, v[i]) - v[99] * v[67]);
  const program& p = b.p;
  const auto e = make_interpreter<double>(p);
  for (int count : {64, 130}) {
    const std::vector<double> rows = random_rows<double>(count, 100, -2, 2, 17);
    const outputs<double> r = run_rows(*e, rows, 100), s = run_soa(*e, rows, 100);
    for (std::size_t l = 0; l < static_cast<std::size_t>(count); ++l) {
      CHECK(close(r.objective[l], reference_objective(p, &rows[100 * l]), 1e-12));
      CHECK(close(r.violation[l], violation_of(p, &rows[100 * l], 1e-4), 1e-12));
      CHECK(same(r.objective[l], s.objective[l]));
    }
  }
}

TEST_CASE("uniform roots, count 0, and a malformed program", "[interpreter]") {
  builder b;
  const ex x = b.scalar("x");
  b.objective(b.num(5));
  b.inequality(b.num(1) - 2);                                   // 1 <= 2: satisfied
  b.inequality(b.num(3) - 2);                                   // 3 <= 2: violated by 1
  b.equality(red(reduction::sum, 0, 1, 3, b.index(0)) - 6.25);  // |6 - 6.25| - eps
  b.inequality(x - 100);
  const auto e = make_interpreter<double>(b.p);
  const outputs<double> o = run_rows<double>(*e, {1, 2, 3}, 1, 0.125);
  for (std::size_t l = 0; l < 3; ++l) {
    CHECK(o.objective[l] == 5);
    CHECK(o.violation[l] == 1 + 0.125);
  }
  double obj = -1, vio = -1;
  e->evaluate(nullptr, 1, 1, 0, 0.0, &obj, &vio);
  CHECK(obj == -1);
  CHECK(vio == -1);

  builder bad;
  bad.scalar("x");
  CHECK_THROWS_AS(make_interpreter<double>(bad.p), std::invalid_argument);  // no objective
  bad.objective(bad.index(0) * ex{&bad, 0});
  CHECK_THROWS_AS(make_interpreter<double>(bad.p), std::invalid_argument);  // an index variable outside any reduction
}

TEST_CASE("concurrent evaluate calls on one interpreter give identical results", "[interpreter]") {
  builder b;
  const vec v = vector_variable(b, "v", 40);
  const ex i = b.index(0), j = b.index(1);
  b.objective(red(reduction::sum, 0, 0, 38, pw(v[i + 1] - pw(v[i], 2), 2) * 100 + pw(1 - v[i], 2)));
  b.inequality(red(reduction::sum, 0, 0, 9, red(reduction::prod, 1, i, b.num(9), fn(function::cos, v[j]))) - 1);
  b.equality(fn(function::sin, v[0]) - v[39]);
  const program& p = b.p;
  const auto e = make_interpreter<double>(p);
  const auto ef = make_interpreter<float>(p);
  const std::vector<double> rows = random_rows<double>(3001, 40, -2, 2, 23);
  const std::vector<float> rows_f(rows.begin(), rows.end());
  const outputs<double> serial = run_rows(*e, rows, 40);
  const outputs<float> serial_f = run_rows(*ef, rows_f, 40);
  std::vector<outputs<double>> results(4);
  std::vector<outputs<float>> results_f(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int repeat = 0; repeat < 5; ++repeat) {
        results[t] = t % 2 ? run_soa(*e, rows, 40) : run_rows(*e, rows, 40);
        results_f[t] = run_rows(*ef, rows_f, 40);
      }
    });
  for (std::thread& t : threads) t.join();
  for (std::size_t t = 0; t < 4; ++t)
    for (std::size_t l = 0; l < rows.size() / 40; ++l) {
      CHECK(same(results[t].objective[l], serial.objective[l]));
      CHECK(same(results[t].violation[l], serial.violation[l]));
      CHECK(same(results_f[t].objective[l], serial_f.objective[l]));
      CHECK(same(results_f[t].violation[l], serial_f.violation[l]));
    }
}


TEST_CASE("random expression trees: interpreter (double, float) agrees with the reference", "[interpreter]") {
  int float_outliers = 0, with_lookups = 0;
  for (unsigned seed = 1; seed <= 150; ++seed) {
    random_tree t(seed);
    t.b.objective(t.gen(5, 0));
    t.b.inequality(t.gen(4, 0));
    t.b.equality(t.gen(3, 0));
    const program& p = t.b.p;
    with_lookups += std::any_of(p.nodes.begin(), p.nodes.end(), [](const node& n) { return n.kind == node_kind::lookup; });
    const int d = p.dimension();
    const int count = 70;
    const std::vector<double> rows = random_rows<double>(count, d, -2, 2, 1000 + seed);
    const auto ed = make_interpreter<double>(p);
    const auto ef = make_interpreter<float>(p);
    const outputs<double> od = run_rows(*ed, rows, d, 0.25);
    const outputs<float> of = run_rows<float>(*ef, std::vector<float>(rows.begin(), rows.end()), d, 0.25f);
    const outputs<double> os = run_soa(*ed, rows, d, 0.25);
    for (int l = 0; l < count; ++l) {
      const auto u = static_cast<std::size_t>(l);
      const double* x = &rows[u * static_cast<std::size_t>(d)];
      const double obj = reference_objective(p, x), vio = violation_of(p, x, 0.25);
      INFO("seed " << seed << ", individual " << l << ": reference " << obj << ", " << vio);
      CHECK(close(od.objective[u], obj, 1e-12));
      CHECK(close(od.violation[u], vio, 1e-12));
      CHECK(same(od.objective[u], os.objective[u]));
      CHECK(same(od.violation[u], os.violation[u]));
      // float: floor/ceil/min/max may flip where a float argument crosses a
      // discontinuity; count such outliers instead of failing on them.
      const bool fo = close(of.objective[u], obj, 1e-4), fv = close(of.violation[u], vio, 1e-4);
      if (!fo || !fv) ++float_outliers;
    }
  }
  INFO("float outliers: " << float_outliers << " of " << 150 * 70);
  CHECK(float_outliers <= 10);
  CHECK(with_lookups >= 10);  // the trees do exercise table lookups
}

// --- programs from the parser ---

TEST_CASE("parsed: the quadratic as written by hand, and its violation", "[interpreter]") {
  const std::vector<variable_decl> xyz = {declared("x", 1, -5, 5), declared("y", 1, -5, 5), declared("z", 1, -5, 5)};
  const program p = parsed(xyz, "x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z", {"x + y + z >= 3", "x^2 + z^2 <= 10"});
  const auto e = make_interpreter<double>(p);
  const std::vector<double> rows = random_rows<double>(150, 3, -5, 5, 99);
  const outputs<double> o = run_rows(*e, rows, 3);
  for (std::size_t l = 0; l < 150; ++l) {
    const double x = rows[3 * l], y = rows[3 * l + 1], z = rows[3 * l + 2];
    CHECK(o.objective[l] == quadratic_by_hand(x, y, z));
    const double g1 = 3 - (x + y + z), g2 = x * x + z * z - 10;  // normalized: rhs − lhs for >=, lhs − rhs for <=
    CHECK(o.violation[l] == (g1 <= 0 ? 0 : g1) + (g2 <= 0 ? 0 : g2));
  }
}

TEST_CASE("parsed: reductions, index expressions and literal powers", "[interpreter]") {
  const std::vector<variable_decl> vars = {declared("x", 1, -5, 5), declared("v", 5, -10, 10)};
  const std::vector<double> row = {2, 1, 2, 3, 4, 5};  // x = 2, v = 1..5
  struct parsed_case {
    const char* text;
    double expected;
  };
  const parsed_case cases[] = {
      {"sum(i=0:3, v[i+1] - v[i])", 4},
      {"sum(i=0:4, sum(j=i+1:4, v[i]*v[j]))", 85},
      {"prod(i=1:3, v[i-1])", 6},
      {"max(i=0:4, -(v[i]-3)^2)", 0},
      {"min(i=0:4, -v[i]^2)", -25},
      {"sum(i=0:2, v[2*i]) + sum(i=0:1, sum(j=i:i+2, v[j+i]))", 9 + (1 + 2 + 3) + (3 + 4 + 5)},
      {"x^-2", 0.25},
      {"x^3 - x**2 + pow(x, 0.5)^2", 8 - 4 + 2.0000000000000004},  // sqrt(2)^2 as rounded
      {"max(x, v[4]) + min(x, v[0]) + atan2(0, x)", 5 + 1 + 0},
  };
  for (const parsed_case& c : cases) {
    INFO(c.text);
    const program p = parsed(vars, c.text);
    const auto e = make_interpreter<double>(p);
    CHECK(run_rows(*e, row, 6).objective[0] == c.expected);
    CHECK(reference_objective(p, row.data()) == Approx(c.expected).epsilon(1e-15));
  }
  // Negative literal exponents multiply like positive ones (x^-3 = 1/(x·x·x)), as documented, up to |n| = 32;
  // beyond it std::pow.
  const program p = parsed(vars, "x^-3 + x^32");
  const program beyond = parsed(vars, "x^33");
  const auto e = make_interpreter<double>(p);
  const std::vector<double> rows = random_rows<double>(70, 6, 0.5, 1.5, 3);
  const outputs<double> o = run_rows(*e, rows, 6);
  const outputs<double> o33 = run_rows(*make_interpreter<double>(beyond), rows, 6);
  for (std::size_t l = 0; l < 70; ++l) {
    const double x = rows[6 * l];
    double x32 = x;
    for (int k = 1; k < 32; ++k) x32 = x32 * x;
    CHECK(o.objective[l] == 1 / (x * x * x) + x32);
    CHECK(o33.objective[l] == Approx(std::pow(x, 33.0)).epsilon(1e-15));
  }
}

TEST_CASE("random trees printed and parsed back evaluate to the same bits", "[interpreter]") {
  const std::vector<variable_decl> vars = {declared("a", 1, -2, 2), declared("b", 1, -2, 2), declared("v", 8, -2, 2)};
  for (unsigned seed = 1; seed <= 60; ++seed) {
    random_tree t(seed);
    t.b.objective(t.gen(5, 0));
    t.b.inequality(t.gen(4, 0));
    t.b.equality(t.gen(3, 0));
    const program& built = t.b.p;
    const std::string objective = to_string(built, built.objective);
    // "+ 0*a": a random constraint may read no variable, which the parser refuses; adding ±0 changes no violation
    const program p = parsed(vars, objective,
                             {to_string(built, built.constraints[0].root) + " + 0*a <= 0",
                              to_string(built, built.constraints[1].root) + " + 0*a == 0"},
                             fusedga::Sense::minimize, {declared_table("T", random_tree_table)});
    INFO("seed " << seed << ": " << objective);
    const std::vector<double> rows = random_rows<double>(65, 10, -2, 2, 500 + seed);
    const auto e1 = make_interpreter<double>(built);
    const auto e2 = make_interpreter<double>(p);
    const outputs<double> o1 = run_rows(*e1, rows, 10, 0.25), o2 = run_rows(*e2, rows, 10, 0.25);
    for (std::size_t l = 0; l < 65; ++l) {
      CHECK(same(o1.objective[l], o2.objective[l]));
      CHECK(same(o1.violation[l], o2.violation[l]));
    }
  }
}

// --- table constants ---

TEST_CASE("table lookups: entry floor(e + 0.5), NaN outside the table or for NaN, as the reference", "[interpreter][table]") {
  const program p = parsed({declared("x", 1, -1, 4)}, "P[x]", {}, fusedga::Sense::minimize, {declared_table("P", wire_table)});
  std::vector<double> rows;
  for (const lookup_case& c : lookup_cases()) rows.push_back(c.index);
  const outputs<double> od = run_rows(*make_interpreter<double>(p), rows, 1);
  const outputs<float> of = run_rows(*make_interpreter<float>(p), std::vector<float>(rows.begin(), rows.end()), 1);
  for (std::size_t l = 0; l < rows.size(); ++l) {
    const lookup_case c = lookup_cases()[l];
    INFO("P[" << c.index << "]");
    CHECK(same(od.objective[l], c.expected));
    CHECK(same(reference_objective(p, &rows[l]), c.expected));
    if (c.index != 1.4999999 && c.index != 2.0000001)  // in float these indices are other numbers
      CHECK(same(of.objective[l], static_cast<float>(c.expected)));
  }
}

TEST_CASE("table lookups of genes, of index variables and of literals, in objective and constraints, equal the reference",
          "[interpreter][table]") {
  const program p = table_program();
  const int d = p.dimension();
  const std::vector<double> rows = table_rows(100);
  const int count = static_cast<int>(rows.size()) / d;
  const outputs<double> o = run_rows(*make_interpreter<double>(p), rows, d, 0.25);
  const outputs<double> s = run_soa(*make_interpreter<double>(p), rows, d, 0.25);
  int nan_objectives = 0, nan_violations = 0;
  for (int l = 0; l < count; ++l) {
    const auto u = static_cast<std::size_t>(l);
    const double* x = &rows[u * static_cast<std::size_t>(d)];
    INFO("individual " << l << ": x " << x[0] << ", y " << x[1] << ", v " << x[2] << " " << x[3] << " " << x[4]);
    CHECK(same(o.objective[u], reference_objective(p, x)));
    CHECK(same(o.violation[u], violation_of(p, x, 0.25)));
    CHECK(same(s.objective[u], o.objective[u]));
    CHECK(same(s.violation[u], o.violation[u]));
    nan_objectives += std::isnan(o.objective[u]);
    nan_violations += std::isnan(o.violation[u]);
  }
  CHECK(nan_objectives > 0);  // out-of-range indices do reach the results
  CHECK(nan_objectives < count);
  CHECK(nan_violations > 0);
  // One row by hand: x = 1.5, y = 0.5, v = (0.4, -0.6, 1.2): P[1.5] + P[0.4]*Q[0] + P[0.4]*Q[0.5] + P[3.2]*Q[1] - P[2]
  // = 8.255 - 3.175 + 2*3.175 + 2*12.7 - 8.255; g1 = P[0.5]*0.5 - 20 < 0; h = Q[1] - 2 = 0.
  const std::vector<double> row = {1.5, 0.5, 0.4, -0.6, 1.2};
  const outputs<double> one = run_rows(*make_interpreter<double>(p), row, d, 0.25);
  CHECK(one.objective[0] == Approx(8.255 - 3.175 + 2 * 3.175 + 2 * 12.7 - 8.255).epsilon(1e-15));
  CHECK(one.violation[0] == 0);
}

TEST_CASE("table lookups: the NumPy export equals the reference evaluator", "[interpreter][table][numpy]") {
  if (std::system("python3 -c 'import numpy' >/dev/null 2>&1") != 0) {
    WARN("skipped: python3 with numpy not found");
    return;
  }
  const program p = table_program();
  const int d = p.dimension();
  const std::vector<double> rows = table_rows(20);
  const int count = static_cast<int>(rows.size()) / d;
  const temp_cache dir;
  std::filesystem::create_directories(dir.path);
  const std::filesystem::path module = dir.path / "problem.py", script = dir.path / "run.py";
  std::ofstream(module) << generate_numpy_source(p);
  // The rows as float.hex text, so the module sees exactly these doubles; results printed the same way.
  std::ostringstream s;
  s << "import importlib.util\nspec = importlib.util.spec_from_file_location('m', '" << module.string() << "')\n"
    << "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\nrows = [";
  for (int l = 0; l < count; ++l) {
    s << "[";
    for (int j = 0; j < d; ++j) s << "float.fromhex('" << std::hexfloat << rows[static_cast<std::size_t>(l * d + j)] << "'),";
    s << "],";
  }
  s << "]\nf, G, H = m.evaluate(rows)\nfor i in range(len(rows)):\n"
    << "    print(float(f[i]).hex(), float(G[i, 0]).hex(), float(H[i, 0]).hex())\n";
  std::ofstream(script) << s.str();
  FILE* pipe = ::popen(("python3 " + script.string() + " 2>&1").c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  ::pclose(pipe);
  INFO(out);
  std::istringstream values(out);
  for (int l = 0; l < count; ++l) {
    const double* x = &rows[static_cast<std::size_t>(l * d)];
    std::string f, g, h;
    REQUIRE(values >> f >> g >> h);
    INFO("individual " << l);
    CHECK(same(std::strtod(f.c_str(), nullptr), reference_objective(p, x)));
    CHECK(same(std::strtod(g.c_str(), nullptr), reference_constraint(p, 0, x)));
    CHECK(same(std::strtod(h.c_str(), nullptr), reference_constraint(p, 1, x)));
  }
}
