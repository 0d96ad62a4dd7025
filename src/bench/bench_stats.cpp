#include "bench/bench_stats.hpp"

#include <algorithm>

#include "fusedga/core/error.hpp"

namespace fusedga {

namespace {
/// The q-quantile of sorted samples, linear between the order statistics around q·(n − 1).
double quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const std::size_t i = static_cast<std::size_t>(pos);
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (pos - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}
}  // namespace

timing_summary summarize_times(std::vector<double> seconds) {
  if (seconds.empty()) throw error("summarize_times: no samples");
  std::sort(seconds.begin(), seconds.end());
  timing_summary s;
  s.count = seconds.size();
  s.min_s = seconds.front();
  s.max_s = seconds.back();
  s.median_s = quantile(seconds, 0.5);  // the middle sample, or the mean of the two middle ones
  s.p10_s = quantile(seconds, 0.1);
  s.p90_s = quantile(seconds, 0.9);
  return s;
}

}  // namespace fusedga
