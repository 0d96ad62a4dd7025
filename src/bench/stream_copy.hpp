#pragma once
/// @file stream_copy.hpp
/// This machine's copy bandwidth, measured in-process the way STREAM's
/// "Copy" kernel does (McCalpin, "Memory Bandwidth and Machine Balance in
/// Current High Performance Computers", IEEE TCCA Newsletter, 1995): the
/// roofline against which ga-bench states the bandwidth its passes achieve.

#include <cstddef>

namespace fusedga {

/// Result of a copy-bandwidth measurement.
struct copy_bandwidth {
  double gb_per_s = 0;         ///< best trial, 10^9 bytes/s, counting read + write (2 × array bytes)
  std::size_t array_bytes = 0; ///< bytes of each of the two arrays
  int threads = 1;             ///< TBB threads that copied
  int trials = 0;              ///< trials run (the best is reported)
};

/// Bytes of last-level cache on this machine: the sum of the distinct
/// highest-level cache instances in /sys/devices/system/cpu (sysconf as a
/// fallback), 0 when unknown.
std::size_t last_level_cache_bytes();

/// Default array size: max(256 MiB, 4 × last_level_cache_bytes()), in bytes, rounded to whole doubles.
std::size_t default_stream_array_bytes();

/**
 * Copies one array of doubles into another, `trials` times, with `threads`
 * TBB threads (each a static, contiguous slice, first touched by the same
 * partition) and returns the best trial's bandwidth = 2·array_bytes / time.
 * The copy is memcpy per slice, as GCC turns STREAM's copy loop into at -O3
 * (glibc uses non-temporal stores for large copies, so this is an upper bound
 * for passes with ordinary stores). Allocates 2 × `array_bytes` for the call.
 *
 * @param threads      >= 1
 * @param array_bytes  bytes per array; 0 = default_stream_array_bytes()
 * @param trials       >= 1
 * @throws error for invalid arguments; std::bad_alloc.
 */
copy_bandwidth measure_copy_bandwidth(int threads, std::size_t array_bytes = 0, int trials = 5);

}  // namespace fusedga
