#pragma once
/// @file geometry.hpp
/// Launch geometry and device-memory sizing of the CUDA engine: plain host
/// arithmetic, no CUDA headers, unit-tested without a GPU.
///
/// Kernels (kernels.cuh):
///  - evaluation: a block evaluates a *tile* of consecutive individuals; when
///    the tile's rows fit in shared memory they are first copied there with
///    coalesced 16-byte loads (rows of consecutive individuals are one
///    contiguous range), then each thread evaluates one row from shared memory.
///  - offspring, short genomes (d <= kStagedGenes): one thread per child pair;
///    the pair's children are built in a shared-memory tile, evaluated from it
///    and copied to their rows with coalesced stores.
///    A separable objective (core/problem_traits.hpp) with rows of at least
///    kWarpRowBytes is evaluated by groups of 8-32 lanes per row instead: each
///    lane sums a slice of the row read with 16-byte loads (four in flight), a
///    reduction over the group adds the slices.
///  - offspring, long genomes: one warp per group of 16 pairs; lanes walk the
///    genes of a pair (coalesced parent loads and child stores), then each lane
///    evaluates one of the 32 children from shared memory — or, for a separable
///    objective, the lanes sum each child's partials as they build its genes.
///  - summaries: every block writes its objective sum, feasible count and best
///    candidates; one single-block kernel combines them (statistics, elites,
///    best-so-far).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace fusedga::detail::cuda_geometry {

/// Static shared memory the kernels declare besides their dynamic tile (kernels.cuh's block
/// reductions: up to 928 bytes with 64-bit keys per ptxas -v on sm_90), rounded up for safety.
inline constexpr std::size_t kStaticSharedReserve = 2 * 1024;
/// Dynamic shared memory a block may use without opting in. The 48 KiB per-block limit that
/// holds on all GPUs since Kepler counts static + dynamic shared memory together, so a tile of
/// exactly 48 KiB (e.g. 128 rows of 48 doubles, or 2 x 128 rows of 24 doubles) would fail to
/// launch; the static part is reserved here instead of opting in with cudaFuncSetAttribute.
inline constexpr std::size_t kSharedBudget = 48 * 1024 - kStaticSharedReserve;
/// Genomes of up to this many genes use the thread-per-pair offspring kernel (the CPU's staging limit).
inline constexpr int kShortGenes = 32;
/// Threads of the long-genome offspring kernel's block (one warp) and its pairs per block.
inline constexpr int kLongThreads = 32;
inline constexpr int kLongPairs = kLongThreads / 2;
/// Elites (top-E) chosen by the block-level selection; larger E sorts the population's keys (CUB radix sort).
inline constexpr int kMaxFastElites = 8;
/// Individuals each thread of the evaluation kernel takes at most (fewer where its staged tile would not fit or
/// where the blocks would be too few: evaluation_launch).
inline constexpr std::uint32_t kEvaluationRows = 4;
/// Rows of at most this many bytes are evaluated straight from global memory, not staged in shared memory:
/// on an H200, seed/constrained-quadratic's 24-byte rows evaluated in 159 us at N = 10^7, against 174 us staged.
inline constexpr std::size_t kUnstagedRowBytes = 32;
/// Rows of a separable objective of at least this many bytes are evaluated by lane groups: a group of 8 lanes,
/// four 16-byte loads each, covers 512 bytes, so shorter rows would leave lanes idle.
inline constexpr std::size_t kWarpRowBytes = 512;
/// Threads of the lane-group evaluation's blocks.
inline constexpr std::uint32_t kWarpRowThreads = 128;
/// Rows a warp of the lane-group evaluation takes at most: each lane keeps every 32nd row's values and
/// candidate, at most kEvaluationRows of them.
inline constexpr std::uint32_t kWarpRowsPerWarp = 32 * kEvaluationRows;
/// Blocks the evaluation keeps at least before a thread takes several rows: ~8 per SM of an H100/H200 (132 SMs).
/// On an H200, 4 rows per thread at N = 10^5 (196 blocks) evaluated in 12.7 us against 10.3 us a row each.
inline constexpr std::size_t kMinEvaluationBlocks = 1024;
/// Threads of the single-block summary kernel.
inline constexpr int kFinishThreads = 512;

/// Threads per block of the DE kernel (thread per target): a multiple of 64, so each block holds whole
/// groups of SHADE's success sums (shade_state.hpp: kShadeSumTargets).
inline constexpr int kDeThreads = 128;

/// One kernel launch.
struct launch {
  std::uint32_t blocks = 0;
  std::uint32_t threads = 0;
  std::size_t shared_bytes = 0;  ///< dynamic shared memory per block
  std::uint32_t per_block = 0;   ///< individuals (evaluation) or pairs (offspring) per block
  std::uint32_t rows = 1;        ///< individuals per thread, or per warp with warp_rows (evaluation)
  bool staged = false;           ///< rows staged in shared memory (else read from global memory)
  bool warp_rows = false;        ///< evaluation by lane groups per row (separable objectives): per_block = warps · rows
  std::uint32_t row_lanes = 32;  ///< with warp_rows: lanes per row (8, 16 or 32; at least four loads of 16 bytes each)
};

inline std::uint32_t ceil_div(std::size_t a, std::size_t b) { return static_cast<std::uint32_t>((a + b - 1) / b); }

/// Differential evolution over `n` targets: kDeThreads targets per block, one thread each, rows in global memory.
inline launch de_launch(std::size_t n) {
  launch l;
  l.threads = l.per_block = kDeThreads;
  l.blocks = ceil_div(n, kDeThreads);
  return l;
}

/**
 * Evaluation of `n` individuals of `d` genes of `gene_bytes` each, a thread
 * taking `rows` = 4, 2 or 1 individuals of its block's tile: the most that
 * still leave at least `min_blocks` blocks (fewer, longer blocks reduce their
 * summaries less often, but too few leave SMs idle).
 *  - rows of at most kUnstagedRowBytes: 128-thread blocks read them straight
 *    from global memory (a warp's loads cover consecutive rows, so staging
 *    would only add a barrier);
 *  - longer rows: blocks of 128, 64 or 32 threads (the largest whose rows fit
 *    in kSharedBudget) stage their tile in shared memory with coalesced
 *    16-byte loads first;
 *  - genomes too long for a 32-row tile: 128-thread blocks, a row per thread,
 *    read from global memory;
 *  - a `separable` objective's rows of at least kWarpRowBytes: 128-thread
 *    blocks, each warp taking `rows` consecutive rows (up to kWarpRowsPerWarp,
 *    the most that leave `min_blocks` blocks), `row_lanes` lanes per row: the
 *    most of 32, 16, 8 that still give each lane four 16-byte loads.
 */
inline launch evaluation_launch(std::size_t n, int d, std::size_t gene_bytes,
                                std::size_t min_blocks = kMinEvaluationBlocks, bool separable = false) {
  launch l;
  const std::size_t row = static_cast<std::size_t>(d) * gene_bytes;
  if (separable && row >= kWarpRowBytes) {
    l.warp_rows = true;
    l.threads = kWarpRowThreads;
    for (l.row_lanes = 32; l.row_lanes > 8 && std::size_t(l.row_lanes) * 64 > row; l.row_lanes /= 2) {
    }
    const std::uint32_t warps = kWarpRowThreads / 32;
    for (l.rows = kWarpRowsPerWarp; l.rows > 1 && ceil_div(n, std::size_t(warps) * l.rows) < min_blocks; l.rows /= 2) {
    }
    l.per_block = warps * l.rows;
    l.blocks = ceil_div(n, l.per_block);
    return l;
  }
  const bool short_rows = row <= kUnstagedRowBytes;
  // staged_row_bytes: the shared memory a row takes (0 when rows are read from global memory).
  const auto rows_for = [&](std::uint32_t threads, std::size_t staged_row_bytes) {
    for (const std::uint32_t rows : {kEvaluationRows, 2u})
      if (rows * threads * staged_row_bytes <= kSharedBudget && ceil_div(n, std::size_t(rows) * threads) >= min_blocks)
        return rows;
    return 1u;
  };
  if (short_rows) {
    l.threads = 128;
    l.rows = rows_for(l.threads, 0);
  } else {
    for (const std::uint32_t threads : {128u, 64u, 32u}) {
      if (threads * row <= kSharedBudget) {
        l.threads = threads;
        l.rows = rows_for(threads, row);
        l.shared_bytes = (std::size_t(l.threads) * l.rows * row + 15) / 16 * 16;
        l.staged = true;
        break;
      }
    }
    if (!l.staged) l.threads = 128;
  }
  l.per_block = l.threads * l.rows;
  l.blocks = ceil_div(n, l.per_block);
  return l;
}

/**
 * Offspring of `pairs` pairs: thread per pair for d <= kShortGenes (128, 64 or 32 pairs per block), else a warp
 * per 16 pairs, children staged for their evaluation unless the objective is `separable` (summed on the lanes).
 */
inline launch offspring_launch(std::size_t pairs, int d, std::size_t gene_bytes, bool separable = false) {
  launch l;
  const std::size_t row = static_cast<std::size_t>(d) * gene_bytes;
  if (d <= kShortGenes) {
    l.staged = true;
    for (const std::uint32_t p : {128u, 64u, 32u}) {
      l.per_block = p;
      if (2 * p * row <= kSharedBudget) break;
    }
    l.threads = l.per_block;
    l.shared_bytes = (2 * l.per_block * row + 15) / 16 * 16;
  } else {
    l.per_block = kLongPairs;
    l.threads = kLongThreads;
    l.staged = !separable && 2 * kLongPairs * row <= kSharedBudget;
    l.shared_bytes = l.staged ? (2 * kLongPairs * row + 15) / 16 * 16 : 0;
  }
  l.blocks = ceil_div(pairs, l.per_block);
  return l;
}

/// Blocks of `threads` for a grid-stride loop over `work` items: enough for one item per thread, at least 1,
/// at most 65535·16 (the loop covers the rest).
inline unsigned grid_for(std::size_t work, unsigned threads) {
  const std::size_t blocks = (work + threads - 1) / threads;
  return static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(blocks, 1), 65535u * 16u));
}

/// True when the offspring kernel is the thread-per-pair one.
inline bool short_genome(int d) { return d <= kShortGenes; }

/// Elite candidates each block keeps: E when E <= kMaxFastElites (at least 1, for the best), else 1 (E comes from a sort).
inline int candidates_per_block(std::size_t elitism) {
  return elitism <= static_cast<std::size_t>(kMaxFastElites) ? static_cast<int>(std::max<std::size_t>(elitism, 1)) : 1;
}

/// Whether elites are chosen by sorting all rank keys (E > kMaxFastElites).
inline bool elites_by_sort(std::size_t elitism) { return elitism > static_cast<std::size_t>(kMaxFastElites); }

/// Device bytes of one run, by purpose.
struct memory_plan {
  std::size_t populations = 0;  ///< two populations: (N+1)·(d·gene + 2·fitness + key) each, and batch rows
  std::size_t summaries = 0;    ///< per-block partial statistics and candidates, elites, best genes, bounds, state
  std::size_t sort = 0;         ///< CUB radix sort of the keys (E > kMaxFastElites only), without its temporary storage
  std::size_t total() const { return populations + summaries + sort; }
};

/// Sizes of the element types of one run, and whether its objective is separable (the launches differ).
struct element_sizes {
  std::size_t gene, fitness, key;
  bool separable = false;
  /// Scratch bytes per individual: population-batch problems' evaluate_population constraint values
  /// ((m + p)·fitness) and DE's F and CR between its two launches (2·8); the gradient repair's scratch
  /// (gradient_repair_scratch(d, m + p)·fitness) when the run repairs.
  std::size_t row_scratch = 0;
};

/// The device memory the CUDA engine allocates for N individuals (exactly what the engine allocates, bar CUB's sort scratch).
inline memory_plan plan_memory(std::size_t n, int d, element_sizes s, std::size_t elitism) {
  memory_plan m;
  const std::size_t rows = n + 1;
  m.populations =
      2 * (rows * static_cast<std::size_t>(d) * s.gene + rows * (2 * s.fitness + s.key)) + n * s.row_scratch;
  const std::size_t pairs = (n - std::min(elitism, n) + 1) / 2;
  const std::size_t blocks =
      std::max<std::size_t>(evaluation_launch(n, d, s.gene, kMinEvaluationBlocks, s.separable).blocks,
                            offspring_launch(pairs, d, s.gene, s.separable).blocks);
  const std::size_t cand = static_cast<std::size_t>(candidates_per_block(elitism));
  const std::size_t candidate_bytes = 16;  // key (<= 8) + slot, padded
  const std::size_t totals_bytes = 16;     // objective sum (double) + feasible count, padded
  m.summaries = blocks * (totals_bytes + cand * candidate_bytes) + elitism * 4 + static_cast<std::size_t>(d) * s.gene * 3 +
                1024;  // state block
  if (elites_by_sort(elitism)) m.sort = n * (s.key + 4 + 4);  // keys out, slots in, slots out
  return m;
}

/// Slack kept free on the device beyond the plan (CUB scratch, CUDA graphs, the runtime's own allocations).
inline std::size_t reserve_bytes(std::size_t total_device_bytes) {
  return std::max<std::size_t>(std::size_t(64) << 20, total_device_bytes / 100);
}

/**
 * The largest population whose plan fits in `free_bytes` minus the reserve
 * (0 when not even 2 fit). Memory grows linearly in N, so this is a bisection
 * over plan_memory. O(log N).
 */
inline std::size_t max_population(std::size_t free_bytes, std::size_t total_device_bytes, int d, element_sizes s,
                                  std::size_t elitism) {
  const std::size_t reserve = reserve_bytes(total_device_bytes);
  if (free_bytes <= reserve) return 0;
  const std::size_t budget = free_bytes - reserve;
  const auto fits = [&](std::size_t n) {
    memory_plan m = plan_memory(n, d, s, elitism);
    if (elites_by_sort(elitism)) m.sort += 2 * n * s.key;  // CUB's scratch, roughly
    return m.total() <= budget;
  };
  std::size_t lo = 1, hi = std::size_t(1) << 31;
  if (!fits(2)) return 0;
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

/// "1.5 GiB", "12.0 MiB", "512 B".
inline std::string human_bytes(std::size_t b) {
  char buf[32];
  const double v = static_cast<double>(b);
  if (v >= 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f GiB", v / (1024.0 * 1024 * 1024));
  else if (v >= 1024.0 * 1024) std::snprintf(buf, sizeof buf, "%.1f MiB", v / (1024.0 * 1024));
  else if (v >= 1024.0) std::snprintf(buf, sizeof buf, "%.1f KiB", v / 1024.0);
  else std::snprintf(buf, sizeof buf, "%zu B", b);
  return buf;
}

/**
 * The error text for a population that does not fit: what it needs, what is
 * free, and how many individuals would fit. Empty when it fits.
 */
inline std::string check_fits(std::size_t n, int d, element_sizes s, std::size_t elitism, std::size_t free_bytes,
                              std::size_t total_device_bytes, const std::string& device_name) {
  memory_plan m = plan_memory(n, d, s, elitism);
  if (elites_by_sort(elitism)) m.sort += 2 * n * s.key;
  const std::size_t reserve = reserve_bytes(total_device_bytes);
  if (m.total() + reserve <= free_bytes) return "";
  const std::size_t fit = max_population(free_bytes, total_device_bytes, d, s, elitism);
  return "backend cuda: a population of " + std::to_string(n) + " individuals x " + std::to_string(d) +
         " genes needs " + human_bytes(m.total()) + " of device memory (two populations " + human_bytes(m.populations) +
         ", summaries " + human_bytes(m.summaries) + (m.sort ? ", elite sort " + human_bytes(m.sort) : std::string()) +
         ") plus " + human_bytes(reserve) + " reserve, but only " + human_bytes(free_bytes) + " of " +
         human_bytes(total_device_bytes) + " are free on " + device_name + "; at most " + std::to_string(fit) +
         " individuals fit";
}

}  // namespace fusedga::detail::cuda_geometry
