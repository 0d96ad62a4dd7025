#pragma once
/// @file bench_stats.hpp
/// Summary statistics of repeated timings.

#include <cstddef>
#include <vector>

namespace fusedga {

/// Median, extremes and the 10th/90th percentiles of a set of timings, in seconds.
struct timing_summary {
  double median_s = 0;  ///< seconds; the mean of the two middle samples for an even count
  double min_s = 0;     ///< seconds
  double max_s = 0;     ///< seconds
  /// 10th and 90th percentiles, seconds, interpolated linearly between the sorted samples at
  /// position q·(n − 1) (NumPy's default): the spread without the odd interrupted call.
  double p10_s = 0, p90_s = 0;
  std::size_t count = 0;  ///< number of samples
};

/**
 * Summarizes `seconds` (taken by value: it is sorted). O(n log n).
 * @throws error when `seconds` is empty.
 */
timing_summary summarize_times(std::vector<double> seconds);

}  // namespace fusedga
