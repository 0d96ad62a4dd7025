#pragma once
/// @file bench_timer.hpp
/// Repeats a workload until enough samples and enough time are collected.

#include <cstddef>
#include <functional>
#include <vector>

namespace fusedga {

/// How many times a workload is timed.
struct repeat_policy {
  int warmup = 1;                      ///< untimed calls first, >= 0
  int min_repeats = 5;                 ///< timed calls at least, >= 1
  double min_time_s = 0.2;             ///< and until the timed calls add up to this many seconds
  std::size_t max_repeats = 1000000;   ///< but never more than this many timed calls
};

/**
 * Calls `work` `policy.warmup` times untimed, then times single calls with
 * std::chrono::steady_clock until at least `min_repeats` were timed and their
 * sum reaches `min_time_s` (or `max_repeats` is hit). Returns each call's
 * duration in seconds, in call order. Exceptions from `work` propagate.
 */
std::vector<double> time_repeats(const std::function<void()>& work, const repeat_policy& policy);

}  // namespace fusedga
