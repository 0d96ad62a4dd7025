#pragma once
/// @file metered_transport.hpp
/// A Transport (islands/transport.hpp) that times another one's calls and counts the bytes they move: what
/// `ga-bench --workloads islands` reports as an island run's communication (docs/performance.md, scale-out.md).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fusedga/islands/any_transport.hpp"

namespace fusedga::islands {

/// What one rank's transport did over a run. Times in seconds (wall clock), sizes in bytes.
struct transport_meter {
  std::uint64_t gathers = 0;          ///< all_gather calls: one per epoch end, plus the first (after initialization)
  std::uint64_t exchanges = 0;        ///< exchange calls: one per migration
  double wait_s = 0;                  ///< in the barrier before each all_gather: waiting for slower ranks
  double gather_s = 0;                ///< in all_gather itself, the barrier excluded
  double exchange_s = 0;              ///< in exchange
  std::uint64_t gathered_bytes = 0;   ///< received by all_gather, every rank's part (this rank's own included)
  std::uint64_t packets = 0;          ///< migrant packets this rank's islands sent
  std::uint64_t migrant_bytes = 0;    ///< their bytes
  std::uint64_t cross_rank_bytes = 0; ///< of those, the bytes of packets to an island on another rank
};

/**
 * Wraps `inner` (not owned; it must outlive this) and meters every call. Before each all_gather it calls
 * `inner.all_gather({})` as a barrier, so that waiting for a slower rank (load imbalance, time-sliced
 * oversubscribed ranks) is counted in `wait_s`, not in `gather_s`; the run's result is unchanged (every rank
 * wraps its transport alike, so the extra collectives match). Not thread-safe, as any_transport.
 */
class metered_transport final : public any_transport {
 public:
  explicit metered_transport(any_transport& inner) : inner_(&inner) {}

  int rank() const override { return inner_->rank(); }
  int ranks() const override { return inner_->ranks(); }
  std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) override {
    const auto w0 = clock::now();
    inner_->all_gather({});
    const auto t0 = clock::now();
    std::vector<std::vector<std::byte>> all = inner_->all_gather(mine);
    meter_.wait_s += seconds(w0, t0);
    meter_.gather_s += seconds(t0, clock::now());
    ++meter_.gathers;
    for (const auto& part : all) meter_.gathered_bytes += part.size();
    return all;
  }
  void exchange(const std::vector<packet>& outgoing, std::vector<packet>& incoming) override {
    const auto t0 = clock::now();
    inner_->exchange(outgoing, incoming);
    meter_.exchange_s += seconds(t0, clock::now());
    ++meter_.exchanges;
    for (const packet& out : outgoing) {
      ++meter_.packets;
      meter_.migrant_bytes += out.bytes.size();
      bool local = false;  // its receiver is this rank's when this rank also lists it as incoming
      for (const packet& in : incoming) local = local || (in.from == out.from && in.to == out.to);
      if (!local) meter_.cross_rank_bytes += out.bytes.size();
    }
  }

  const transport_meter& meter() const { return meter_; }
  void reset() { meter_ = {}; }

 private:
  using clock = std::chrono::steady_clock;
  static double seconds(clock::time_point a, clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }
  any_transport* inner_;
  transport_meter meter_;
};

}  // namespace fusedga::islands
