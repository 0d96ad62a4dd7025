// ga-run end to end: exit codes, printed summary, result JSON / history CSV,
// atomic writes, Ctrl-C.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "fusedga/config/registry.hpp"
#include "fusedga/operators/catalog.hpp"
#include "fusedga/operators/operator_text.hpp"
#include "apps/ga_run_harness.hpp"
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

namespace fs = std::filesystem;
using namespace fusedga::test;

TEST_CASE("ga-run without a config solves the embedded seed example 2", "[ga-run]") {
  scratch_dir dir;
  const outcome r = ga_run(dir, "");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("problem      seed/constrained-quadratic"));
  CHECK_THAT(r.out, Catch::Contains("feasible     yes"));
  CHECK_THAT(r.out, Catch::Contains("y = 7"));
  CHECK(r.err.find('\r') == std::string::npos);  // no progress line when stderr is not a terminal
}

TEST_CASE("ga-run --out and --history write the result JSON and the history CSV", "[ga-run]") {
  scratch_dir dir;
  const outcome r = ga_run(dir, "--quiet --backend tbb --set ga.algorithm=ga --set ga.generations=50 --set ga.population=5000 --out " +
                                    (dir / "r.json").string() + " --history " + (dir / "h.csv").string());
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  const auto j = nlohmann::json::parse(slurp(dir / "r.json"));
  CHECK(j["problem"] == "seed/constrained-quadratic");
  CHECK(j["backend"] == "tbb");
  CHECK(j["precision"] == "double");
  CHECK(j["seed"] == 42);
  CHECK(j["generations"] == 50);
  CHECK(j["evaluations"] == 5000 + 50 * (5000 - 2));
  CHECK(j["stop_reason"] == "generations");
  CHECK(j["wall_time_s"].get<double>() > 0);
  CHECK(j["best"]["feasible"] == true);
  CHECK(j["best"]["violation"] == 0.0);
  CHECK(j["best"]["objective"].get<double>() == Approx(263.17395).epsilon(1e-3));
  CHECK(j["best"]["genes"]["y"].get<double>() == Approx(7.0).epsilon(1e-3));
  const std::string csv = slurp(dir / "h.csv");
  CHECK(csv.rfind("generation,best_objective,", 0) == 0);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 51);
  // atomic writes leave no temporary files behind
  for (const auto& e : fs::directory_iterator(dir.path))
    CHECK(e.path().filename().string().find(".tmp.") == std::string::npos);
}

TEST_CASE("ga-run writes integer variables as integers, on stdout and in the result JSON", "[ga-run]") {
  scratch_dir dir;
  dir.write("mixed.yaml",
            "problem:\n"
            "  objective: (n - 3.4)^2 + (y - 0.25)^2 + (big - 123456789012.6)^2 * 0.01\n"
            "  variables:\n"
            "    n: {bounds: [0, 10], integer: true}\n"
            "    y: [-1, 1]\n"
            "    big: {bounds: [123456789000, 123456789100], integer: true}\n"
            "ga: {population: 40, generations: 300, seed: 1}\n");
  const outcome r = ga_run(dir, (dir / "mixed.yaml").string() + " --out " + (dir / "r.json").string());
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("  n = 3\n"));
  CHECK_THAT(r.out, Catch::Contains("  big = 123456789013\n"));  // every digit, where %.10g would round
  const auto genes = nlohmann::json::parse(slurp(dir / "r.json"))["best"]["genes"];
  CHECK(genes["n"].is_number_integer());
  CHECK(genes["n"].get<long long>() == 3);
  CHECK(genes["big"].get<long long>() == 123456789013LL);
  CHECK(genes["y"].is_number_float());
  CHECK(genes["y"].get<double>() == Approx(0.25).margin(1e-6));
}

TEST_CASE("ga-run --resume from another directory writes --out where the first run wrote it", "[ga-run]") {
  scratch_dir dir;
  dir.write("t.yaml", "problem: {builtin: seed/constrained-quadratic}\nga: {generations: 5}\n");
  fs::create_directory(dir / "elsewhere");
  const std::string in_dir = "cd " + dir.path.string() + " && ";
  REQUIRE(ga_run(dir, "t.yaml -q --checkpoint c.ckpt --out r.json", in_dir).exit_code == 0);
  REQUIRE(nlohmann::json::parse(slurp(dir / "r.json"))["generations"] == 5);
  const outcome r = ga_run(dir, "-q --resume ../c.ckpt --set ga.generations=8", in_dir + "cd elsewhere && ");
  REQUIRE(r.exit_code == 0);
  CHECK(nlohmann::json::parse(slurp(dir / "r.json"))["generations"] == 8);
  CHECK_FALSE(fs::exists(dir / "elsewhere" / "r.json"));
}

TEST_CASE("ga-run config errors exit 2 with file:line:col and leave outputs untouched", "[ga-run]") {
  scratch_dir dir;
  dir.write("bad.yaml", "problem:\n  builtin: seed/constrained-quadratic\nga:\n  population: 1\n");
  dir.write("old.json", "OLD");
  const outcome r = ga_run(dir, (dir / "bad.yaml").string() + " --out " + (dir / "old.json").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("bad.yaml:4:15: ga.population: expected an integer >= 2"));
  CHECK(slurp(dir / "old.json") == "OLD");

  const outcome s = ga_run(dir, "--set ga.crossover.rate=2");
  CHECK(s.exit_code == 2);
  CHECK_THAT(s.err, Catch::Contains("ga.crossover.rate"));

  const outcome u = ga_run(dir, "--no-such-flag");
  CHECK(u.exit_code == 2);

  if (!fusedga::cuda_unavailable_reason().empty()) {  // without a usable GPU (or CUDA backend) cuda is a clear error
    const outcome c = ga_run(dir, "--backend cuda");
    CHECK(c.exit_code == 2);
    CHECK_THAT(c.err, Catch::Contains("built backends: serial, tbb"));
    CHECK_THAT(c.err, Catch::Contains(fusedga::cuda_unavailable_reason()));
  }

  const outcome m = ga_run(dir, (dir / "missing.yaml").string());
  CHECK(m.exit_code == 2);
  CHECK_THAT(m.err, Catch::Contains("missing.yaml"));
}

TEST_CASE("ga-run checks its output paths before the first generation", "[ga-run]") {
  scratch_dir dir;
  // 10^9 generations: the run would not end, so passing means the check came first
  const std::string run = "--quiet --set ga.population=10 --set ga.generations=1000000000 ";
  const outcome r = ga_run(dir, run + "--out " + (dir / "no/such/dir/r.json").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("cannot write " + (dir / "no/such/dir/r.json").string() + ": the directory " +
                                    (dir / "no/such/dir").string() + " does not exist (checked before running)"));
  CHECK_FALSE(fs::exists(dir / "no"));
  // an empty path is not "no output": refused before anything runs
  for (const char* option : {"--out ''", "--history ''", "--checkpoint ''", "''"}) {  // '' last: the config
    const outcome e = ga_run(dir, std::string(option) + " " + run);
    INFO(option);
    CHECK(e.exit_code == 2);
    CHECK_THAT(e.err, Catch::Contains("expected a file path, got an empty one"));
  }
  const outcome h = ga_run(dir, run + "--out " + (dir / "r.json").string() + " --history " + dir.path.string());
  CHECK(h.exit_code == 2);
  CHECK_THAT(h.err, Catch::Contains("it is a directory"));
  CHECK_FALSE(fs::exists(dir / "r.json"));
}

TEST_CASE("ga-run stops on Ctrl-C at the end of a generation and still writes the results", "[ga-run]") {
  scratch_dir dir;
  const std::string out = (dir / "r.json").string();
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::freopen("/dev/null", "w", stdout);
    ::freopen("/dev/null", "w", stderr);
    ::execl(FUSEDGA_GA_RUN, FUSEDGA_GA_RUN, "--set", "ga.generations=100000000", "--set", "ga.population=2000",
            "--out", out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  const auto j = nlohmann::json::parse(slurp(out));
  CHECK(j["stop_reason"] == "interrupted");
  CHECK(j["generations"].get<int>() > 0);
  CHECK(j["best"]["feasible"] == true);
}

TEST_CASE("every config in configs/ is accepted by ga-run", "[ga-run][configs]") {
  scratch_dir dir;
  int n = 0;
  for (const auto& e : fs::directory_iterator(fs::path(FUSEDGA_SOURCE_DIR) / "configs")) {
    if (e.path().extension() != ".yaml") continue;
    ++n;
    INFO(e.path());
    // Parse and run one short generation each; the optima are checked by the problem tests.
    const outcome r = ga_run(dir, e.path().string() + " --quiet --set ga.generations=1",
                             "XDG_CACHE_HOME=" + dir.path.string());  // expression configs: a private JIT cache
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
  }
  CHECK(n >= 20);
}

TEST_CASE("ga-run solves the expression version of seed example 2 on every evaluation path", "[ga-run][expression]") {
  scratch_dir dir;
  const std::string config = std::string(FUSEDGA_SOURCE_DIR) + "/configs/expr-seed-constrained-quadratic.yaml";
  for (const char* engine : {"interpreter", "jit"}) {
    INFO(engine);
    // a private JIT cache per test
    const outcome r = ga_run(dir, "--quiet " + config + " --set problem.engine=" + engine + " --out " + (dir / "r.json").string(),
                             "XDG_CACHE_HOME=" + dir.path.string());
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(slurp(dir / "r.json"));
    CHECK(j["problem"] == "expr/constrained-quadratic");
    CHECK(j["best"]["feasible"] == true);
    CHECK(j["best"]["objective"].get<double>() == Approx(263.17395).epsilon(1e-4));
    CHECK(j["best"]["genes"]["y"].get<double>() == Approx(7).epsilon(1e-4));
  }
}

TEST_CASE("ga-run falls back to the interpreter with a one-line notice when no compiler is usable", "[ga-run][expression]") {
  scratch_dir dir;
  const std::string config = std::string(FUSEDGA_SOURCE_DIR) + "/configs/expr-seed-constrained-quadratic.yaml";
  const outcome r = ga_run(dir, config + " --set ga.generations=5 --backend tbb",
                           "XDG_CACHE_HOME=" + dir.path.string() + " CXX=/nonexistent/c++");
  REQUIRE(r.exit_code == 0);
  CHECK(r.err == "problem.engine: using the interpreter (auto: no usable C++ compiler: C++ compiler "
                 "'/nonexistent/c++' not found (set $CXX or install g++))\n");
  CHECK_FALSE(std::filesystem::exists(dir / "fusedga"));  // nothing compiled, no cache created
  // engine: jit without a compiler is a config error, not a silent fallback.
  const outcome j = ga_run(dir, config + " --set problem.engine=jit", "CXX=/nonexistent/c++");
  CHECK(j.exit_code == 2);
  CHECK_THAT(j.err, Catch::Contains("problem.engine: jit requested, but no C++ compiler is usable"));
}

TEST_CASE("ga-run falls back to the interpreter when the JIT cache is unusable", "[ga-run][expression]") {
  scratch_dir dir;
  const std::string config = std::string(FUSEDGA_SOURCE_DIR) + "/configs/expr-seed-constrained-quadratic.yaml";
  // neither $XDG_CACHE_HOME nor $HOME: nowhere to keep the compiled problem
  const outcome r = ga_run(dir, config + " --set ga.generations=5 --backend tbb", "env -u HOME -u XDG_CACHE_HOME");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::StartsWith("problem.engine: using the interpreter (auto: the JIT failed: JIT cache: neither"));
  CHECK_THAT(r.out, Catch::Contains("generations  5"));
  // engine: jit keeps the error
  const outcome j = ga_run(dir, config + " --set problem.engine=jit --backend tbb", "env -u HOME -u XDG_CACHE_HOME");
  CHECK(j.exit_code != 0);
  CHECK_THAT(j.err, Catch::Contains("JIT cache: neither"));
}

TEST_CASE("ga-run --list-operators prints the operator table", "[ga-run][catalog]") {
  scratch_dir dir;
  const outcome r = ga_run(dir, "--list-operators");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == fusedga::operator_table_markdown());
  const outcome h = ga_run(dir, "--help");
  REQUIRE(h.exit_code == 0);
  for (const fusedga::operator_family* f : fusedga::operator_families)
    CHECK_THAT(h.out, Catch::Contains(fusedga::operator_names(*f)));
}

TEST_CASE("ga-run --explain names the operators, their parameters and sources", "[ga-run][catalog]") {
  scratch_dir dir;
  const outcome r = ga_run(dir, "--explain --set 'ga.crossover={type: blx-alpha, alpha: 0.25}'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("crossover    blx-alpha (rate 0.9, alpha 0.25)  (Eshelman & Schaffer 1993"));
  CHECK_THAT(r.out, Catch::Contains("mutation     polynomial (rate auto (1/dimension), eta 20)  (Deb & Goyal 1996"));
  CHECK_THAT(r.out, Catch::Contains("selection    tournament (size 2)"));
  CHECK_THAT(r.out, Catch::Contains("constraints  feasibility-rules (equality_tolerance 0.0001)  (Deb 2000"));
}

TEST_CASE("ga-run: stop.evaluations without ga.generations runs the whole budget", "[ga-run][budget]") {
  scratch_dir dir;
  dir.write("budget.yaml",
            "problem: {builtin: seed/constrained-quadratic}\n"
            "ga: {restarts: null, constraint_handling: {gradient_repair: {rate: 0}}}\n"
            "stop: {evaluations: 20000}\n");
  const outcome r =
      ga_run(dir, (dir / "budget.yaml").string() + " --quiet --backend serial --out " + (dir / "r.json").string());
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(slurp(dir / "r.json"));
  // auto's DE, N = 50 (d = 3 clamped), no restarts or repair: (20000 - 50) / 50 = 399 generations, past the default
  // 300.
  CHECK(j["generations"] == 399);
  CHECK(j["evaluations"] == 50 + 399 * 50);
  CHECK(j["stop_reason"] == "evaluations");
}

TEST_CASE("ga-run --explain says how ga.algorithm auto chose", "[ga-run][auto]") {
  scratch_dir dir;
  const outcome r = ga_run(dir, "--explain --backend serial");  // the embedded default sets no GA operator
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("algorithm    de (auto: real genes, no GA operator set; the best measured on "
                                    "docs/quality.md's suite)"));
  CHECK_THAT(r.out, Catch::Contains("de           shade ("));
  CHECK_THAT(r.out, Catch::Contains("crossover    alternate (binomial on the first start and BIPOP's large starts, "
                                    "exponential on its small starts"));
  CHECK_THAT(r.out, Catch::Contains("restarts     after 100 generations without improvement, large starts x2 each, 2^j "
                                    "small starts after the j-th  (BIPOP: Hansen 2009)"));
  CHECK_THAT(r.out, Catch::Contains("             (auto: the measured default)"));
  CHECK_THAT(r.out, Catch::Contains("population   10000, generations 300, seed 42\n"));
  CHECK(r.out.find("(auto: the problem's dimension") == std::string::npos);  // the config gives 10000
  dir.write("min.yaml", "problem: {builtin: seed/constrained-quadratic}\nga: {restarts: {stall_generations: 50}}\n");
  const outcome b = ga_run(dir, (dir / "min.yaml").string() + " --explain --backend serial");
  REQUIRE(b.exit_code == 0);
  CHECK_THAT(b.out, Catch::Contains("population   50, generations no limit, seed 42\n"
                                    "             (auto: the problem's dimension 3, clamped to [50, 100])\n"));
  CHECK_THAT(b.out, Catch::Contains("(IPOP: on odd restarts))  (Storn & Price 1997)\n"
                                    "             (auto: crossover alternate, memory 20)\n"));
  CHECK_THAT(b.out, Catch::Contains("stop         at the first of: 30000 evaluations\n"
                                    "             (auto: 10^4 x the dimension 3 evaluations (CEC's MaxFES), as "
                                    "neither ga.generations nor stop.evaluations is given)\n"));
  const outcome u =
      ga_run(dir, (dir / "min.yaml").string() + " --explain --backend serial --set stop.evaluations=20000");
  REQUIRE(u.exit_code == 0);
  CHECK_THAT(u.out, Catch::Contains("population   50, generations no limit, seed 42\n"));
  CHECK_THAT(u.out, Catch::Contains("stop         at the first of: 20000 evaluations\n"));
  CHECK_THAT(b.out, Catch::Contains("restarts     after 50 generations without improvement, population x2 each time  "
                                    "(IPOP: Auger & Hansen 2005)"));  // given restarts: IPOP unless schedule says
  CHECK_THAT(r.out, Catch::Contains("repair       gradient (rate 0.2, iterations 3)"));
  CHECK_THAT(r.out, Catch::Contains("             rate auto: the measured default\n"));
  // A built-in's constraints have their exact Jacobian too (its jacobian member): Newton's 3 steps.
  dir.write("vessel.yaml", "problem: {builtin: engineering/pressure-vessel}\n");
  const outcome f = ga_run(dir, (dir / "vessel.yaml").string() + " --explain --backend serial");
  REQUIRE(f.exit_code == 0);
  CHECK_THAT(f.out, Catch::Contains("repair       gradient (rate 0.2, iterations 3)"));
  CHECK_THAT(f.out, Catch::Contains("             rate auto: the measured default\n"));
  const outcome g = ga_run(dir, "--explain --backend serial --set ga.elitism=4");
  REQUIRE(g.exit_code == 0);
  CHECK_THAT(g.out, Catch::Contains("algorithm    ga (auto: ga.elitism is set, a GA operator)"));
  CHECK_THAT(g.out, Catch::Contains("restarts     none"));
}

TEST_CASE("ga-run --explain shows the normalized problem and the evaluation path", "[ga-run][expression]") {
  scratch_dir dir;
  const std::string config = std::string(FUSEDGA_SOURCE_DIR) + "/configs/expr-seed-constrained-quadratic.yaml";
  const outcome r = ga_run(dir, config + " --explain --set problem.engine=interpreter");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("expr/constrained-quadratic"));
  CHECK_THAT(r.out, Catch::Contains("<= 0"));  // constraints in the normalized form g(x) <= 0
  CHECK_THAT(r.out, Catch::Contains("engine       interpreter (requested)"));
  const outcome s = ga_run(dir, config + " --explain --emit-source", "XDG_CACHE_HOME=" + dir.path.string());
  REQUIRE(s.exit_code == 0);
  CHECK_THAT(s.out, Catch::Contains("// generated C++ (double):"));
  CHECK_THAT(s.out, Catch::Contains("FUSEDGA_JIT_EXPORT"));
}

TEST_CASE("ga-run: a malformed expression is a located config error (exit 2)", "[ga-run][expression]") {
  scratch_dir dir;
  dir.write("bad.yaml", "problem:\n  variables: {x: [0, 1]}\n  objective: \"x + (\"\n");
  const outcome r = ga_run(dir, (dir / "bad.yaml").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::StartsWith("ga-run: " + (dir / "bad.yaml").string() + ":3:"));
  CHECK_THAT(r.err, Catch::Contains("problem.objective"));
  CHECK(r.out.empty());
}
