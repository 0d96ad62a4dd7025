#include "bench/bench_timer.hpp"

#include <chrono>

namespace fusedga {

std::vector<double> time_repeats(const std::function<void()>& work, const repeat_policy& policy) {
  using clock = std::chrono::steady_clock;
  for (int i = 0; i < policy.warmup; ++i) work();
  std::vector<double> samples;
  double total = 0;
  const std::size_t min_repeats = policy.min_repeats > 0 ? static_cast<std::size_t>(policy.min_repeats) : 1;
  while (samples.size() < policy.max_repeats && (samples.size() < min_repeats || total < policy.min_time_s)) {
    const auto t0 = clock::now();
    work();
    const double s = std::chrono::duration<double>(clock::now() - t0).count();
    samples.push_back(s);
    total += s;
  }
  return samples;
}

}  // namespace fusedga
