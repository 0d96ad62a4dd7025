// ga-run end to end on bad input: each class of issue 16's list ("every bad input a clear error, nothing
// lost") that ga-run shows, with its exit code, message and what is written.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "apps/ga_run_harness.hpp"
#include "fusedga/config/registry.hpp"
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

using namespace fusedga::test;

TEST_CASE("ga-run: NaN everywhere is exit 1 after writing the results, NaNs counted", "[ga-run][nan]") {
  scratch_dir dir;
  dir.write("nan.yaml",
            "problem:\n  variables: {x: [-1, 1]}\n  objective: \"log(-1 - x^2)\"\n  engine: interpreter\n"
            "ga: {population: 20, generations: 3}\nbackend: serial\n");
  const outcome r = ga_run(dir, (dir / "nan.yaml").string() + " --out " + (dir / "r.json").string() + " --history " +
                                    (dir / "h.csv").string());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("no individual had a finite objective and violation"));
  CHECK_THAT(r.err, Catch::Contains("80 individuals NaN or infinitely good in generations 0 to 3); results written"));
  CHECK_THAT(r.out, Catch::Contains("best         nan"));
  CHECK_THAT(r.out, Catch::Contains("feasible     no"));
  const auto j = nlohmann::json::parse(slurp(dir / "r.json"));
  CHECK(j["best"]["objective"].is_null());
  CHECK(j["best"]["feasible"] == false);
  CHECK(j["nan_individuals"] == 80);
  const std::string csv = slurp(dir / "h.csv");
  CHECK(csv.rfind("generation,best_objective,best_violation,mean_objective,feasible_fraction,evaluations,elapsed_s,"
                  "nan_individuals\n",
                  0) == 0);
  CHECK_THAT(csv, Catch::Contains("\n0,nan,0,nan,0,20,"));
  CHECK(csv.find("-nan") == std::string::npos);
  // without --out and --history nothing is written, and the message does not say otherwise
  const outcome bare = ga_run(dir, (dir / "nan.yaml").string());
  CHECK(bare.exit_code == 1);
  CHECK_THAT(bare.err, Catch::EndsWith("80 individuals NaN or infinitely good in generations 0 to 3)\n"));
}

TEST_CASE("ga-run: NaN in part of the domain ranks worst and the run succeeds", "[ga-run][nan]") {
  scratch_dir dir;
  dir.write("half.yaml",
            "problem:\n  variables: {x: [-1, 1]}\n  objective: \"sqrt(x) + 1\"\n  engine: interpreter\n"
            "ga: {population: 200, generations: 20}\nbackend: serial\n");
  const outcome r = ga_run(dir, (dir / "half.yaml").string() + " --out " + (dir / "r.json").string());
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(slurp(dir / "r.json"));
  CHECK(j["best"]["objective"].get<double>() == Approx(1.0).margin(0.05));
  CHECK(j["best"]["feasible"] == true);
  CHECK(j["nan_individuals"].get<int>() > 50);  // about half of generation 0 alone
  CHECK_THAT(r.out, Catch::Contains("NaN          "));
}

TEST_CASE("ga-run: bounds whose width overflows are a located config error", "[ga-run][bounds]") {
  scratch_dir dir;
  dir.write("wide.yaml", "problem:\n  variables: {x: [-1e308, 1e308]}\n  objective: \"x\"\n");
  const outcome r = ga_run(dir, (dir / "wide.yaml").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("wide.yaml:2:18: problem.variables.x:"));
  CHECK_THAT(r.err, Catch::Contains("width upper - lower overflows"));
}

TEST_CASE("ga-run: a population that cannot fit in memory is exit 2 before allocating", "[ga-run][memory]") {
  scratch_dir dir;
  // 2^31 − 1 individuals of 100,000 doubles: petabytes, on any machine
  const outcome r = ga_run(dir, "--set problem.builtin=classic/sphere --set problem.params.dimension=100000 "
                                "--set ga.population=2147483647 --backend serial");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("ga.population = 2147483647 with 100000 genes of 8 bytes needs"));
  CHECK_THAT(r.err, Catch::Contains("individuals fit at this dimension"));
  CHECK_THAT(r.err, !Catch::Contains("bad_alloc"));
}

TEST_CASE("ga-run: an absurd thread count is a located config error", "[ga-run][memory]") {
  scratch_dir dir;
  dir.write("t.yaml", "problem: {builtin: seed/constrained-quadratic}\nthreads: 2147483647\n");
  const outcome r = ga_run(dir, (dir / "t.yaml").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("t.yaml:2:10: threads: expected an integer in [0, 65536]"));
}

TEST_CASE("ga-run: backend cuda without a usable GPU is located at the backend key", "[ga-run][backend]") {
  if (fusedga::cuda_unavailable_reason().empty()) {
    WARN("skipped: this machine has a usable GPU");
    return;
  }
  scratch_dir dir;
  dir.write("c.yaml", "problem: {builtin: seed/constrained-quadratic}\nbackend: cuda\n");
  const outcome r = ga_run(dir, (dir / "c.yaml").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("c.yaml:2:10: backend: cuda: "));
  const outcome s = ga_run(dir, (dir / "c.yaml").string() + " --set backend=cuda");
  CHECK(s.exit_code == 2);
  CHECK_THAT(s.err, Catch::Contains("--set backend=cuda: backend: cuda: "));
}

TEST_CASE("ga-run: engine interpreter on backend cuda is located at problem.engine", "[ga-run][backend]") {
  scratch_dir dir;
  dir.write("i.yaml", "problem:\n  variables: {x: [0, 1]}\n  objective: \"x\"\n  engine: interpreter\nbackend: cuda\n");
  const outcome r = ga_run(dir, (dir / "i.yaml").string() + " --explain");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("i.yaml:4:11: problem.engine: the interpreter runs on the CPU backends only"));
}

TEST_CASE("ga-run: a duplicate key also given by --set is blamed on the file", "[ga-run][config]") {
  scratch_dir dir;
  dir.write("d.yaml", "problem: {builtin: seed/constrained-quadratic}\nga:\n  population: 50\n  population: 60\n");
  const outcome r = ga_run(dir, (dir / "d.yaml").string() + " --set ga.population=70");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("d.yaml:4:3: ga.population: duplicate key (first at line 3, column 3)"));
  CHECK_THAT(r.err, !Catch::Contains("--set"));
}

TEST_CASE("ga-run: a bare word without ':' is an error, not a null key", "[ga-run][config]") {
  scratch_dir dir;
  dir.write("b.yaml", "problem: {builtin: seed/constrained-quadratic}\nga: {generations: 3}\nstop\n");
  const outcome r = ga_run(dir, (dir / "b.yaml").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("b.yaml:3:1: stop: a bare word without ':'; expected 'stop: VALUE'"));
  dir.write("ok.yaml", "problem: {builtin: seed/constrained-quadratic}\nga: {generations: 3}\nstop:\n");
  CHECK(ga_run(dir, (dir / "ok.yaml").string() + " -q").exit_code == 0);  // an explicit empty section is fine
}

TEST_CASE("ga-run: output paths that are booleans or numbers, or one file for both, are errors", "[ga-run][output]") {
  scratch_dir dir;
  dir.write("t.yaml", "problem: {builtin: seed/constrained-quadratic}\noutput: {result: true}\n");
  const outcome r = ga_run(dir, (dir / "t.yaml").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("t.yaml:2:18: output.result: expected a file path or null, got true (quote it"));
  CHECK_FALSE(fs::exists("true"));
  const outcome same = ga_run(dir, "--out " + (dir / "x").string() + " --history " + dir.path.string() + "/./x");
  CHECK(same.exit_code == 2);
  CHECK_THAT(same.err, Catch::Contains("name the same file"));
  CHECK_FALSE(fs::exists(dir / "x"));
  // The same file not yet there, once absolute and once relative to the working directory (ga-run's, this test's).
  const std::string relative = "./" + fs::relative(dir / "y").string();
  const outcome mixed = ga_run(dir, "--out " + (dir / "y").string() + " --history " + relative);
  CHECK(mixed.exit_code == 2);
  CHECK_THAT(mixed.err, Catch::Contains("name the same file"));
  CHECK_FALSE(fs::exists(dir / "y"));
}

TEST_CASE("ga-run: an output that would replace the config, the resumed checkpoint or another output is an error",
          "[ga-run][output]") {
  scratch_dir dir;
  const std::string config = "problem: {builtin: seed/constrained-quadratic}\nga: {generations: 5}\n";
  dir.write("t.yaml", config);
  const std::string t = (dir / "t.yaml").string();
  for (const char* flag : {"--out", "--history", "--checkpoint"}) {
    INFO(flag);
    const outcome r = ga_run(dir, t + " -q " + std::string(flag) + " " + dir.path.string() + "/./t.yaml");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("names the config " + t + ", which it would replace"));
    CHECK(slurp(dir / "t.yaml") == config);
  }
  fs::create_hard_link(dir / "t.yaml", dir / "link.yaml");  // another name of the same file
  const outcome linked = ga_run(dir, t + " -q --out " + (dir / "link.yaml").string());
  CHECK(linked.exit_code == 2);
  CHECK_THAT(linked.err, Catch::Contains("names the config " + t + ", which it would replace"));
  CHECK(slurp(dir / "t.yaml") == config);
  const outcome both = ga_run(
      dir, t + " -q --checkpoint " + (dir / "g.ckpt").string() + " --out " + dir.path.string() + "/sub/../g.ckpt");
  CHECK(both.exit_code == 2);
  CHECK_THAT(both.err, Catch::Contains("the result (--out / output.result) and the checkpoint (--checkpoint) name "
                                       "the same file"));
  CHECK_FALSE(fs::exists(dir / "g.ckpt"));
  // Resumed: the checkpoint may go on in its own file; the result may not replace it.
  REQUIRE(ga_run(dir, t + " -q --checkpoint " + (dir / "c.ckpt").string()).exit_code == 0);
  const std::string saved = slurp(dir / "c.ckpt");
  const outcome resumed = ga_run(dir, "-q --resume " + (dir / "c.ckpt").string() + " --checkpoint " +
                                          (dir / "d.ckpt").string() + " --out " + (dir / "c.ckpt").string());
  CHECK(resumed.exit_code == 2);
  CHECK_THAT(resumed.err, Catch::Contains("names the checkpoint resumed from"));
  CHECK(slurp(dir / "c.ckpt") == saved);
  // Resumed without the config (the checkpoint's copy runs): the config file is still not an output.
  const outcome over_config = ga_run(dir, "-q --resume " + (dir / "c.ckpt").string() + " --set ga.generations=8 --out " +
                                              dir.path.string() + "/./t.yaml");
  CHECK(over_config.exit_code == 2);
  CHECK_THAT(over_config.err, Catch::Contains("names the config " + t + ", which it would replace"));
  CHECK(slurp(dir / "t.yaml") == config);
  CHECK(ga_run(dir, "-q --resume " + (dir / "c.ckpt").string() + " --set ga.generations=8").exit_code == 0);
}

TEST_CASE("ga-run: temporaries left by a killed writer are removed, a live one's kept", "[ga-run][output]") {
  scratch_dir dir;
  // pid 999999999 is beyond Linux's pid_max (2^22): no such process
  dir.write("r.json.tmp.999999999.AbC123", "half a file");
  const std::string live = "r.json.tmp." + std::to_string(::getpid()) + ".XyZ789";
  dir.write(live, "being written");
  dir.write("r.json.tmp.note", "not ours");
  const outcome r = ga_run(dir, "-q --set ga.generations=2 --set ga.population=50 --out " + (dir / "r.json").string());
  REQUIRE(r.exit_code == 0);
  CHECK(fs::exists(dir / "r.json"));
  CHECK_FALSE(fs::exists(dir / "r.json.tmp.999999999.AbC123"));
  CHECK(fs::exists(dir / live));
  CHECK(fs::exists(dir / "r.json.tmp.note"));
}

TEST_CASE("ga-run: nested reductions beyond the work limit are a located exit 2", "[ga-run][expression]") {
  scratch_dir dir;
  // The issue's case validated and never finished a generation; now it is rejected before the first.
  dir.write("work.yaml",
            "problem:\n  variables: {x: [0, 1]}\n  objective: sum(i=0:100000, sum(j=0:100000, x))\n"
            "  engine: interpreter\nga: {population: 10, generations: 1}\nbackend: serial\n");
  const outcome r = ga_run(dir, (dir / "work.yaml").string() + " --quiet --out " + (dir / "r.json").string());
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("work.yaml:3:14: problem.objective: 'sum(i=0:100000, ...)' runs 10000300002 loop "
                                    "iterations per individual") &&
                        Catch::Contains("the limit is 10000000 per individual"));
  CHECK_FALSE(fs::exists(dir / "r.json"));
}

TEST_CASE("ga-run: a run at the reduction work limit still stops on Ctrl-C", "[ga-run][expression]") {
  scratch_dir dir;
  // 1000 * (1 + 9999) = 10^7 iterations per individual, the most allowed: a generation of 200 individuals is
  // a few seconds, so SIGINT lands inside one and the run must end with it.
  dir.write("limit.yaml",
            "problem:\n  variables: {x: [0, 1]}\n  objective: sum(i=0:999, sum(j=0:9998, x*sin(i + j)))\n"
            "  engine: interpreter\nga: {population: 200, generations: 100000000}\nbackend: serial\n");
  const std::string config = (dir / "limit.yaml").string();
  const std::string out = (dir / "r.json").string();
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::freopen("/dev/null", "w", stdout);
    ::freopen("/dev/null", "w", stderr);
    ::execl(FUSEDGA_GA_RUN, FUSEDGA_GA_RUN, config.c_str(), "--out", out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  const auto j = nlohmann::json::parse(slurp(out));
  CHECK(j["stop_reason"] == "interrupted");
}

TEST_CASE("ga-run: constraints too large to differentiate are a config error that says to turn the repair off",
          "[ga-run][errors]") {
  // 40,002 operations × 20,000 genes is over the symbolic Jacobian's 4·10⁸ (its dependency bitsets); auto's
  // repair (0.2 on a constrained problem) needs it. It was exit 1, "use finite differences", which no setting gives.
  scratch_dir dir;
  dir.write("big.yaml", R"(problem:
  variables: {v: {size: 20000, bounds: [0, 1]}}
  objective: "v[0]"
  constraints: ["sum(i=0:19999, v[i]) <= 1"]
  engine: interpreter
stop: {evaluations: 200}
)");
  const outcome r = ga_run(dir, (dir / "big.yaml").string() + " -q");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("ga.constraint_handling.gradient_repair: Jacobian: constraints too large to "
                                    "differentiate symbolically (40002 operations × 20000 genes); the repair needs "
                                    "it: set gradient_repair.rate: 0"));
  CHECK(
      ga_run(dir, (dir / "big.yaml").string() + " -q --set ga.constraint_handling.gradient_repair.rate=0").exit_code ==
      0);
}

TEST_CASE("ga-run: an output that is a symbolic link or a device is written through it, not replaced",
          "[ga-run][output]") {
  // A rename over the path replaced the link by a file (its target untouched) and /dev/null by a regular file.
  scratch_dir dir;
  dir.write("target.json", "old");
  fs::create_symlink(dir / "target.json", dir / "link.json");
  const outcome r = ga_run(dir, "-q --set ga.generations=2 --set ga.population=50 --out " +
                                    (dir / "link.json").string() + " --history /dev/null");
  REQUIRE(r.exit_code == 0);
  CHECK(fs::is_symlink(dir / "link.json"));
  CHECK(nlohmann::json::parse(slurp(dir / "target.json")).contains("best"));
  CHECK(fs::is_character_file("/dev/null"));
  // A dangling link is refused before the run.
  fs::create_symlink(dir / "missing" / "x.json", dir / "dangling.json");
  const outcome bad = ga_run(dir, "-q --set ga.generations=2 --out " + (dir / "dangling.json").string());
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("following the symbolic link"));
}
