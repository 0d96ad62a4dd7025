// ga-run and the CPU JIT, end to end (issue 16, items 7, 9 and 13): concurrent
// compiles into one cache, Ctrl-C during a compile, and the size bound of
// engine: auto.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "apps/ga_run_harness.hpp"
#include "expr/jit_cache.hpp"
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

namespace fs = std::filesystem;
using namespace fusedga::test;

namespace {

const std::string quadratic = std::string(FUSEDGA_SOURCE_DIR) + "/configs/expr-seed-constrained-quadratic.yaml";

/// An expression problem with `n` constraints over 50 genes (about 11 expression nodes per constraint).
std::string many_constraints(int n, const std::string& engine) {
  std::ostringstream c;
  for (int i = 0; i < n; ++i)
    c << (i ? ", " : "") << "\"x[" << i % 50 << "]*x[" << (i + 1) % 50 << "] + sin(x[" << (i + 7) % 50
      << "]) <= " << i % 5 + 1 << "\"";
  return "problem:\n  name: expr/many-constraints\n  sense: minimize\n"
         "  variables: {x: {size: 50, bounds: [-2, 2]}}\n  objective: \"sum(i=0:49, x[i]^2)\"\n"
         "  constraints: [" +
         c.str() + "]\n  engine: " + engine +
         "\n"
         "ga: {population: 64, generations: 2, seed: 1}\nbackend: tbb\nthreads: 1\n";
}

/// Whether a child of `parent` compiles the JIT's source (from /proc/*/stat and cmdline): the compile itself, not
/// the compiler's --version run before it.
bool compiling(pid_t parent) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const std::size_t close = line.rfind(')');  // the command name may hold spaces and parentheses
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state = 0;
    long ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent && slurp(e.path() / "cmdline").find("fusedga_jit.cpp") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("ga-run: concurrent compiles of one expression publish one object matching its digest", "[ga-run][jit]") {
  scratch_dir dir;
  const std::string cache = (dir / "cache").string();
  std::string cmd;
  for (int i = 0; i < 4; ++i)
    cmd += "(XDG_CACHE_HOME=" + cache + " " + FUSEDGA_GA_RUN + " " + quadratic +
           " -q --set ga.algorithm=ga --set ga.generations=1 --set ga.population=64 --backend tbb > " +
           (dir / ("out" + std::to_string(i))).string() + " 2>&1; echo $? > " +
           (dir / ("rc" + std::to_string(i))).string() + ") & ";
  cmd += "wait";
  REQUIRE(std::system(cmd.c_str()) == 0);
  for (int i = 0; i < 4; ++i) {
    INFO(slurp(dir / ("out" + std::to_string(i))));
    CHECK(slurp(dir / ("rc" + std::to_string(i))) == "0\n");
  }
  std::vector<fs::path> objects, digests, others;
  for (const auto& e : fs::directory_iterator(fs::path(cache) / "fusedga"))
    (e.path().extension() == ".so"       ? objects
     : e.path().extension() == ".sha256" ? digests
                                         : others)
        .push_back(e.path());
  REQUIRE(objects.size() == 1);
  REQUIRE(digests.size() == 1);
  CHECK(others.empty());  // no compile temporaries left
  const std::string bytes = slurp(objects[0]);
  CHECK(slurp(digests[0]) == fusedga::expr::detail::sha256_hex(bytes) + "\n");
  CHECK(bytes.find(".tmp-") == std::string::npos);
  // The next run loads it: the file is not replaced.
  struct stat before {
  }, after{};
  REQUIRE(::stat(objects[0].c_str(), &before) == 0);
  const outcome again = ga_run(dir, quadratic + " -q --set ga.generations=1 --backend tbb", "XDG_CACHE_HOME=" + cache);
  CHECK(again.exit_code == 0);
  REQUIRE(::stat(objects[0].c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
}

TEST_CASE("ga-run: Ctrl-C during a JIT compile exits 130 and says it was interrupted", "[ga-run][jit]") {
  scratch_dir dir;
  dir.write("big.yaml", many_constraints(150, "jit"));  // a compile of several seconds
  const std::string config = (dir / "big.yaml").string(), err = (dir / "stderr").string();
  const std::string cache = "XDG_CACHE_HOME=" + (dir / "cache").string();
  for (const bool whole_group : {false, true}) {
    INFO((whole_group ? "SIGINT to the process group, as a terminal sends it" : "SIGINT to ga-run only"));
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::setpgid(0, 0);
      ::putenv(const_cast<char*>(cache.c_str()));
      ::freopen("/dev/null", "w", stdout);
      ::freopen(err.c_str(), "w", stderr);
      ::execl(FUSEDGA_GA_RUN, FUSEDGA_GA_RUN, config.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // Wait until the compiler runs (ga-run's child), then interrupt.
    const auto t0 = std::chrono::steady_clock::now();
    bool started = false;
    while (!started && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30)) {
      started = compiling(pid);
      if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(started);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ::kill(whole_group ? -pid : pid, SIGINT);
    const auto t1 = std::chrono::steady_clock::now();
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() - t1 > std::chrono::seconds(20)) {
        ::kill(-pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        FAIL("ga-run did not stop within 20 s of SIGINT");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 130);
    const std::string message = slurp(err);
    CHECK_THAT(message, Catch::Contains("interrupted while compiling the generated problem"));
    CHECK_THAT(message, !Catch::Contains("failed"));
    for (const auto& e : fs::directory_iterator(dir / "cache" / "fusedga"))  // the compile's temporaries are gone
      CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
  }
}

TEST_CASE("ga-run: engine auto runs the interpreter above the JIT's size limit and says so", "[ga-run][jit]") {
  scratch_dir dir;
  dir.write("big.yaml", many_constraints(400, "auto"));
  const std::string config = (dir / "big.yaml").string(), cache = "XDG_CACHE_HOME=" + dir.path.string();
  const outcome explained = ga_run(dir, config + " --explain", cache);
  REQUIRE(explained.exit_code == 0);
  CHECK_THAT(explained.out, Catch::Contains("engine       interpreter (auto: ") &&
                                Catch::Contains(" expression nodes, over the JIT's auto limit of 600"));
  const outcome run = ga_run(dir, config, cache);
  CHECK(run.exit_code == 0);
  CHECK_THAT(run.err, Catch::StartsWith("problem.engine: using the interpreter (auto: ") &&
                          Catch::Contains("over the JIT's auto limit of 600"));
  CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(dir / "fusedga"));  // nothing compiled
  // engine: jit still compiles such a problem, warned; a small problem on auto is the JIT's.
  const outcome jit = ga_run(dir, config + " --explain --set problem.engine=jit", cache);
  CHECK_THAT(jit.out, Catch::Contains("the compile may take minutes"));
  dir.write("small.yaml", many_constraints(20, "auto"));
  const outcome small = ga_run(dir, (dir / "small.yaml").string() + " --explain", cache);
  CHECK_THAT(small.out, Catch::Contains("engine       jit (auto: C++ compiler"));
}
