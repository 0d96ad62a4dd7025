#include "fusedga/report/stream_copy.hpp"

#include <unistd.h>

#include <algorithm>
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

std::size_t default_stream_array_bytes() {
  std::size_t bytes = std::size_t(256) << 20;
#ifdef _SC_LEVEL3_CACHE_SIZE
  const long llc = ::sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (llc > 0) bytes = std::max(bytes, 4 * static_cast<std::size_t>(llc));
#endif
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
