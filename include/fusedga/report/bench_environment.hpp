#pragma once
/// @file bench_environment.hpp
/// Describes the machine and build a benchmark runs on.

#include <string>

#include "fusedga/report/bench_record.hpp"

namespace fusedga {

/// CPU model, logical core count, compiler, UTC date and library version
/// (copy bandwidth is filled in by the runner). Reads /proc/cpuinfo; never throws.
bench_environment probe_environment();

/// The "model name" of the first processor in /proc/cpuinfo, or "unknown".
std::string cpu_model_name();

/// Bytes of memory available for new allocations (MemAvailable of
/// /proc/meminfo), or 0 when unknown.
unsigned long long available_memory_bytes();

}  // namespace fusedga
