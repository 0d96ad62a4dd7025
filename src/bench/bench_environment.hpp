#pragma once
/// @file bench_environment.hpp
/// Describes the machine and build a benchmark runs on.

#include <string>

#include "bench/bench_record.hpp"

namespace fusedga {

/// CPU model, logical core count, compiler and build flags, SIMD level,
/// memory, GPU, UTC date and library versions (copy bandwidth and peak
/// FLOP/s are filled in by the runner). Reads /proc/cpuinfo and /proc/meminfo; never throws.
bench_environment probe_environment();

/// The "model name" of the first processor in /proc/cpuinfo, or "unknown".
std::string cpu_model_name();

/// MemTotal of /proc/meminfo in bytes, or 0 when unknown.
unsigned long long total_memory_bytes();

/// The widest SIMD extension this build of the library targets (compiler macros), e.g. "AVX2 + FMA".
std::string build_simd_level();

/// Bytes of memory available for new allocations (MemAvailable of
/// /proc/meminfo), or 0 when unknown.
unsigned long long available_memory_bytes();

}  // namespace fusedga
