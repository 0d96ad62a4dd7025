// Symbolic constraint Jacobians (derivative.hpp): every derivative rule
// against central finite differences at random points, hand-computed cases,
// the chosen subgradients, structural zeros, and the tape interpreter, the
// CPU JIT and the GPU JIT's CUDA source (built for the host) agreeing bitwise.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <fusedga/expr/derivative.hpp>
#include <fusedga/expr/interpreter.hpp>
#include <fusedga/expr/jacobian_evaluator.hpp>
#include <fusedga/expr/parse.hpp>

#include "expr/subprocess.hpp"
#include "expr/temp_cache.hpp"

using namespace fusedga;
using namespace fusedga::expr;

namespace {

/// The table constant T of the lookup tests.
constant_decl table_t() { return {"T", 0, "problem.constants.T", {}, std::vector<double>{0.5, 1.5, 2.5, 4}}; }

/// A program with scalars x, y, z in [lo, hi], a vector v of 6 genes, the table T, and the given constraints.
program make_program(const std::vector<std::string>& constraints, double lo = 0.2, double hi = 0.8) {
  problem_source src;
  src.file = "test";
  src.constants = {table_t()};
  for (const char* name : {"x", "y", "z"}) {
    variable_decl v;
    v.name = name;
    v.lower = {lo};
    v.upper = {hi};
    v.key_path = std::string("problem.variables.") + name;
    src.variables.push_back(v);
  }
  variable_decl v;
  v.name = "v";
  v.size = 6;
  v.vector = true;
  v.lower.assign(6, lo);
  v.upper.assign(6, hi);
  v.key_path = "problem.variables.v";
  src.variables.push_back(v);
  src.objective = {"x", "problem.objective", {}};
  for (std::size_t k = 0; k < constraints.size(); ++k)
    src.constraints.push_back({constraints[k], "problem.constraints[" + std::to_string(k) + "]", {}});
  return parse_program(src);
}

/// The raw value of row k of the tape's order (inequalities first, then equalities) by the reference evaluator.
double row_value(const program& p, const jacobian_tape& t, int k, const std::vector<double>& x) {
  return reference_constraint(p, t.source[static_cast<std::size_t>(k)], x.data());
}

std::vector<double> random_point(std::mt19937_64& rng, int d, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> x(static_cast<std::size_t>(d));
  for (double& v : x) v = u(rng);
  return x;
}

}  // namespace

TEST_CASE("derivative: every rule matches central differences at random points", "[derivative]") {
  // Every function of the grammar, literal and general powers, division, and every reduction (nested, x[i+1]).
  const std::vector<std::string> rules = {
      "sin(x) * cos(y) + tan(z) <= 0",
      "asin(x) - acos(y) + atan(z * 3) <= 0",
      "exp(x * y) + log(z) + log10(x + y) <= 1",
      "sqrt(x * y + z) + abs(x - 0.5 * y) <= 2",
      "floor(3 * x) + ceil(2 * y) + x * z <= 5",
      "min(x, y * z) + max(sin(x), cos(z)) == 0.3",
      "atan2(y - 0.5, x - 0.45) <= 0",
      "x^3 + y^-2 + z^0.5 + x^0 + pow(y, 1.7) <= 10",
      "y^x + x^(y * z) + 2^z <= 4",
      "x / (y + z) - (x * y) / z^2 == 0",
      "sum(i=0:5, v[i]^2) + prod(i=0:2, v[i] + x) <= 3",
      "min(i=0:5, v[i] * x) + max(i=1:5, v[i] - v[i-1]) <= 1",
      "sum(i=0:4, sum(j=i:4, v[j] * v[i+1])) == 1",
      "-x + -(y * -z) + (x - x * 0) * 1 <= 0",
  };
  const program p = make_program(rules);
  const jacobian_tape t = build_jacobian(p);
  const int d = p.dimension(), m = t.constraint_count();
  REQUIRE(m == static_cast<int>(rules.size()));
  REQUIRE(t.inequality_count == p.inequality_count());
  const auto interp = make_jacobian_interpreter<double>(t);
  std::mt19937_64 rng(7);
  std::vector<double> c(static_cast<std::size_t>(m)), J(static_cast<std::size_t>(m * d));
  for (int trial = 0; trial < 200; ++trial) {
    const std::vector<double> x = random_point(rng, d, 0.25, 0.75);
    interp->evaluate(x.data(), c.data(), J.data());
    for (int k = 0; k < m; ++k) {
      INFO("constraint " << rules[static_cast<std::size_t>(t.source[static_cast<std::size_t>(k)])]);
      REQUIRE(c[static_cast<std::size_t>(k)] == Approx(row_value(p, t, k, x)).epsilon(1e-12).margin(1e-12));
      for (int j = 0; j < d; ++j) {
        const double h = 1e-6;
        std::vector<double> xp = x, xm = x;
        xp[static_cast<std::size_t>(j)] += h;
        xm[static_cast<std::size_t>(j)] -= h;
        const double fd = (row_value(p, t, k, xp) - row_value(p, t, k, xm)) / (2 * h);
        const double fp = row_value(p, t, k, xp), fm = row_value(p, t, k, xm), f0 = row_value(p, t, k, x);
        // floor/ceil jump, or a min/max switching branches, inside [x - h, x + h]: no derivative to compare with
        if (std::abs((fp - f0) - (f0 - fm)) > 1e-5) continue;
        INFO("gene " << j << " at trial " << trial);
        REQUIRE(J[static_cast<std::size_t>(k * d + j)] == Approx(fd).epsilon(1e-5).margin(1e-6));
      }
    }
  }
}

TEST_CASE("derivative: hand-computed Jacobians and structural zeros", "[derivative]") {
  const program p = make_program({"x * y >= 3", "x^2 + y^2 == 1", "sum(i=0:3, v[i]^2) <= 1"}, -2, 2);
  const jacobian_tape t = build_jacobian(p);
  const int d = p.dimension();
  REQUIRE(d == 9);
  // rows: g1 = 3 - x·y, g2 = Σ v_i², h1 = x² + y² − 1
  const auto J = [&](int k, int j) { return t.jacobian[static_cast<std::size_t>(k * d + j)]; };
  for (int j : {2, 7, 8}) REQUIRE(J(1, j) == -1);  // z, v[4], v[5]: identically zero
  REQUIRE(J(0, 2) == -1);
  REQUIRE(J(2, 3) == -1);
  const auto interp = make_jacobian_interpreter<double>(t);
  std::vector<double> x = {1.5, -0.5, 0.25, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  std::vector<double> c(3), g(27);
  interp->evaluate(x.data(), c.data(), g.data());
  CHECK(c[0] == 3 - 1.5 * -0.5);
  CHECK(c[1] == Approx(0.01 + 0.04 + 0.09 + 0.16 - 1));
  CHECK(c[2] == 1.5 * 1.5 + 0.25 - 1);
  CHECK(g[0] == 0.5);    // ∂g1/∂x = −y
  CHECK(g[1] == -1.5);   // ∂g1/∂y = −x
  CHECK(g[9 + 3] == 0.2);  // ∂g2/∂v0 = 2 v0
  CHECK(g[9 + 6] == 0.8);
  CHECK(g[9 + 7] == 0);
  CHECK(g[18 + 0] == 3.0);  // ∂h1/∂x = 2x
  CHECK(g[18 + 1] == -1.0);
}

TEST_CASE("derivative: a gene past the tape's length, a^b at a = 0, negative zero in the source", "[derivative]") {
  // v[5] is gene 8 of 9, beyond the tape's 3 entries: its derivative is read from the gene, not from entry 8.
  const jacobian_tape one = build_jacobian(make_program({"v[5] <= 1"}));
  std::vector<double> x(9, 0.5), c(1), J(9);
  make_jacobian_interpreter<double>(one)->evaluate(x.data(), c.data(), J.data());
  CHECK(c[0] == 0.5 - 1);
  for (int j = 0; j < 9; ++j) CHECK(J[static_cast<std::size_t>(j)] == (j == 8 ? 1 : 0));
  // a^b through pow (a literal that is not an integer, an integer above 32, a variable exponent) at a = 0:
  // b·a^(b−1)·a' is 0 there, where a^b·b·a'/a was 0·∞ = NaN.
  const program p = make_program({"x^1.5 + y^40 + z^33 <= 1", "(v[0] - 0.5)^2.5 + v[0]^33 <= 1", "x^(y + 2) <= 1"});
  const jacobian_tape t = build_jacobian(p);
  const int d = p.dimension();
  std::vector<double> at(static_cast<std::size_t>(d), 0.0), g(3), K(static_cast<std::size_t>(3 * d));
  at[3] = 0.5;  // v[0]
  make_jacobian_interpreter<double>(t)->evaluate(at.data(), g.data(), K.data());
  for (int j = 0; j < 3; ++j) CHECK(K[static_cast<std::size_t>(j)] == 0);  // 1.5·0^0.5, 40·0^39, 33·0^32
  CHECK(K[static_cast<std::size_t>(d + 3)] == 33 * std::pow(0.5, 32));     // 2.5·0^1.5 + 33·0.5^32
  CHECK(K[static_cast<std::size_t>(2 * d)] == 0);                          // (y + 2)·x^(y + 1)
  CHECK(std::isnan(K[static_cast<std::size_t>(2 * d + 1)]));               // x^(y+2)·log x: documented NaN
  // A folded −0 (0·(−1)) is written as a floating literal: "R(-0)" would be +0, and atan2(±0, x < 0) = ±π.
  const std::string source =
      generate_jacobian_source(build_jacobian(make_program({"atan2(0 * (-1), x) <= 1"})), "double", "device", "f");
  CHECK(source.find("R(-0.0)") != std::string::npos);
  CHECK(source.find("R(-0)") == std::string::npos);
}

TEST_CASE("derivative: documented subgradients at kinks", "[derivative]") {
  const program p = make_program({"abs(x) <= 1", "min(x, y) <= 1", "max(x, y) <= 1", "floor(x) + ceil(y) <= 9"}, -1, 1);
  const jacobian_tape t = build_jacobian(p);
  const auto interp = make_jacobian_interpreter<double>(t);
  const int d = p.dimension();
  std::vector<double> x(static_cast<std::size_t>(d), 0.0), c(4), J(static_cast<std::size_t>(4 * d));
  interp->evaluate(x.data(), c.data(), J.data());  // x = y = 0: the kink of abs, a tie of min and max
  CHECK(J[0] == 0);                                // abs'(0) = sign(0) = 0
  CHECK(J[static_cast<std::size_t>(d) + 0] == 0);  // min(x, y) at a tie: the second argument's gradient
  CHECK(J[static_cast<std::size_t>(d) + 1] == 1);
  CHECK(J[static_cast<std::size_t>(2 * d) + 1] == 1);
  CHECK(J[static_cast<std::size_t>(3 * d) + 0] == 0);  // floor, ceil: 0
  CHECK(J[static_cast<std::size_t>(3 * d) + 1] == 0);
}

TEST_CASE("derivative: table lookups have derivative 0, the rest of the constraint its own", "[derivative][table]") {
  const program p = make_program({"T[x] * y + x * y <= 3", "T[4*x] + z^2 == 1", "T[2] * v[0] <= 1", "T[v[1]] <= 9"}, -2, 2);
  const jacobian_tape t = build_jacobian(p);
  const int d = p.dimension(), m = t.constraint_count();
  // rows: g1 = T[x]·y + x·y − 3, g2 = T[2]·v0 − 1 (the literal lookup folded to 2.5), g3 = T[v1] − 9, h1 = T[4x] + z² − 1
  const auto J = [&](int k, int j) { return t.jacobian[static_cast<std::size_t>(k * d + j)]; };
  CHECK(J(2, 4) == -1);  // ∂g3/∂v1: the lookup's derivative is structurally zero
  CHECK(J(3, 0) == -1);  // ∂h1/∂x likewise
  std::vector<double> x = {0.6, -0.5, 0.25, 0.1, 1.7, 0.3, 0.4, 0.5, 0.6};
  std::vector<double> c(static_cast<std::size_t>(m)), g(static_cast<std::size_t>(m * d));
  make_jacobian_interpreter<double>(t)->evaluate(x.data(), c.data(), g.data());
  CHECK(c[0] == Approx(1.5 * -0.5 + 0.6 * -0.5 - 3));  // T[0.6] = T[1] = 1.5
  CHECK(g[0] == -0.5);                                  // ∂g1/∂x = y: T[x] contributes 0
  CHECK(g[1] == Approx(1.5 + 0.6));                     // ∂g1/∂y = T[x] + x
  CHECK(c[1] == 2.5 * 0.1 - 1);
  CHECK(g[static_cast<std::size_t>(d) + 3] == 2.5);     // ∂g2/∂v0 = T[2]
  CHECK(c[2] == 2.5 - 9);                               // T[1.7] = T[2]
  CHECK(g[static_cast<std::size_t>(2 * d) + 4] == 0);
  CHECK(c[3] == Approx(2.5 + 0.0625 - 1));              // T[2.4] = T[2]
  CHECK(g[static_cast<std::size_t>(3 * d) + 0] == 0);
  CHECK(g[static_cast<std::size_t>(3 * d) + 2] == 0.5);  // ∂h1/∂z = 2z
  // Outside the table the value is NaN, the derivative of the lookup still 0.
  x[4] = 3.6;
  make_jacobian_interpreter<double>(t)->evaluate(x.data(), c.data(), g.data());
  CHECK(std::isnan(c[2]));
  CHECK(g[static_cast<std::size_t>(2 * d) + 4] == 0);
  // The tape's values are the reference evaluator's.
  for (int k = 0; k < m; ++k) {
    const double r = row_value(p, t, k, x), v = c[static_cast<std::size_t>(k)];
    CHECK((std::isnan(r) ? std::isnan(v) : r == Approx(v).epsilon(1e-15)));
  }
}

TEST_CASE("derivative: the CPU JIT and the device source equal the tape interpreter bitwise", "[derivative][jit]") {
  std::string why;
  const std::string compiler = find_compiler({}, &why);
  if (compiler.empty()) {
    WARN("no C++ compiler: " << why);
    return;
  }
  const program p = make_program({"sin(x) * exp(y) + v[2]^3 / z <= 0", "min(x, y) + abs(z - 0.5) == 0.2",
                                  "prod(i=0:5, v[i] + 1) + atan2(x, y) + pow(z, x) <= 4",
                                  "T[4*x] * v[1] + T[5*v[3] - 1] / y <= 2"});
  const jacobian_tape t = build_jacobian(p);
  const int d = p.dimension(), m = t.constraint_count();
  expr_test::temp_cache cache;
  const auto interp = make_jacobian_interpreter<double>(t);
  const auto jit = jacobian_jit_compile<double>(t, cache.options());
  const auto interp_f = make_jacobian_interpreter<float>(t);
  const auto jit_f = jacobian_jit_compile<float>(t, cache.options());

  // The GPU JIT's CUDA source for the same tape, built for the host with __device__ defined away.
  std::filesystem::create_directories(cache.path);
  const std::filesystem::path source = cache.path / "device.cpp", object = cache.path / "device.so";
  std::ofstream(source) << generate_jacobian_source(t, "double", "device", "jacobian_f64");
  std::vector<std::string> argv{compiler};
  std::istringstream flags(jit_options{}.flags);
  for (std::string f; flags >> f;) argv.push_back(f);
  // CUDA's global math overloads are, for double, the C library's ::sin, ::pow, ... that <cmath> declares
  argv.insert(argv.end(), {"-D__device__=", "-D__longlong_as_double(b)=__builtin_bit_cast(double, b)", "-include",
                           "cmath", source.string(), "-o", object.string()});
  const auto built = detail::run_process(argv);
  INFO(built.output);
  REQUIRE(built.exit_code == 0);
  void* handle = ::dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE(handle != nullptr);
  const auto device = reinterpret_cast<void (*)(const double*, double*, double*)>(::dlsym(handle, "jacobian_f64"));
  REQUIRE(device != nullptr);

  std::mt19937_64 rng(3);
  std::vector<double> c1(m), c2(m), c3(m), J1(m * d), J2(m * d), J3(m * d);
  std::vector<float> cf1(m), cf2(m), Jf1(m * d), Jf2(m * d);
  for (int trial = 0; trial < 1000; ++trial) {
    const std::vector<double> x = random_point(rng, d, 0.2, 0.8);
    const std::vector<float> xf(x.begin(), x.end());
    interp->evaluate(x.data(), c1.data(), J1.data());
    jit->evaluate(x.data(), c2.data(), J2.data());
    device(x.data(), c3.data(), J3.data());
    interp_f->evaluate(xf.data(), cf1.data(), Jf1.data());
    jit_f->evaluate(xf.data(), cf2.data(), Jf2.data());
    REQUIRE(c1 == c2);
    REQUIRE(J1 == J2);
    REQUIRE(c1 == c3);
    REQUIRE(J1 == J3);
    REQUIRE(cf1 == cf2);
    REQUIRE(Jf1 == Jf2);
  }
  ::dlclose(handle);
}

TEST_CASE("derivative: unrolled reductions beyond the tape limit are a clear error", "[derivative]") {
  problem_source src;
  src.file = "test";
  variable_decl v;
  v.name = "v";
  v.size = 3000;
  v.key_path = "problem.variables.v";
  v.vector = true;
  v.lower = std::vector<double>(3000, 0.0);
  v.upper = std::vector<double>(3000, 1.0);
  src.variables.push_back(v);
  src.objective = {"v[0]", "problem.objective", {}};
  src.constraints.push_back({"sum(i=0:2999, sum(j=0:2999, v[i] * v[j])) <= 1", "problem.constraints[0]", {}});
  const program p = parse_program(src);
  REQUIRE_THROWS_WITH(build_jacobian(p, 100000), Catch::Contains("more than 100000 operations"));
}

TEST_CASE("derivative: the Jacobian JIT caches its object under the problem JIT's key (flags, compiler, CPU)",
          "[derivative][jit][cache]") {
  std::string why;
  if (find_compiler({}, &why).empty()) {
    WARN("no C++ compiler: " << why);
    return;
  }
  const jacobian_tape t = build_jacobian(make_program({"x * y - 1 <= 0"}));
  expr_test::temp_cache cache;
  jit_stats first, second, other;
  jacobian_jit_compile<double>(t, cache.options(), &first);
  const auto cached = jacobian_jit_compile<double>(t, cache.options(), &second);
  CHECK_FALSE(first.cache_hit);
  CHECK(first.compile_seconds > 0);
  CHECK(second.cache_hit);
  CHECK(second.compile_seconds == 0);
  CHECK(second.object_path == first.object_path);
  jit_options o = cache.options();
  o.flags += " -O1";  // other flags: another key, another object
  jacobian_jit_compile<double>(t, o, &other);
  CHECK_FALSE(other.cache_hit);
  CHECK(other.object_path != first.object_path);
  std::vector<double> x(9, 0.5), c(1), J(9);
  x[1] = 0.25;
  cached->evaluate(x.data(), c.data(), J.data());
  CHECK(c[0] == 0.5 * 0.25 - 1);
  CHECK(J == std::vector<double>{0.25, 0.5, 0, 0, 0, 0, 0, 0, 0});
}
