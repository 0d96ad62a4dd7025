#pragma once
/// @file shade_state.hpp
/// The adaptive state of differential evolution that lives from one
/// generation to the next — SHADE's success-history memories M_F, M_CR and
/// their next index, the archive of replaced parents, the order of the best
/// individuals for current-to-pbest — in one struct, `de_state`, owned by the
/// executor that runs DE (a checkpoint saves it whole), plus the per-tile
/// success sums a pass writes and the memory update that combines them in
/// tile order, so the run is the same for every thread count.
///
/// Source: Tanabe & Fukunaga 2013, "Success-history based parameter
/// adaptation for differential evolution", IEEE CEC 2013 (memory update by
/// the weighted Lehmer mean for F and the weighted arithmetic mean for CR,
/// weights |Δ_k| / Σ|Δ|; archive of replaced parents with random replacement
/// when full, from JADE, Zhang & Sanderson 2009).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__AVX512F__) && defined(__AVX512VL__) && !defined(__CUDACC__)
#include <immintrin.h>
#endif

#include "fusedga/core/population.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/select_kth.hpp"
#include "fusedga/engine/tile_summary.hpp"
#include "fusedga/operators/differential_evolution.hpp"

namespace fusedga::detail {

/// Targets per success-sum entry: every backend sums a generation's successes per this many consecutive
/// targets in slot order, then the entries in order, so SHADE's memory update is the same everywhere.
inline constexpr std::size_t kShadeSumTargets = 64;

/// Keys sampled by de_state::rank_best for its threshold.
inline constexpr std::size_t kRankSample = 1024;

/// One tile's successful trials (trial strictly better than its target): Σ|Δ|, Σ|Δ|·F, Σ|Δ|·F², Σ|Δ|·CR, count.
struct de_success_sums {
  double weight = 0;
  double weight_F = 0;
  double weight_F2 = 0;
  double weight_CR = 0;
  std::uint32_t count = 0;

  FUSEDGA_HD void add(double delta, double F, double CR) {
    weight += delta;
    weight_F += delta * F;
    weight_F2 += delta * F * F;
    weight_CR += delta * CR;
    count += 1;
  }
  FUSEDGA_HD void add(const de_success_sums& o) {
    weight += o.weight;
    weight_F += o.weight_F;
    weight_F2 += o.weight_F2;
    weight_CR += o.weight_CR;
    count += o.count;
  }
};

/// archive_replacement from its draw `bits` (rng(target, generation, stream::de_after, 0).v[0]), for callers
/// that draw a tile's blocks together (philox_lanes.hpp).
FUSEDGA_HD inline std::uint32_t archive_replacement_from(std::uint32_t bits, std::uint32_t capacity) {
  return below(bits, capacity);
}

/// The archive row that target `target`'s parent overwrites when its trial succeeds in generation `generation`
/// and the archive is full: uniform in [0, capacity) from stream::de_after (JADE's random replacement). Host
/// and device.
FUSEDGA_HD inline std::uint32_t archive_replacement(const counter_rng& rng, std::uint32_t target,
                                                    std::uint32_t generation, std::uint32_t capacity) {
  return archive_replacement_from(rng(target, generation, stream::de_after, 0).v[0], capacity);
}

/// A successful target of a CPU pass and the archive row its parent overwrites once the archive is full.
struct archive_entry {
  std::uint32_t target;
  std::uint32_t replacement;  ///< archive_replacement(rng, target, generation, capacity)
};

/// What a DE pass reads of the adaptive state and where it writes its successes (trivially copyable).
template <class Gene>
struct de_view {
  const double* memory_F;         ///< H entries
  const double* memory_CR;        ///< H entries
  const Gene* archive;            ///< archive_size rows of d genes
  std::uint32_t archive_size;     ///< rows filled, <= capacity
  const std::uint32_t* best;      ///< slots of the pbest_count best individuals, ascending (current-to-pbest)
  de_success_sums* tile_success;  ///< one entry per kShadeSumTargets targets (an evaluation tile)
  /// CPU passes with an archive (else null; the CUDA kernels keep flags and draw in de_slots): tile t's
  /// successful targets (trial strictly better: the parent goes to the archive), in slot order, at
  /// [t·kShadeSumTargets, + tile_success[t].count), with their replacement rows drawn in the parallel pass,
  /// so that de_state::after_pass's sequential loop visits only the successes and only copies rows.
  archive_entry* archived = nullptr;
};

/**
 * SHADE's memory update from the generation's success sums (already combined in tile order): when any
 * trial succeeded with a positive finite total weight, M_F[k] = Σ|Δ|F² / Σ|Δ|F (weighted Lehmer mean),
 * M_CR[k] = Σ|Δ|CR / Σ|Δ| (weighted arithmetic mean), and k advances cyclically. Returns whether it updated.
 * Host and device (the CUDA executor runs it in its SHADE update kernel).
 */
FUSEDGA_HD inline bool shade_update_memory(const de_success_sums& s, double* memory_F, double* memory_CR, int memory,
                                           int& next) {
  if (s.count == 0 || !(s.weight > 0) || !std::isfinite(s.weight) || !(s.weight_F > 0) || !std::isfinite(s.weight_F2))
    return false;
  memory_F[next] = s.weight_F2 / s.weight_F;
  memory_CR[next] = s.weight_CR / s.weight;
  next = (next + 1) % memory;
  return true;
}

/**
 * The DE run state of one run (host memory): SHADE memories and index, the archive, the pbest set,
 * successes and per-tile sums. Allocated once (O(H + (archive + 1)·N·d / N + N)); not thread-safe:
 * the executor updates it between passes.
 */
template <class Gene, class Key>
struct de_state {
  std::vector<double> memory_F, memory_CR;  ///< H entries each, 0.5 at the start
  int next_memory = 0;                      ///< k: the entry the next update writes
  std::vector<Gene> archive;                ///< capacity·d genes, rows [0, archive_size) in use
  std::uint32_t archive_size = 0;
  std::vector<std::uint32_t> best;          ///< the pbest_count best slots, in ascending slot order
  std::vector<de_success_sums> tile_success;
  std::vector<archive_entry> archived;      ///< N: de_view::archived (empty without an archive)
  std::vector<candidate<Key>> order;        ///< N (key, slot) scratch for the pbest set

  de_state() = default;
  de_state(const de_spec& spec, std::size_t n, int d, std::size_t tiles)
      : memory_F(static_cast<std::size_t>(spec.memory), 0.5),
        memory_CR(static_cast<std::size_t>(spec.memory), 0.5),
        archive(static_cast<std::size_t>(spec.archive_capacity) * static_cast<std::size_t>(d)),
        best(spec.uses_pbest() ? spec.pbest_count : 0),
        tile_success(tiles),
        archived(spec.archive_capacity > 0 ? n : 0),
        order(spec.uses_pbest() ? n : 0) {}

  de_view<Gene> view() {
    return {memory_F.data(), memory_CR.data(),    archive.data(),
            archive_size,    best.data(),         tile_success.data(),
            archived.empty() ? nullptr : archived.data()};
  }

  /**
   * The slots of the `best.size()` = k smallest (key, slot) of `keys[0, n)`, in ascending slot order:
   * current-to-pbest picks a uniform member of the set, so its order only has to be every backend's (the CUDA
   * executor sorts its k best slots by slot), and slot order needs no sort of the k. (key, slot) pairs are
   * distinct, so the set is unique and any exact method gives the same slots. A sorted sample of 1024 keys gives
   * a threshold key T a little above the k-th; one scan collects the (key, slot) with key <= T (about
   * 1.1·k + N/16 of them), kth_smallest (select_kth.hpp) finds the k-th smallest of those, and a second scan
   * lists the slots up to it (eight keys a step with AVX-512); when fewer than k pass T (keys tied at T do
   * not), every slot is a candidate. O(N). Measured at N = 10⁵,
   * k = 10⁴ on one thread (perf): 6.4 ms for the heap-based partial_sort this replaced, 3.1 ms for nth_element
   * over all N, 1.6 ms for the threshold with a sort of the k best (best first, until 2026-11-28). For k <=
   * kSmallSelect (SHADE's defaults up to N = 160) the set comes from smallest_k_slots (select_kth.hpp) unless
   * its filter leaves too many candidates.
   */
  void rank_best(const Key* keys, std::size_t n) {
    if (best.empty()) return;
    const std::size_t k = best.size();
    if (k <= kSmallSelect && smallest_k_slots(keys, n, k, best.data())) return;
    const candidate<Key> last = kth_smallest_sampled(keys, n, k);  // the set is every (key, slot) up to it
    std::size_t m = 0, i = 0;
#if defined(__AVX512F__) && defined(__AVX512VL__) && !defined(__CUDACC__)
    if constexpr (sizeof(Key) == 8) {  // eight keys a step, the set's slots compressed into place (same slots)
      // The zero-masking intrinsics with every lane set: GCC 12 warns on the plain ones (philox_lanes.hpp).
      const __m512i last_key = _mm512_maskz_set1_epi64(0xFF, static_cast<long long>(last.key));
      const __m512i last_slot = _mm512_maskz_set1_epi64(0xFF, static_cast<long long>(last.slot));
      const __m512i eight = _mm512_maskz_set1_epi64(0xFF, 8);
      __m512i slot = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
      for (; m + 8 <= k && i + 8 <= n; i += 8) {
        const __m512i key8 = _mm512_loadu_si512(keys + i);
        const __mmask8 in = _mm512_cmplt_epu64_mask(key8, last_key) |
                            (_mm512_cmpeq_epu64_mask(key8, last_key) & _mm512_cmple_epu64_mask(slot, last_slot));
        const __m256i listed = _mm512_maskz_cvtepi64_epi32(0xFF, _mm512_maskz_compress_epi64(in, slot));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(best.data() + m), listed);  // m + 8 <= k: inside best
        m += static_cast<std::size_t>(__builtin_popcount(in));
        slot = _mm512_maskz_add_epi64(0xFF, slot, eight);
      }
    }
#endif
    for (; m < k; ++i) {  // branch-free append: best[m] is overwritten until slot i is in the set
      best[m] = static_cast<std::uint32_t>(i);
      m += (keys[i] < last.key) | ((keys[i] == last.key) & (i <= last.slot));
    }
  }

  /// rank_best's k-th smallest (key, slot) of keys[0, n): through the sampled threshold, then kth_smallest.
  candidate<Key> kth_smallest_sampled(const Key* keys, std::size_t n, std::size_t k) {
    std::size_t c = 0;
    if (n >= 4 * kRankSample && k <= n / 4) {
      Key sample[kRankSample];
      for (std::size_t q = 0; q < kRankSample; ++q) sample[q] = keys[q * (n / kRankSample)];
      const std::size_t rank =
          std::min(kRankSample - 1, (k * kRankSample) / n + (k * kRankSample) / (10 * n) + kRankSample / 16);
      std::nth_element(sample, sample + rank, sample + kRankSample);
      const Key threshold = sample[rank];
      for (std::size_t i = 0; i < n; ++i) {  // branch-free append
        order[c] = {keys[i], static_cast<std::uint32_t>(i)};
        c += keys[i] <= threshold ? 1 : 0;
      }
    }
    if (c < k) {  // a threshold too low (or a small N): every slot is a candidate
      for (std::size_t i = 0; i < n; ++i) order[i] = {keys[i], static_cast<std::uint32_t>(i)};
      c = n;
    }
    return kth_smallest(order.data(), c, k);
  }

  /**
   * After a pass: the parents (rows of `parents`) whose trial succeeded go to the archive in slot order
   * (appended while there is room, else over the row the pass drew), and SHADE's memories are updated from the
   * tile sums combined in tile order.
   */
  template <class Fitness>
  void after_pass(const de_spec& spec, const population_view<Gene, Fitness>& parents) {
    const std::size_t d = static_cast<std::size_t>(parents.dimension);
    const std::uint32_t capacity = spec.archive_capacity;
    if (capacity > 0)
      for (std::size_t t = 0; t < tile_success.size(); ++t)
        for (std::uint32_t q = 0; q < tile_success[t].count; ++q) {
          const archive_entry e = archived[t * kShadeSumTargets + q];
          const std::uint32_t slot = archive_size < capacity ? archive_size++ : e.replacement;
          Gene* const row = archive.data() + slot * d;
          const Gene* const parent = parents.row(e.target);
          for (std::size_t j = 0; j < d; ++j) row[j] = parent[j];  // inline: a memcpy call costs more for short rows
        }
    if (spec.adaptive()) {
      de_success_sums all;
      for (const de_success_sums& t : tile_success) all.add(t);
      shade_update_memory(all, memory_F.data(), memory_CR.data(), spec.memory, next_memory);
    }
  }
};

}  // namespace fusedga::detail
