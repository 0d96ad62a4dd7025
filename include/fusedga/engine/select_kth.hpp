#pragma once
/// @file select_kth.hpp
/// The k-th smallest of a set of (rank key, slot) candidates by one radix
/// step before std::nth_element: a histogram of the keys' leading 8 bits of
/// their spread picks the bucket that holds the k-th, and nth_element runs
/// on that bucket's candidates only; for small k, the k smallest listed by
/// counting ranks among a few candidates. Host code.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "fusedga/engine/tile_summary.hpp"

namespace fusedga::detail {

/**
 * The k-th smallest (1 <= k <= c) of the candidates a[0, c) in `before` order (key, then slot). Reorders
 * a[0, c) (its contents afterwards unspecified). O(c). Keys are unsigned integers (rank keys). Same result as
 * std::nth_element over all c, which it replaced in de_state::rank_best: measured on 17,000 candidates with
 * k = 10,000 (rank_best's at N = 10⁵), 70 k cycles against 255–340 k, the partition steps' mispredicted
 * branches being nth_element's cost.
 */
template <class Key>
inline candidate<Key> kth_smallest(candidate<Key>* a, std::size_t c, std::size_t k) {
  static_assert(std::is_unsigned_v<Key>, "rank keys are unsigned integers");
  Key lo = a[0].key, hi = a[0].key;
  for (std::size_t i = 1; i < c; ++i) {
    lo = a[i].key < lo ? a[i].key : lo;
    hi = a[i].key > hi ? a[i].key : hi;
  }
  std::size_t count = c;
  if (lo != hi) {  // bucket b holds keys with (key >> shift) − (lo >> shift) = b: at most 256 buckets
    int width = 0;
    for (Key spread = lo ^ hi; spread != 0; spread >>= 1) ++width;
    const int shift = width > 8 ? width - 8 : 0;
    const Key base = lo >> shift;
    std::uint32_t histogram[256] = {};
    for (std::size_t i = 0; i < c; ++i) ++histogram[static_cast<std::size_t>((a[i].key >> shift) - base)];
    std::size_t below = 0, bucket = 0;
    while (below + histogram[bucket] < k) below += histogram[bucket++];
    count = 0;
    for (std::size_t i = 0; i < c; ++i) {  // the bucket's candidates to the front, by branch-free appends
      const candidate<Key> v = a[i];
      a[count] = v;
      count += static_cast<std::size_t>((v.key >> shift) - base) == bucket ? 1 : 0;
    }
    k -= below;
  }
  std::nth_element(a, a + (k - 1), a + count);
  return a[k - 1];
}

/// Largest k for smallest_k_slots, and the most candidates it ranks.
inline constexpr std::size_t kSmallSelect = 16;
inline constexpr std::size_t kSmallCandidates = 64;

/**
 * The slots of the k smallest (keys[i], i), i < n, in `before` order, written to out[0, k) in ascending slot
 * order, for 1 <= k <= min(n, kSmallSelect); false (out untouched) when the filter below leaves more than
 * kSmallCandidates keys to rank, for the caller's general path. The filter: the largest T of the minima of k
 * chunks of the keys is >= k keys, so the k-th smallest key is <= T. When fewer than k keys are below T, the set
 * is those and the first slots whose key is T (a converged population's ties: one pass); else it is among the
 * keys below T (about 1.5·k of them on random keys), which are listed in slot order and ranked by counting.
 * No branch on a key's value inside the loops. At N = 50, k = 5 (SHADE's defaults), against kth_smallest's candidate
 * list and 256-bucket histogram with the slot scan: 98 against 186 ns on random keys, 52 against 184 ns with a quarter
 * of them tied at the smallest, 21 against 160 ns with all equal (one thread, AVX-512).
 */
template <class Key>
inline bool smallest_k_slots(const Key* keys, std::size_t n, std::size_t k, std::uint32_t* out) {
  static_assert(std::is_unsigned_v<Key>, "rank keys are unsigned integers");
  const std::size_t chunk = n / k;  // chunks [g·chunk, (g + 1)·chunk), the last one to n
  Key threshold = 0;
  for (std::size_t g = 0; g < k; ++g) {
    const std::size_t end = g + 1 < k ? (g + 1) * chunk : n;
    Key lo = keys[g * chunk];
    for (std::size_t i = g * chunk + 1; i < end; ++i) lo = keys[i] < lo ? keys[i] : lo;
    threshold = lo > threshold ? lo : threshold;
  }
  std::size_t below = 0;
  for (std::size_t i = 0; i < n; ++i) below += keys[i] < threshold ? 1 : 0;
  if (below < k) {  // every key below T, then the first k − below slots with key T (there are enough: >= k <= T)
    std::size_t ties = k - below, m = 0;
    for (std::size_t i = 0; m < k; ++i) {  // branch-free append: out[m] is overwritten until slot i is taken
      const bool tie = keys[i] == threshold && ties > 0;
      out[m] = static_cast<std::uint32_t>(i);
      m += ((keys[i] < threshold) | tie) ? 1 : 0;
      ties -= tie ? 1 : 0;
    }
    return true;
  }
  if (below > kSmallCandidates) return false;
  Key key[kSmallCandidates];  // the keys below T, in slot order
  std::uint32_t slot[kSmallCandidates];
  std::size_t c = 0;
  for (std::size_t i = 0; c < below; ++i) {  // branch-free append, as above
    key[c] = keys[i];
    slot[c] = static_cast<std::uint32_t>(i);
    c += keys[i] < threshold ? 1 : 0;
  }
  // rank of candidate a: those before it in (key, slot) order, i.e. with a smaller key, or the same key and
  // listed earlier; over whole groups of 8, the padding keys (the largest key, listed last) before none
  const std::size_t padded = (c + 7) / 8 * 8;
  for (std::size_t b = c; b < padded; ++b) key[b] = ~Key(0);
  std::uint32_t listed[kSmallCandidates];
  std::size_t m = 0;
  for (std::size_t a = 0; a < c; ++a) {
    std::uint32_t rank = 0;
    for (std::size_t b = 0; b < padded; ++b) rank += (key[b] < key[a]) | ((key[b] == key[a]) & (b < a)) ? 1 : 0;
    listed[m] = slot[a];
    m += rank < k ? 1 : 0;
  }
  for (std::size_t q = 0; q < k; ++q) out[q] = listed[q];
  return true;
}

}  // namespace fusedga::detail
