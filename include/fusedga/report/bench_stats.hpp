#pragma once
/// @file bench_stats.hpp
/// Summary statistics of repeated timings.

#include <cstddef>
#include <vector>

namespace fusedga {

/// Median, minimum and maximum of a set of timings, in seconds.
struct timing_summary {
  double median_s = 0;  ///< seconds; the mean of the two middle samples for an even count
  double min_s = 0;     ///< seconds
  double max_s = 0;     ///< seconds
  std::size_t count = 0;  ///< number of samples
};

/**
 * Summarizes `seconds` (taken by value: it is partially sorted). O(n).
 * @throws error when `seconds` is empty.
 */
timing_summary summarize_times(std::vector<double> seconds);

}  // namespace fusedga
