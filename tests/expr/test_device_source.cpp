// The GPU JIT's generated CUDA source (codegen.hpp: generate_device_source),
// compiled for the host: it is C++ apart from `__device__`, so g++ can build
// it into a shared object whose three extern "C" entry points are called as
// expr_device_problem calls them on the GPU (objective, then inequalities and
// equalities into one violation total). Their results must equal the
// interpreter's at 10,000 points for every configs/expr-*.yaml, as the GPU
// test requires of the linked kernels. This checks the device source's
// semantics on every machine; the CUDA math library and the link are the GPU
// test's part.
#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <fusedga/config/registry.hpp>
#include <fusedga/config/run_config.hpp>
#include <fusedga/expr/codegen.hpp>
#include <fusedga/expr/derivative.hpp>
#include <fusedga/expr/jacobian_evaluator.hpp>
#include <fusedga/expr/jit.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "expr/interpreter_reference.hpp"
#include "expr/subprocess.hpp"
#include "expr/temp_cache.hpp"
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

using namespace fusedga;

namespace {

/// The generated device source of `p` built for the host; the entry points as expr_device_problem declares them.
struct host_device_source {
  void* handle = nullptr;
  double (*objective)(const double*) = nullptr;
  void (*inequalities)(const double*, double*) = nullptr;
  void (*equalities)(const double*, double, double*) = nullptr;
  void (*jacobian)(const double*, double*, double*) = nullptr;  ///< the gradient repair's (jacobian sources only)

  /// `with_jacobian`: the source a repairing run compiles (generate_device_source(p, "double", true)).
  host_device_source(const expr::program& p, const std::string& compiler, const std::filesystem::path& dir,
                     bool with_jacobian = false) {
    std::filesystem::create_directories(dir);
    const std::filesystem::path source = dir / "device.cpp", object = dir / "device.so";
    std::ofstream(source) << expr::generate_device_source(p, "double", with_jacobian);
    // the CPU JIT's own flags (its rounding rules: no FMA contraction), plus __device__ defined away and CUDA's
    // bit cast of the non-finite constants spelled for g++
    std::vector<std::string> argv{compiler};
    std::istringstream flags(expr::jit_options{}.flags);
    for (std::string f; flags >> f;) argv.push_back(f);
    argv.insert(argv.end(), {"-D__device__=", "-D__longlong_as_double(v)=__builtin_bit_cast(double, (long long)(v))",
                             "-I" FUSEDGA_SOURCE_DIR "/include", source.string(), "-o", object.string()});
    const auto built = expr::detail::run_process(argv);
    INFO(built.output);
    REQUIRE(built.exit_code == 0);
    handle = ::dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
    REQUIRE(handle != nullptr);
    objective = reinterpret_cast<decltype(objective)>(::dlsym(handle, "fusedga_expr_objective_f64"));
    inequalities = reinterpret_cast<decltype(inequalities)>(::dlsym(handle, "fusedga_expr_inequalities_f64"));
    equalities = reinterpret_cast<decltype(equalities)>(::dlsym(handle, "fusedga_expr_equalities_f64"));
    REQUIRE(objective != nullptr);
    REQUIRE(inequalities != nullptr);
    REQUIRE(equalities != nullptr);
    jacobian = reinterpret_cast<decltype(jacobian)>(::dlsym(handle, "fusedga_expr_jacobian_f64"));
    REQUIRE(jacobian != nullptr);  // the stub when without the Jacobian: the DE kernel links against it
  }
  ~host_device_source() {
    if (handle) ::dlclose(handle);
  }
  host_device_source(const host_device_source&) = delete;
  host_device_source& operator=(const host_device_source&) = delete;
};

/// Objective and violation of the host-built device source against the interpreter at 10,000 points in the bounds.
void check_against_interpreter(const expr::program& p, const std::string& name, const std::string& compiler,
                               const std::filesystem::path& dir) {
  INFO(name);
  constexpr int points = 10000;
  constexpr double eps = 1e-4;
  const int d = p.dimension();
  const auto ref = expr_test::interpreter_at_random_points(p, points, eps, name == "expr-seed-gene-sum.yaml");

  const host_device_source device(p, compiler, dir / name);
  int mismatches = 0;
  for (int l = 0; l < points; ++l) {
    const double* x = ref.rows.data() + static_cast<std::size_t>(l) * d;
    const double o = device.objective(x);
    double v = 0;  // expr_device_problem: inequalities, then equalities, into the one total
    device.inequalities(x, &v);
    device.equalities(x, eps, &v);
    if (!expr_test::agree_to_1e12(o, ref.objective[l]) || !expr_test::agree_to_1e12(v, ref.violation[l]))
      if (++mismatches <= 3)
        UNSCOPED_INFO("point " << l << ": objective " << o << " vs " << ref.objective[l] << ", violation " << v
                               << " vs " << ref.violation[l]);
  }
  CHECK(mismatches == 0);
}

/// The device source's Jacobian (a repairing run's) against the Jacobian interpreter (the CPU path's) at 1,000
/// points: the same tape, the same operations in the same order, so bitwise (NaN where both are NaN).
void check_jacobian_against_interpreter(const expr::program& p, const std::string& name, const std::string& compiler,
                                        const std::filesystem::path& dir) {
  INFO(name);
  constexpr int points = 1000;
  const int d = p.dimension(), m = p.inequality_count() + p.equality_count();
  const auto ref = expr_test::interpreter_at_random_points(p, points, 1e-4, false);
  const host_device_source device(p, compiler, dir / (name + "-jacobian"), true);
  const auto interpreter = expr::make_jacobian_interpreter<double>(expr::build_jacobian(p));
  std::vector<double> c(static_cast<std::size_t>(m)), J(static_cast<std::size_t>(m * d));
  std::vector<double> c_ref(c.size()), J_ref(J.size());
  const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
  int mismatches = 0;
  for (int l = 0; l < points; ++l) {
    const double* x = ref.rows.data() + static_cast<std::size_t>(l) * d;
    device.jacobian(x, c.data(), J.data());
    interpreter->evaluate(x, c_ref.data(), J_ref.data());
    bool agree = true;
    for (std::size_t k = 0; k < c.size(); ++k) agree = agree && same(c[k], c_ref[k]);
    for (std::size_t k = 0; k < J.size(); ++k) agree = agree && same(J[k], J_ref[k]);
    if (!agree && ++mismatches <= 3) UNSCOPED_INFO("point " << l << ": the Jacobian differs from the interpreter's");
  }
  CHECK(mismatches == 0);
}

/// Calls check(program, name, compiler, scratch directory) for every configs/expr-*.yaml and
/// tests/expr/device_coverage.yaml (equalities, nested reductions, the math functions); without a host C++ compiler
/// warns and checks nothing (returns false).
template <class Check>
bool for_each_expression_config(Check&& check) {
  std::string why;
  const std::string compiler = expr::find_compiler({}, &why);
  if (compiler.empty()) {
    WARN("skipped: no host C++ compiler (" << why << ")");
    return false;
  }
  const expr_test::temp_cache scratch;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(FUSEDGA_SOURCE_DIR) + "/configs")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("expr-", 0) != 0) continue;
    const run_config cfg = load_config(entry.path().string());
    check(*cfg.problem.expression, name, compiler, scratch.path);
  }
  const run_config coverage = load_config(std::string(FUSEDGA_SOURCE_DIR) + "/tests/expr/device_coverage.yaml");
  REQUIRE(coverage.problem.expression->equality_count() == 2);
  check(*coverage.problem.expression, "device_coverage.yaml", compiler, scratch.path);
  return true;
}

}  // namespace

TEST_CASE(
    "gpu jit source: compiled for the host, the constraints' values and Jacobian (a repairing run's source) equal "
    "the Jacobian interpreter's bitwise at 1,000 points, for every constrained expression config",
    "[expr][jit][jacobian]") {
  int checked = 0;
  const bool ran = for_each_expression_config([&](const expr::program& p, const std::string& name,
                                                  const std::string& compiler, const std::filesystem::path& dir) {
    if (p.inequality_count() + p.equality_count() == 0) return;
    check_jacobian_against_interpreter(p, name, compiler, dir);
    ++checked;
  });
  if (ran) CHECK(checked >= 3);
}

TEST_CASE(
    "gpu jit source: compiled for the host, the objective and violation equal the interpreter's at 10,000 "
    "points, for every expression config and tests/expr/device_coverage.yaml",
    "[expr][jit]") {
  for_each_expression_config(check_against_interpreter);
}
