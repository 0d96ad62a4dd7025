#pragma once
// Runs ga-run end to end from a test: a scratch directory per test and the
// exit code, stdout and stderr of one run (tests/apps/*.cpp).
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include "test_paths.hpp"  // FUSEDGA_SOURCE_DIR, FUSEDGA_BINARY_DIR, FUSEDGA_GA_RUN, FUSEDGA_GA_BENCH

namespace fs = std::filesystem;

namespace fusedga::test {

struct outcome {
  int exit_code;
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// A fresh directory per test, removed afterwards.
struct scratch_dir {
  fs::path path;
  scratch_dir() {
    path = fs::temp_directory_path() / ("fusedga-test-" + std::to_string(::getpid()) + "-" +
                                         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::create_directories(path);
  }
  ~scratch_dir() { fs::remove_all(path); }
  fs::path operator/(const std::string& name) const { return path / name; }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
};

/// Runs ga-run with `args`; `env` (e.g. "XDG_CACHE_HOME=/tmp/x") is put before the command.
inline outcome ga_run(const scratch_dir& dir, const std::string& args, const std::string& env = "") {
  const std::string cmd = env + " " + std::string(FUSEDGA_GA_RUN) + " " + args + " > " + (dir / "stdout").string() + " 2> " +
                          (dir / "stderr").string();
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "stdout"), slurp(dir / "stderr")};
}

}  // namespace fusedga::test
