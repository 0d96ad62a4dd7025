#pragma once
// Test helper of the JIT tests (CPU: tests/expr, GPU: tests/cuda): a fresh
// cache directory under the system temp area, removed afterwards.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

#include <fusedga/expr/jit.hpp>

namespace expr_test {

struct temp_cache {
  std::filesystem::path path;
  temp_cache() {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("fusedga-jit-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path);
  }
  ~temp_cache() {
    std::error_code ec;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(path, ec);
  }
  temp_cache(const temp_cache&) = delete;
  temp_cache& operator=(const temp_cache&) = delete;
  /// The cache directory (not yet created: the JITs create it private).
  std::string dir() const { return (path / "cache").string(); }
  fusedga::expr::jit_options options() const {
    fusedga::expr::jit_options o;
    o.cache_dir = dir();
    return o;
  }
};

}  // namespace expr_test
