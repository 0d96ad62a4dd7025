#pragma once
// Hand-built ga-bench reports and small file helpers for the report tests:
// the report code is tested on known numbers, without timing anything.

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_record.hpp"

namespace report_test {

namespace fs = std::filesystem;

/// A row with the measured fields set; bytes by the evaluation model for d = 3 doubles (48 per individual).
inline fusedga::bench_row row(const std::string& tier, const std::string& workload, const std::string& backend,
                              int threads, std::size_t n, double median_ms, double spread = 0.1) {
  fusedga::bench_row r;
  r.tier = fusedga::parse_bench_tier(tier);
  r.workload = fusedga::parse_bench_workload(workload);
  r.backend = fusedga::parse_bench_backend(backend);
  r.threads = threads;
  r.population = n;
  r.repeats = 5;
  r.median_ms = median_ms;
  r.min_ms = median_ms * (1 - spread / 2);
  r.max_ms = median_ms * (1 + spread / 2);
  r.p10_ms = r.min_ms;  // so the spread is `spread`
  r.p90_ms = r.max_ms;
  r.individuals_per_s = double(n) / (median_ms * 1e-3);
  r.bytes = (r.workload == fusedga::bench_workload::eval ? 48 : 120) * std::uint64_t(n);
  r.gb_per_s = double(r.bytes) / (median_ms * 1e-3) / 1e9;
  r.copy_gb_per_s = threads >= 2 ? 30 : 20;
  r.copy_fraction = r.gb_per_s / r.copy_gb_per_s;
  return r;
}

/// A constrained-quadratic-like report: object, unfused, fused serial and fused TBB ×1/×2, at N = 100 and 10,000;
/// 24 flop per evaluation; copy 20/30 GB/s and peak 50/100 GFLOP/s at 1/2 threads.
inline fusedga::bench_report tiny_report() {
  fusedga::bench_report r;
  r.problem = "seed/constrained-quadratic";
  r.source = "<builtin>";
  r.precision = "double";
  r.dimension = 3;
  r.gene_bytes = r.fitness_bytes = r.key_bytes = 8;
  r.tournament_size = 2;
  r.elitism = 2;
  r.warmup = 1;
  r.min_repeats = 5;
  r.min_time_s = 0.2;
  r.flops_per_evaluation = 24;
  r.flops_basis = "objective 13, constraints 7, violation 4";
  auto& e = r.environment;
  e.cpu_model = "Test CPU";
  e.cores = 2;
  e.compiler = "GCC 12";
  e.compiler_flags = "Release: -O3 -DNDEBUG -march=native";
  e.simd_level = "AVX2 + FMA";
  e.memory_bytes = 24ull << 30;
  e.gpu = "none: no GPU backend in this build";
  e.date_utc = "2024-05-01T12:00:00Z";
  e.fusedga_version = "0.1.0";
  e.libraries = {{"oneTBB", "2021.8"}, {"fmt", "9.1.0"}};
  e.copy_gb_per_s = {{1, 20.0}, {2, 30.0}};
  e.peak_gflop_per_s = {{1, 50.0}, {2, 100.0}};
  e.copy_array_bytes = 1 << 20;
  for (const std::size_t n : {std::size_t(100), std::size_t(10000)}) {
    const double k = double(n) / 100;
    r.rows.push_back(row("object", "eval", "serial", 1, n, 0.004 * k));
    r.rows.push_back(row("unfused", "eval", "serial", 1, n, 0.01 * k));
    r.rows.push_back(row("fused", "eval", "serial", 1, n, 0.0005 * k));
    r.rows.push_back(row("fused", "generation", "serial", 1, n, 0.008 * k));
    r.rows.push_back(row("fused", "eval", "tbb", 1, n, 0.0006 * k));
    r.rows.push_back(row("fused", "generation", "tbb", 1, n, 0.009 * k));
    // Two threads lose at N = 100 (waking threads) and win at 10,000; noisy at 100.
    r.rows.push_back(row("fused", "eval", "tbb", 2, n, n == 100 ? 0.002 : 0.0003 * k, n == 100 ? 0.6 : 0.1));
    r.rows.push_back(row("fused", "generation", "tbb", 2, n, n == 100 ? 0.02 : 0.0045 * k));
  }
  r.notes = {"N = 100: unfused objective and violation match the fused evaluation"};
  return r;
}

/// `tiny_report()` with CUDA rows (hand-picked): device-resident evaluation 20 µs at N = 100 (slower than the CPU)
/// and 10 µs at 10,000 (3x faster than TBB x2's 30 µs); with transfers 50 / 200 µs (never faster); generations
/// 50 / 90 µs resident, 100 / 600 µs with transfers; device copy bandwidth 2,000 GB/s.
inline fusedga::bench_report tiny_report_with_gpu() {
  fusedga::bench_report r = tiny_report();
  r.environment.gpu = "NVIDIA Test GPU (compute 9.0), driver CUDA 12.4";
  const auto add = [&](const char* tier, const char* workload, std::size_t n, double ms) {
    fusedga::bench_row x = row(tier, workload, "cuda", 1, n, ms);
    x.copy_gb_per_s = x.tier == fusedga::bench_tier::fused ? 2000 : 0;
    x.copy_fraction = x.copy_gb_per_s > 0 ? x.gb_per_s / x.copy_gb_per_s : 0;
    r.rows.push_back(x);
  };
  for (const std::size_t n : {std::size_t(100), std::size_t(10000)}) {
    const bool small = n == 100;
    add("fused", "eval", n, small ? 0.02 : 0.01);
    add("fused-transfer", "eval", n, small ? 0.05 : 0.2);
    add("fused", "generation", n, small ? 0.05 : 0.09);
    add("fused-transfer", "generation", n, small ? 0.1 : 0.6);
  }
  return r;
}

/// A fresh directory per test, removed afterwards.
struct scratch_dir {
  fs::path path;
  scratch_dir() {
    path = fs::temp_directory_path() / ("fusedga-report-test-" + std::to_string(::getpid()) + "-" +
                                         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::create_directories(path);
  }
  ~scratch_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  fs::path operator/(const std::string& name) const { return path / name; }
};

inline std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// RFC 4180 CSV into rows of fields (quoted fields, doubled quotes, no embedded newlines needed here).
inline std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields{""};
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted) {
        if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
          fields.back() += '"';
          ++i;
        } else if (c == '"') {
          quoted = false;
        } else {
          fields.back() += c;
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        fields.emplace_back();
      } else {
        fields.back() += c;
      }
    }
    rows.push_back(fields);
  }
  return rows;
}

}  // namespace report_test
