#include "bench/stream_copy.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "fusedga/core/aligned_buffer.hpp"
#include "fusedga/core/error.hpp"

namespace fusedga {

std::size_t last_level_cache_bytes() {
  // sysfs describes each cache instance this machine exposes; sum the distinct
  // highest-level ones (one per CCD/socket). glibc's sysconf value can be the
  // whole socket's L3 under a hypervisor, so it is only the fallback.
  namespace fs = std::filesystem;
  int best_level = 0;
  std::map<std::string, std::size_t> instances;  // shared_cpu_list -> bytes
  std::error_code ec;
  for (const auto& cpu : fs::directory_iterator("/sys/devices/system/cpu", ec)) {
    const std::string name = cpu.path().filename().string();
    if (name.rfind("cpu", 0) != 0 || name.size() < 4 || !std::isdigit(static_cast<unsigned char>(name[3]))) continue;
    for (const auto& index : fs::directory_iterator(cpu.path() / "cache", ec)) {
      int level = 0;
      std::string type, size, shared;
      std::ifstream(index.path() / "level") >> level;
      std::ifstream(index.path() / "type") >> type;
      std::ifstream(index.path() / "size") >> size;
      std::ifstream(index.path() / "shared_cpu_list") >> shared;
      if (type == "Instruction" || size.empty() || level < best_level) continue;
      std::size_t bytes = std::strtoull(size.c_str(), nullptr, 10);
      if (size.back() == 'K') bytes <<= 10;
      if (size.back() == 'M') bytes <<= 20;
      if (level > best_level) {
        best_level = level;
        instances.clear();
      }
      instances[shared] = bytes;
    }
  }
  std::size_t total = 0;
  for (const auto& [shared, bytes] : instances) total += bytes;
  if (total > 0) return total;
#ifdef _SC_LEVEL3_CACHE_SIZE
  const long llc = ::sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (llc > 0) return static_cast<std::size_t>(llc);
#endif
  return 0;
}

std::size_t default_stream_array_bytes() {
  const std::size_t bytes = std::max(std::size_t(256) << 20, 4 * last_level_cache_bytes());
  return bytes / sizeof(double) * sizeof(double);
}

copy_bandwidth measure_copy_bandwidth(int threads, std::size_t array_bytes, int trials) {
  if (threads < 1) throw error("measure_copy_bandwidth: threads must be >= 1, got " + std::to_string(threads));
  if (trials < 1) throw error("measure_copy_bandwidth: trials must be >= 1, got " + std::to_string(trials));
  if (array_bytes == 0) array_bytes = default_stream_array_bytes();
  const std::size_t n = array_bytes / sizeof(double);
  if (n == 0) throw error("measure_copy_bandwidth: array of " + std::to_string(array_bytes) + " bytes holds no double");

  detail::aligned_buffer<double> a(n), c(n);
  double* pa = a.data();
  double* pc = c.data();
  // One contiguous slice per thread, the same slices for first touch and copy
  // (static_partitioner maps slice s to the same worker both times).
  const std::size_t slices = static_cast<std::size_t>(threads);
  const auto slice = [n, slices](std::size_t s, std::size_t& begin, std::size_t& end) {
    begin = n * s / slices;
    end = n * (s + 1) / slices;
  };
  ::tbb::task_arena arena(threads);
  const auto for_slices = [&](auto&& body) {
    arena.execute([&] {
      ::tbb::parallel_for(
          ::tbb::blocked_range<std::size_t>(0, slices, 1),
          [&](const ::tbb::blocked_range<std::size_t>& r) {
            for (std::size_t s = r.begin(); s != r.end(); ++s) {
              std::size_t b, e;
              slice(s, b, e);
              body(b, e);
            }
          },
          ::tbb::static_partitioner{});
    });
  };
  for_slices([&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      pa[i] = 1.0;
      pc[i] = 0.0;
    }
  });

  double best = 0;
  for (int t = 0; t < trials; ++t) {
    const auto t0 = std::chrono::steady_clock::now();
    for_slices([&](std::size_t b, std::size_t e) { std::memcpy(pc + b, pa + b, (e - b) * sizeof(double)); });
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s > 0) best = std::max(best, 2.0 * static_cast<double>(n * sizeof(double)) / s / 1e9);
  }
  // Keep the copy observable.
  if (pc[n / 2] != 1.0) throw error("measure_copy_bandwidth: copy check failed");
  return {best, n * sizeof(double), threads, trials};
}

}  // namespace fusedga
