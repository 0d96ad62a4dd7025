// The CPU JIT: generated source (deterministic, no user text, %.17g numbers),
// the cache (private directory, hits, integrity check, rebuild of a tampered
// object), errors (no compiler, failing compiler, non-private cache), and the
// property test: random expression trees evaluated by the JIT agree with the
// reference evaluator and the interpreter.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fusedga/core/error.hpp>
#include <fusedga/expr/codegen.hpp>
#include <fusedga/expr/jit.hpp>
#include <fusedga/expr/parse.hpp>

#include "expr/program_builder.hpp"
#include "expr/temp_cache.hpp"

using namespace fusedga::expr;
using namespace expr_test;
namespace fs = std::filesystem;

namespace {

program quadratic_program() {
  return parsed({declared("x", 1, 1, 25), declared("y", 1, 3, 7), declared("z", 1, -25, 0)},
                "x^2 + 2*y^2 + 3*z^2 + 4*x*y - 5*y*z", {"x + y + z >= 3", "x^2 + z^2 <= 10"},
                fusedga::Sense::maximize);
}

bool have_compiler() { return !find_compiler({}).empty(); }

#define REQUIRE_COMPILER()                                                   \
  do {                                                                       \
    if (!have_compiler()) {                                                  \
      WARN("skipped: no C++ compiler for the JIT (" << [] {                  \
        std::string why;                                                     \
        find_compiler({}, &why);                                             \
        return why;                                                          \
      }() << ")");                                                           \
      return;                                                                \
    }                                                                        \
  } while (0)

}  // namespace

TEST_CASE("generated source: deterministic, no user text, numbers re-printed with %.17g", "[jit]") {
  const program p = parsed({declared("secret_length", 1, 0, 1), declared("payload", 4, -1, 1)},
                           "0.1*secret_length + sum(i=0:3, payload[i]^2) + max(i=1:3, payload[i-1])",
                           {"secret_length - payload[2] <= 0.25", "secret_length == 0.5"});
  const std::string a = generate_source(p, "double");
  CHECK(a == generate_source(p, "double"));
  CHECK(a != generate_source(p, "float"));
  CHECK(a.find("secret_length") == std::string::npos);
  CHECK(a.find("payload") == std::string::npos);
  CHECK(a.find("R(0.10000000000000001)") != std::string::npos);  // 0.1 at full precision
  CHECK(a.find("R(0.25)") != std::string::npos);
  CHECK(a.find("int inequality_count() const { return 1; }") != std::string::npos);
  CHECK(a.find("int equality_count() const { return 1; }") != std::string::npos);
  CHECK(a.find("FUSEDGA_JIT_EXPORT(fusedga_jit_problem)") != std::string::npos);
  // One bounds run for the whole vector (run-length encoded).
  CHECK(a.find("jit_append_bounds(b, 4, R(-1), R(1));") != std::string::npos);
  CHECK_THROWS_AS(generate_source(p, "long double"), fusedga::error);
  // Reductions: also the block form (jit_block individuals at once, per-lane arrays); none without.
  CHECK(a.find("static constexpr bool block_evaluation = true;") != std::string::npos);
  CHECK(a.find("xb(k, 1 + ::fusedga::expr::jit_index(") != std::string::npos);
  CHECK(generate_source(quadratic_program(), "double").find("evaluate_block") == std::string::npos);
  // Negative zero as a floating literal: %.17g writes "-0", an integer literal, +0 once converted, where
  // atan2(-0, x) = -π for x < 0 but atan2(+0, x) = +π.
  const constant_decl c{"c", -0.0, "problem.constants.c", {}, {}};
  const std::string z =
      generate_source(parsed({declared("x", 1, -2, -1)}, "atan2(c, x)", {}, fusedga::Sense::minimize, {c}), "double");
  CHECK(z.find("R(-0.0)") != std::string::npos);
  CHECK(z.find("R(-0)") == std::string::npos);
}

TEST_CASE("generated source: integer variables are marked after every gene's bounds, and only then", "[jit][integer]") {
  std::vector<variable_decl> vars = {declared("n", 1, 0.5, 5.5), declared("r", 2, -1, 1)};
  vars[0].integer = {1};
  const std::string a = generate_source(parsed(vars, "n + r[0] + r[1]"), "double");
  CHECK(a.find("jit_append_bounds(b, 1, R(1), R(5));") != std::string::npos);  // the integers of [0.5, 5.5]
  const auto mark = a.find("jit_mark_integer(b, 0, 1);");
  REQUIRE(mark != std::string::npos);
  CHECK(mark > a.rfind("jit_append_bounds("));  // the marks span every gene, the real ones after n too
  CHECK(generate_source(quadratic_program(), "double").find("jit_mark_integer") == std::string::npos);
  // Single elements of a vector: one call per run of marked elements (genes 2-3 and 5 of n, r[0..4]).
  vars = {declared("n", 1, 0, 5), declared("r", 5, -1, 1)};
  vars[1].integer = {0, 1, 1, 0, 1};
  const std::string b = generate_source(parsed(vars, "n + r[0] + r[4]"), "double");
  CHECK(b.find("jit_mark_integer(b, 2, 2);\n    ::fusedga::expr::jit_mark_integer(b, 5, 1);\n    return b;") !=
        std::string::npos);
}

TEST_CASE("JIT block form: reductions over 40 genes equal the interpreter's exactly, blocks and tail alike", "[jit]") {
  REQUIRE_COMPILER();
  const temp_cache cache;
  // Polynomials only, so every path rounds the same operations in the same order: equality is exact.
  const program p = parsed({declared("s", 1, -2, 2), declared("x", 40, -2, 2)},
                           "sum(i=0:39, x[i]*x[i]) - s*prod(i=0:3, x[i] + 1) + min(i=1:39, x[i-1]*x[i])",
                           {"max(i=0:39, x[i]) <= 1.5", "sum(i=0:19, x[2*i]) == s"});
  REQUIRE(generate_source(p, "double").find("evaluate_block") != std::string::npos);
  const int d = p.dimension(), count = 16 * 12 + 11;  // whole blocks, then a scalar tail
  const std::vector<double> rows = random_rows<double>(count, d, -2, 2, 7);
  const auto jit = jit_compile<double>(p, cache.options());
  const auto interp = make_interpreter<double>(p);
  const outputs<double> r = run_rows(*jit, rows, d, 0.25), s = run_soa(*jit, rows, d, 0.25);
  const outputs<double> i = run_rows(*interp, rows, d, 0.25);
  int differences = 0;
  for (std::size_t l = 0; l < static_cast<std::size_t>(count); ++l)
    if ((r.objective[l] != i.objective[l]) + (r.violation[l] != i.violation[l]) + (s.objective[l] != i.objective[l]) +
        (s.violation[l] != i.violation[l])) {
      ++differences;
      UNSCOPED_INFO(std::setprecision(17) << "individual " << l << ": rows " << r.objective[l] << ", " << r.violation[l] << "; soa "
                                  << s.objective[l] << ", " << s.violation[l] << "; interpreter " << i.objective[l]
                                  << ", " << i.violation[l] << "; reference " << reference_objective(p, &rows[l * d]));
    }
  CHECK(differences == 0);
  CHECK(std::count(i.violation.begin(), i.violation.end(), 0.0) < count);  // the constraints do bind somewhere
}

TEST_CASE("JIT: the quadratic compiles, caches, and evaluates as the interpreter does", "[jit]") {
  REQUIRE_COMPILER();
  const temp_cache cache;
  const program p = quadratic_program();
  jit_stats cold, warm;
  const auto e1 = jit_compile<double>(p, cache.options(), &cold);
  CHECK_FALSE(cold.cache_hit);
  CHECK(cold.compile_seconds > 0);
  CHECK(fs::exists(cold.object_path));
  CHECK(fs::exists(fs::path(cold.object_path).replace_extension(".sha256")));
  // The cache directory is created private.
  struct stat st {};
  REQUIRE(::stat(cache.options().cache_dir.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  // No temporary files are left behind.
  int files = 0;
  for (const auto& f : fs::directory_iterator(cache.options().cache_dir)) {
    ++files;
    CHECK(f.path().string().find(".tmp-") == std::string::npos);
  }
  CHECK(files == 2);

  const auto e2 = jit_compile<double>(p, cache.options(), &warm);
  CHECK(warm.cache_hit);
  CHECK(warm.compile_seconds == 0);
  CHECK(warm.object_path == cold.object_path);

  const auto interp = make_interpreter<double>(p);
  const std::vector<double> rows = random_rows<double>(203, 3, -5, 5, 42);
  const outputs<double> j = run_rows(*e1, rows, 3), w = run_rows(*e2, rows, 3), s = run_soa(*e1, rows, 3);
  const outputs<double> i = run_rows(*interp, rows, 3);
  for (std::size_t l = 0; l < 203; ++l) {
    const double x = rows[3 * l], y = rows[3 * l + 1], z = rows[3 * l + 2];
    // Polynomials only: the JIT computes exactly what the interpreter does.
    CHECK(j.objective[l] == i.objective[l]);
    CHECK(j.violation[l] == i.violation[l]);
    CHECK(w.objective[l] == j.objective[l]);
    CHECK(s.objective[l] == j.objective[l]);
    CHECK(s.violation[l] == j.violation[l]);
    const double g1 = 3 - (x + y + z), g2 = x * x + z * z - 10;
    CHECK(j.violation[l] == (g1 <= 0 ? 0 : g1) + (g2 <= 0 ? 0 : g2));
  }
  // float is its own module.
  jit_stats f;
  const auto ef = jit_compile<float>(p, cache.options(), &f);
  CHECK_FALSE(f.cache_hit);
  CHECK(f.object_path != cold.object_path);
}

TEST_CASE("JIT cache: a tampered object is rebuilt, never loaded", "[jit]") {
  REQUIRE_COMPILER();
  const temp_cache cache;
  const program p = quadratic_program();
  jit_stats first;
  jit_compile<double>(p, cache.options(), &first);
  {
    std::ofstream out(first.object_path, std::ios::binary | std::ios::app);
    out << "tampered";
  }
  jit_stats second;
  const auto e = jit_compile<double>(p, cache.options(), &second);
  CHECK_FALSE(second.cache_hit);
  const std::vector<double> row = {2, 7, -1};
  const outputs<double> o = run_rows(*e, row, 3);
  CHECK(o.objective[0] == 4 + 98 + 3 + 56 + 35);
}

TEST_CASE("JIT: a module this process loaded is reused while its cache entry holds the same bytes", "[jit][cache]") {
  REQUIRE_COMPILER();
  const temp_cache cache;
  const program p = quadratic_program();
  const std::vector<double> row = {2, 7, -1};
  const double expected = 4 + 98 + 3 + 56 + 35;
  jit_stats cold, again;
  const auto e1 = jit_compile<double>(p, cache.options(), &cold);
  CHECK_FALSE(cold.cache_hit);
  CHECK_FALSE(cold.already_loaded);
  const auto e2 = jit_compile<double>(p, cache.options(), &again);
  CHECK(again.cache_hit);
  CHECK(again.already_loaded);
  CHECK(again.object_path == cold.object_path);
  CHECK(run_rows(*e2, row, 3).objective[0] == expected);

  // One byte of the object changed in place (same size, perhaps the same timestamps): checked again by the
  // cache, refused by its digest and rebuilt, the loaded module not reused.
  std::string bytes;
  {
    std::ifstream in(cold.object_path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  REQUIRE(bytes.size() > 100);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x5a);
  {
    std::fstream out(cold.object_path, std::ios::binary | std::ios::in | std::ios::out);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  jit_stats changed, after;
  const auto e3 = jit_compile<double>(p, cache.options(), &changed);
  CHECK_FALSE(changed.cache_hit);
  CHECK_FALSE(changed.already_loaded);
  CHECK(run_rows(*e3, row, 3).objective[0] == expected);
  // The rebuilt module is the one reused next.
  const auto e4 = jit_compile<double>(p, cache.options(), &after);
  CHECK(after.already_loaded);
  CHECK(run_rows(*e4, row, 3).objective[0] == expected);

  // The digest sidecar made group-writable: refused and rebuilt, as without a loaded module.
  const std::string sidecar = fs::path(cold.object_path).replace_extension(".sha256").string();
  REQUIRE(::chmod(sidecar.c_str(), 0660) == 0);
  jit_stats loose;
  jit_compile<double>(p, cache.options(), &loose);
  CHECK_FALSE(loose.already_loaded);
  CHECK_FALSE(loose.cache_hit);
}

TEST_CASE("JIT errors: no compiler, a failing compiler, a cache directory that is not private", "[jit]") {
  const program p = quadratic_program();
  const temp_cache cache;
  jit_options missing = cache.options();
  missing.compiler = "/nonexistent/c++";
  std::string why;
  CHECK(find_compiler(missing, &why).empty());
  CHECK_THAT(why, Catch::Contains("/nonexistent/c++"));
  CHECK_THROWS_WITH(jit_compile<double>(p, missing), Catch::Contains("not found"));

  jit_options failing = cache.options();
  failing.compiler = "/bin/false";
  CHECK_THROWS_WITH(jit_compile<double>(p, failing), Catch::Contains("/bin/false --version failed"));

  fs::create_directories(cache.path / "open");  // mode 0750: readable by the group
  fs::permissions(cache.path / "open", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
  jit_options open = cache.options();
  open.cache_dir = (cache.path / "open").string();
  if (have_compiler()) CHECK_THROWS_WITH(jit_compile<double>(p, open), Catch::Contains("must be private"));

  if (have_compiler()) {  // a compiler error comes back with the compiler's diagnostics
    jit_options bad_flags = cache.options();
    bad_flags.flags += " -fno-such-flag-for-fusedga";
    CHECK_THROWS_WITH(jit_compile<double>(p, bad_flags), Catch::Contains("-fno-such-flag-for-fusedga"));
  }
}

TEST_CASE("random expression trees: the JIT agrees with the reference and the interpreter", "[jit][property]") {
  REQUIRE_COMPILER();
  const temp_cache cache;
  // One module per tree; 12 trees keep the test to a few seconds of compiling.
  for (unsigned seed = 1; seed <= 12; ++seed) {
    random_tree t(seed);
    t.b.objective(t.gen(5, 0));
    t.b.inequality(t.gen(4, 0));
    t.b.equality(t.gen(3, 0));
    const program& p = t.b.p;
    const int d = p.dimension();
    const int count = 77;  // whole blocks of 16 and a scalar tail
    const std::vector<double> rows = random_rows<double>(count, d, -2, 2, 1000 + seed);
    const auto jit = jit_compile<double>(p, cache.options());
    const auto interp = make_interpreter<double>(p);
    const outputs<double> oj = run_rows(*jit, rows, d, 0.25), os = run_soa(*jit, rows, d, 0.25);
    const outputs<double> oi = run_rows(*interp, rows, d, 0.25);
    for (int l = 0; l < count; ++l) {
      const auto u = static_cast<std::size_t>(l);
      const double* x = &rows[u * static_cast<std::size_t>(d)];
      const double obj = reference_objective(p, x), vio = violation_of(p, x, 0.25);
      INFO("seed " << seed << ", individual " << l << ": reference " << obj << ", " << vio << "\n"
                   << generate_source(p, "double"));
      CHECK(close(oj.objective[u], obj, 1e-12));
      CHECK(close(oj.violation[u], vio, 1e-12));
      CHECK(close(oj.objective[u], oi.objective[u], 1e-12));
      CHECK(close(oj.violation[u], oi.violation[u], 1e-12));
      CHECK(close(os.objective[u], oj.objective[u], 1e-12));
    }
  }
}

TEST_CASE("JIT table lookups: each table once in the source, results equal to the interpreter's", "[jit][table]") {
  const program p = table_program();
  const std::string source = generate_source(p, "double");
  CHECK(source.find("constexpr R fusedga_table_0[] = {") != std::string::npos);
  CHECK(source.find("constexpr R fusedga_table_1[] = {") != std::string::npos);
  CHECK(source.find("R(3.1749999999999998),") != std::string::npos);  // %.17g
  CHECK(source.find("fusedga_table_0[]") == source.rfind("fusedga_table_0[]"));  // defined once for every use
  CHECK(source.find("jit_lookup<R>(fusedga_table_0, 4, ") != std::string::npos);
  const std::string device = generate_device_source(p, "float");
  CHECK(device.find("__device__ const R fusedga_table_1[] = {") != std::string::npos);
  REQUIRE_COMPILER();
  const temp_cache cache;
  const int d = p.dimension();
  const std::vector<double> rows = table_rows(100);  // 120 individuals: 7 blocks of 16 and a scalar tail
  const int count = static_cast<int>(rows.size()) / d;
  const auto jit = jit_compile<double>(p, cache.options());
  const auto interp = make_interpreter<double>(p);
  const outputs<double> j = run_rows(*jit, rows, d, 0.25), s = run_soa(*jit, rows, d, 0.25);
  const outputs<double> i = run_rows(*interp, rows, d, 0.25);
  for (int l = 0; l < count; ++l) {
    const auto u = static_cast<std::size_t>(l);
    const double* x = &rows[u * static_cast<std::size_t>(d)];
    INFO("individual " << l << ": x " << x[0] << ", y " << x[1] << ", v " << x[2] << " " << x[3] << " " << x[4]);
    CHECK(same(j.objective[u], i.objective[u]));
    CHECK(same(j.violation[u], i.violation[u]));
    CHECK(same(s.objective[u], i.objective[u]));
    CHECK(same(s.violation[u], i.violation[u]));
    CHECK(same(j.objective[u], reference_objective(p, x)));
  }
  // float: the same lookups in float arithmetic, as the float interpreter.
  const std::vector<float> rows_f(rows.begin(), rows.end());
  const outputs<float> jf = run_rows(*jit_compile<float>(p, cache.options()), rows_f, d, 0.25f);
  const outputs<float> f = run_rows(*make_interpreter<float>(p), rows_f, d, 0.25f);
  for (std::size_t l = 0; l < static_cast<std::size_t>(count); ++l) {
    CHECK(same(jf.objective[l], f.objective[l]));
    CHECK(same(jf.violation[l], f.violation[l]));
  }
}

TEST_CASE("JIT cache: two programs that differ only in a table entry get two modules", "[jit][table][cache]") {
  REQUIRE_COMPILER();
  const temp_cache cache;
  const auto program_with = [](double last) {
    return parsed({declared("x", 1, 0, 3)}, "P[x] * x", {}, fusedga::Sense::minimize,
                  {declared_table("P", {1.5, 2.5, 3.5, last})});
  };
  jit_stats a, b, again;
  const auto first = jit_compile<double>(program_with(4.5), cache.options(), &a);
  const auto second = jit_compile<double>(program_with(4.75), cache.options(), &b);
  CHECK_FALSE(b.cache_hit);
  CHECK(b.object_path != a.object_path);
  jit_compile<double>(program_with(4.5), cache.options(), &again);
  CHECK(again.cache_hit);
  CHECK(again.object_path == a.object_path);
  const std::vector<double> x = {3, 1};
  CHECK(run_rows(*first, x, 1).objective == std::vector<double>{13.5, 2.5});
  CHECK(run_rows(*second, x, 1).objective == std::vector<double>{14.25, 2.5});
}
