#pragma once
/// @file migration.hpp
/// The island model's arithmetic, pure and shared by every executor and transport: which slice of the
/// population and which seed an island has, which ranks own which islands, where migrants go each epoch
/// (topology), and which residents they replace (policy). Island i's destinations and its replacements
/// depend only on (seed, epoch, i) and on rank keys, never on thread or rank counts, so a run is bitwise
/// the same for any of them.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "fusedga/core/rng.hpp"
#include "fusedga/core/splitmix64.hpp"
#include "fusedga/engine/options.hpp"

namespace fusedga::islands {

/// Individuals of island i when `total` are split over `count` islands: total/count, the first total mod
/// count islands one more. Requires count >= 1.
inline std::size_t island_population(std::size_t total, int count, int i) {
  const std::size_t c = static_cast<std::size_t>(count);
  return total / c + (static_cast<std::size_t>(i) < total % c ? 1 : 0);
}

/// Island i's seed: the run's seed for island 0, else SplitMix64 (Steele, Lea & Flood 2014) of
/// seed ^ (i · 0xD1B54A32D192ED03) — a different odd constant from restart seeds', so the streams differ.
inline std::uint64_t island_seed(std::uint64_t seed, int i) {
  if (i == 0) return seed;
  return detail::splitmix64((seed ^ (static_cast<std::uint64_t>(i) * 0xD1B54A32D192ED03ull)) + detail::splitmix64_gamma);
}

/// The islands [first, last) that rank r of R runs: contiguous blocks, the first I mod R ranks one more.
inline void rank_islands(int islands, int ranks, int r, int& first, int& last) {
  const int base = islands / ranks, extra = islands % ranks;
  first = r * base + std::min(r, extra);
  last = first + base + (r < extra ? 1 : 0);
}

/// The rank that runs island i (rank_islands' inverse).
inline int owner_rank(int islands, int ranks, int i) {
  for (int r = 0; r < ranks; ++r) {
    int first, last;
    rank_islands(islands, ranks, r, first, last);
    if (i < last) return r;
  }
  return ranks - 1;
}

/**
 * The islands that island `i` of `count` sends its emigrants to at the end of epoch `epoch` (>= 1), in
 * increasing order: ring → {(i + 1) mod I}; random → one island other than i, uniform, from Philox(seed)
 * at (index i, generation epoch, stream `migrate`); fully_connected → every other island. Empty for one island.
 */
inline std::vector<int> destinations(migration_topology t, int count, int i, std::uint64_t seed, std::uint32_t epoch) {
  std::vector<int> out;
  if (count < 2) return out;
  switch (t) {
    case migration_topology::ring: out.push_back((i + 1) % count); break;
    case migration_topology::random: {
      const draws4 r = counter_rng::from_seed(seed)(static_cast<std::uint32_t>(i), epoch, stream::migrate, 0);
      const int k = static_cast<int>(below(r.v[0], static_cast<std::uint32_t>(count - 1)));
      out.push_back(k < i ? k : k + 1);  // skip i itself
      break;
    }
    case migration_topology::fully_connected:
      for (int j = 0; j < count; ++j)
        if (j != i) out.push_back(j);
      break;
  }
  return out;
}

/// The islands that send to island `to` at the end of epoch `epoch`, in increasing order (destinations' inverse).
inline std::vector<int> sources(migration_topology t, int count, int to, std::uint64_t seed, std::uint32_t epoch) {
  std::vector<int> out;
  for (int i = 0; i < count; ++i) {
    const std::vector<int> d = destinations(t, count, i, seed, epoch);
    if (std::find(d.begin(), d.end(), to) != d.end()) out.push_back(i);
  }
  return out;
}

/// Indices of the `k` smallest keys (the best), best first; ties by lower index. O(n log k).
template <class Key>
std::vector<std::uint32_t> best_slots(const Key* keys, std::size_t n, std::size_t k) {
  std::vector<std::uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  k = std::min(k, n);
  std::partial_sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(k), idx.end(),
                    [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b] || (keys[a] == keys[b] && a < b); });
  idx.resize(k);
  return idx;
}

/// Indices of the `k` largest keys (the worst), worst first; ties by higher index. O(n log k).
template <class Key>
std::vector<std::uint32_t> worst_slots(const Key* keys, std::size_t n, std::size_t k) {
  std::vector<std::uint32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0u);
  k = std::min(k, n);
  std::partial_sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(k), idx.end(),
                    [&](std::uint32_t a, std::uint32_t b) { return keys[a] > keys[b] || (keys[a] == keys[b] && a > b); });
  idx.resize(k);
  return idx;
}

/// One replacement of best-replace-worst: immigrant `immigrant` (its index among those received) takes
/// resident slot `slot`.
struct replacement {
  std::uint32_t immigrant;
  std::uint32_t slot;
};

/**
 * best-replace-worst (migration_policy): the received immigrants' keys (under the receiver's order, in the
 * order received) and the receiver's N resident keys give at most `limit` replacements: the j-th best
 * immigrant replaces the j-th worst resident while it ranks strictly better (pagmo's fair_replace), so a
 * migration never makes an island worse. Ties among immigrants go to the earlier one received.
 */
template <class Key>
std::vector<replacement> best_replace_worst(const Key* immigrant_keys, std::size_t immigrants, const Key* resident_keys,
                                            std::size_t residents, std::size_t limit) {
  const std::size_t k = std::min({limit, immigrants, residents});
  const std::vector<std::uint32_t> in = best_slots(immigrant_keys, immigrants, k);
  const std::vector<std::uint32_t> out = worst_slots(resident_keys, residents, k);
  std::vector<replacement> r;
  for (std::size_t j = 0; j < k && immigrant_keys[in[j]] < resident_keys[out[j]]; ++j) r.push_back({in[j], out[j]});
  return r;
}

}  // namespace fusedga::islands
