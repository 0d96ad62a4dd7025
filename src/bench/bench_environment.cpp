#include "bench/bench_environment.hpp"

#include <gnu/libc-version.h>
#include <sched.h>

#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <tbb/version.h>

#include "fusedga/core/macros.hpp"

namespace fusedga {

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto first = line.find_first_not_of(" \t", colon + 1);
    return first == std::string::npos ? "unknown" : line.substr(first);
  }
  return "unknown";
}

unsigned long long available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  unsigned long long kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024ull;
  return 0;
}

unsigned long long total_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  unsigned long long kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemTotal:") return kib * 1024ull;
  return 0;
}

std::string build_simd_level() {
  // What this translation unit was compiled for: the runtime library shares the
  // apps' flags (fusedga_build_flags, -march=native by default).
#if defined(__AVX512F__)
  return "AVX-512F (+AVX2, FMA)";
#elif defined(__AVX2__) && defined(__FMA__)
  return "AVX2 + FMA";
#elif defined(__AVX2__)
  return "AVX2";
#elif defined(__AVX__)
  return "AVX";
#elif defined(__SSE4_2__)
  return "SSE4.2";
#elif defined(__SSE2__)
  return "SSE2";
#elif defined(__ARM_NEON)
  return "NEON";
#else
  return "none (scalar)";
#endif
}

namespace {
std::string compiler_string() {
#if defined(__clang__)
  return std::string("clang ") + __VERSION__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#elif defined(__VERSION__)
  return __VERSION__;
#else
  return "unknown";
#endif
}

int logical_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  return static_cast<int>(std::thread::hardware_concurrency());
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}
}  // namespace

bench_environment probe_environment() {
  bench_environment env;
  env.cpu_model = cpu_model_name();
  env.cores = logical_cpus();
  env.compiler = compiler_string();
  env.date_utc = utc_now();
  env.fusedga_version = FUSEDGA_VERSION_STRING;
  env.simd_level = build_simd_level();
  env.memory_bytes = total_memory_bytes();
  // The CUDA backend is not part of this build (DESIGN.md, "Backends and the GPU").
  env.gpu = "none: no GPU backend in this build";
#ifdef FUSEDGA_BUILD_FLAGS
  env.compiler_flags = FUSEDGA_BUILD_FLAGS;
#else
  env.compiler_flags = "unknown";
#endif
  env.libraries["FusedGA"] = FUSEDGA_VERSION_STRING;
  env.libraries["oneTBB"] = TBB_runtime_version();
  env.libraries["fmt"] = fmt::format("{}.{}.{}", FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100);
  env.libraries["nlohmann_json"] = fmt::format("{}.{}.{}", NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
                                               NLOHMANN_JSON_VERSION_PATCH);
  env.libraries["glibc"] = gnu_get_libc_version();
  return env;
}

}  // namespace fusedga
