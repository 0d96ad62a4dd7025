#pragma once
/// @file select_kth.hpp
/// The k-th smallest of a set of (rank key, slot) candidates by one radix
/// step before std::nth_element: a histogram of the keys' leading 8 bits of
/// their spread picks the bucket that holds the k-th, and nth_element runs
/// on that bucket's candidates only. Host code.

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

}  // namespace fusedga::detail
