#pragma once
/// @file memory_estimate.hpp
/// The host memory a CPU run needs, estimated before anything is allocated,
/// and the check that turns "does not fit" into a clear error naming what was
/// asked, what it needs and what fits (instead of std::bad_alloc, or the OOM
/// killer once the pages are touched).

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>

#include "fusedga/core/error.hpp"

namespace fusedga::detail {

/// Sizes of one run's per-individual elements, bytes.
struct host_run_shape {
  std::size_t population = 0;  ///< N
  int dimension = 0;           ///< d
  std::size_t gene_bytes = 0, fitness_bytes = 0, key_bytes = 0;
  std::size_t elitism = 0;
  int generations = 0;  ///< history rows reserved up front: min(generations + 1, 2^16)
  /// Population-batch problems (`evaluate_population`): scratch bytes per individual, (m + p) constraint
  /// values, plus F and CR (two doubles) under DE; 0 otherwise.
  std::size_t batch_row_bytes = 0;
};

/**
 * Host bytes the CPU executor and engine allocate for `s` (cpu_executor.hpp,
 * engine.hpp): two populations of (N+1)·d genes and (N+1) objectives,
 * violations and rank keys (double buffering), per-tile totals and elite
 * candidates (tiles of 64 slots), the history reserved up front, and a population-batch problem's
 * scratch (constraint values, DE's F and CR) for N + 1 individuals. Computed
 * in long double, so absurd sizes give a huge number, never a wrapped one. Pure.
 */
inline long double host_run_bytes(const host_run_shape& s) {
  const long double n1 = static_cast<long double>(s.population) + 1;
  const long double row = static_cast<long double>(s.dimension) * s.gene_bytes + 2.0L * s.fitness_bytes + s.key_bytes;
  const long double tiles = (static_cast<long double>(s.population) + 63) / 64;
  const long double capacity = std::min<long double>(std::max<std::size_t>(s.elitism, 1), 64);
  const long double history = std::min<long double>(static_cast<long double>(s.generations) + 1, 65536.0L) * 64;
  return 2 * n1 * row + tiles * (16 + 16 * capacity) + 16.0L * s.elitism + history +
         n1 * static_cast<long double>(s.batch_row_bytes);
}

/// Memory this process can still allocate, bytes, and where that figure comes from.
struct host_memory_limit {
  std::size_t bytes = std::numeric_limits<std::size_t>::max();  ///< max() when nothing could be read
  std::string source;                                            ///< e.g. "MemAvailable", "cgroup memory.max"
};

namespace memory_detail {
/// The number after `key` in a /proc-style "key: value kB" file, in bytes; 0 when absent.
inline std::size_t proc_kib(const char* path, const std::string& key) {
  std::ifstream f(path);
  std::string k;
  std::size_t v = 0;
  while (f >> k) {
    if (k == key && f >> v) return v * 1024;
    f.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}
/// The single number in a cgroup file ("max" or unreadable: max()).
inline std::size_t cgroup_value(const char* path) {
  std::ifstream f(path);
  std::string text;
  if (!(f >> text) || text == "max") return std::numeric_limits<std::size_t>::max();
  try {
    return static_cast<std::size_t>(std::stoull(text));
  } catch (...) {
    return std::numeric_limits<std::size_t>::max();
  }
}
}  // namespace memory_detail

/**
 * The smallest of: the system's MemAvailable (Linux /proc/meminfo), the
 * cgroup v2 limit less its current usage, and the address-space limit
 * (RLIMIT_AS, `ulimit -v`) less this process's VmSize. Reads a few small
 * files; thread-safe. Outside Linux, sysconf's available pages.
 */
inline host_memory_limit available_host_memory() {
  host_memory_limit out;
  const auto take = [&](std::size_t bytes, const char* source) {
    if (bytes < out.bytes) out = {bytes, source};
  };
  if (const std::size_t avail = memory_detail::proc_kib("/proc/meminfo", "MemAvailable:"))
    take(avail, "available memory (MemAvailable)");
#if defined(_SC_AVPHYS_PAGES)
  else if (const long pages = ::sysconf(_SC_AVPHYS_PAGES); pages > 0)
    take(static_cast<std::size_t>(pages) * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)), "free memory");
#endif
  const std::size_t cg_max = memory_detail::cgroup_value("/sys/fs/cgroup/memory.max");
  if (cg_max != std::numeric_limits<std::size_t>::max()) {
    const std::size_t used = memory_detail::cgroup_value("/sys/fs/cgroup/memory.current");
    take(used < cg_max ? cg_max - used : 0, "the cgroup's memory limit (memory.max less memory.current)");
  }
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const std::size_t used = memory_detail::proc_kib("/proc/self/status", "VmSize:");
    const auto limit = static_cast<std::size_t>(as.rlim_cur);
    take(used < limit ? limit - used : 0, "the address-space limit (ulimit -v, less what this process maps)");
  }
  return out;
}

/// `bytes` as "1.50 GiB" / "12.0 MiB" / "512 B".
inline std::string byte_text(long double bytes) {
  char text[64];
  if (bytes >= 1024.0L * 1024 * 1024)
    std::snprintf(text, sizeof text, "%.2Lf GiB", bytes / (1024.0L * 1024 * 1024));
  else if (bytes >= 1024.0L * 1024)
    std::snprintf(text, sizeof text, "%.1Lf MiB", bytes / (1024.0L * 1024));
  else
    std::snprintf(text, sizeof text, "%.0Lf B", bytes);
  return text;
}

/**
 * Checks that a CPU run of shape `s` fits in `limit` (available_host_memory()).
 * @throws config_error naming the population and genes asked for, the bytes
 *         they need, the bytes available (and from where) and the largest
 *         population that fits at this dimension (exit 2 in the apps).
 */
inline void check_host_memory(const host_run_shape& s, const host_memory_limit& limit) {
  const long double need = host_run_bytes(s);
  if (need <= static_cast<long double>(limit.bytes)) return;
  host_run_shape one = s;
  one.population = 0;
  const long double fixed = host_run_bytes(one);
  one.population = 1;
  const long double per = host_run_bytes(one) - fixed;  // bytes per further individual (≈ 2 rows + summaries)
  const long double room = static_cast<long double>(limit.bytes) - fixed;
  const long double fits = room > 0 ? room / per : 0;
  char fit_text[32];
  std::snprintf(fit_text, sizeof fit_text, "%.0Lf", std::max<long double>(fits, 0));
  throw config_error("ga.population = " + std::to_string(s.population) + " with " + std::to_string(s.dimension) +
                     " genes of " + std::to_string(s.gene_bytes) + " bytes needs " + byte_text(need) +
                     " of host memory (two populations for double buffering, plus objective, violation and rank key "
                     "per individual), but " + limit.source + " is " + byte_text(limit.bytes) + ": at most " +
                     fit_text + " individuals fit at this dimension");
}

/// Runs needing less host memory than this are not checked: reading /proc/meminfo costs ~15 µs, a quarter of a
/// small problem's whole time to target (docs/quality.md, rc31), and a machine that runs anything has this much.
inline constexpr long double unchecked_host_bytes = 16.0L * 1024 * 1024;

/// check_host_memory against available_host_memory(), read only when `s` needs unchecked_host_bytes or more.
/// @throws config_error as check_host_memory.
inline void check_host_memory(const host_run_shape& s) {
  if (host_run_bytes(s) < unchecked_host_bytes) return;
  check_host_memory(s, available_host_memory());
}

}  // namespace fusedga::detail
