#include "fusedga/report/bench_stats.hpp"

#include <algorithm>

#include "fusedga/core/error.hpp"

namespace fusedga {

timing_summary summarize_times(std::vector<double> seconds) {
  if (seconds.empty()) throw error("summarize_times: no samples");
  timing_summary s;
  s.count = seconds.size();
  const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
  s.min_s = *lo;
  s.max_s = *hi;
  const std::size_t mid = seconds.size() / 2;
  std::nth_element(seconds.begin(), seconds.begin() + static_cast<std::ptrdiff_t>(mid), seconds.end());
  const double upper = seconds[mid];
  if (seconds.size() % 2 == 1) {
    s.median_s = upper;
  } else {
    // The lower middle is the largest element left of the partition point.
    const double lower = *std::max_element(seconds.begin(), seconds.begin() + static_cast<std::ptrdiff_t>(mid));
    s.median_s = 0.5 * (lower + upper);
  }
  return s;
}

}  // namespace fusedga
