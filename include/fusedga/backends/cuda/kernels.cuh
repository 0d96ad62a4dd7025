#pragma once
/// @file kernels.cuh
/// The CUDA kernels of one generation (geometry.hpp describes the launch
/// shapes). Every per-individual and per-gene step calls the shared
/// `FUSEDGA_HD` code — pair_ops.hpp (tournament, crossover, mutation, repair,
/// initial genes) and engine/evaluate.hpp (objective, constraints, violation,
/// rank key) — so nothing here is a second implementation of an operator or a
/// problem. nvcc only.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(FUSEDGA_KERNEL_EMULATION)
#include "kernel_emulation.hpp"  // tests/cuda/emulator: the CUDA built-ins on the host, for the kernels' CPU tests
#else
#include <cuda_runtime.h>
#endif

#include "fusedga/backends/cuda/geometry.hpp"
#include "fusedga/backends/cuda/kernel_args.hpp"
#include "fusedga/backends/cuda/kernel_set.hpp"
#include "fusedga/backends/cuda/pair_ops.hpp"
#include "fusedga/core/population.hpp"
#include "fusedga/core/rng.hpp"
#include "fusedga/engine/de_trial.hpp"
#include "fusedga/engine/evaluate.hpp"
#include "fusedga/engine/initial_genes.hpp"
#include "fusedga/engine/kernel_params.hpp"
#include "fusedga/engine/shade_state.hpp"
#include "fusedga/engine/survival.hpp"
#include "fusedga/engine/tile_summary.hpp"

/// A device function kept out of line (the emulator compiles the kernels as host code, where CUDA's `__noinline__`
/// would collide with GCC's attribute spelling).
#if defined(FUSEDGA_KERNEL_EMULATION)
#define FUSEDGA_DEVICE_NOINLINE __attribute__((noinline))
#else
#define FUSEDGA_DEVICE_NOINLINE __noinline__
#endif

namespace fusedga::detail::cuda_kernels {

#if !defined(FUSEDGA_KERNEL_EMULATION)
/// The block's dynamic shared memory (the launch's shared_bytes), 16-byte aligned.
template <class T>
__device__ __forceinline__ T* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char shared[];
  return reinterpret_cast<T*>(shared);
}
#endif

// --- block-level reductions (blockDim.x a multiple of 32, at most 1024) ---

/// The sum of `v` over each group of `lanes` consecutive lanes (a power of two, at most 32; the whole warp by
/// default), in the group's first lane. Every lane of the warp calls it.
template <class T>
__device__ __forceinline__ T warp_sum(T v, unsigned lanes = 32) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
/// warp_sum on every lane of the group; for integer types, exact in any order.
template <class T>
__device__ __forceinline__ T group_total(T v, unsigned lanes = 32) {
  return __shfl_sync(0xffffffffu, warp_sum(v, lanes), static_cast<int>((threadIdx.x % 32) & ~(lanes - 1)));
}
template <class Key>
__device__ __forceinline__ candidate<Key> warp_min(candidate<Key> c) {
  for (int o = 16; o > 0; o >>= 1) {
    const candidate<Key> other{__shfl_down_sync(0xffffffffu, c.key, o), __shfl_down_sync(0xffffffffu, c.slot, o)};
    if (before(other, c)) c = other;
  }
  return c;
}

/// Sum over the block, in a fixed order (deterministic for a fixed launch). Result valid in every thread.
template <class T>
__device__ T block_sum(T v) {
  __shared__ T partial[32];
  __shared__ T result;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_sum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    T w = lane < warps ? partial[lane] : T(0);
    w = warp_sum(w);
    if (lane == 0) result = w;
  }
  __syncthreads();
  return result;
}

/// Minimum candidate over the block. Result valid in every thread.
template <class Key>
__device__ candidate<Key> block_min(candidate<Key> c) {
  __shared__ candidate<Key> partial[32];
  __shared__ candidate<Key> result;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  c = warp_min(c);
  if (lane == 0) partial[warp] = c;
  __syncthreads();
  if (warp == 0) {
    candidate<Key> w = lane < warps ? partial[lane] : worst_candidate<Key>();
    w = warp_min(w);
    if (lane == 0) result = w;
  }
  __syncthreads();
  return result;
}

/**
 * The block's best `rounds` candidates, ascending, into out[0, rounds) (unused
 * entries get the worst key, as tile_summary.hpp's summarize). Each thread
 * offers its own C candidates, sorted ascending (absent ones = worst).
 * One block_min per round.
 */
template <int C, class Key>
__device__ void block_best(const candidate<Key> (&mine)[C], int rounds, candidate<Key>* out) {
  int next = 0;
  for (int r = 0; r < rounds; ++r) {
    candidate<Key> head = worst_candidate<Key>();
#pragma unroll
    for (int c = 0; c < C; ++c)
      if (c == next) head = mine[c];
    const candidate<Key> win = block_min(head);
    if (next < C && head.slot == win.slot && head.key == win.key && win.slot != ~std::uint32_t(0)) ++next;
    if (threadIdx.x == 0) out[r] = win;
  }
}

/**
 * Offers `x` to `best[0, keep)`, ascending (keep <= C), dropping the largest.
 * The loop is unrolled over the compile-time C, so `best` stays in registers
 * (a runtime-indexed insertion would put it in local memory).
 */
template <int C, class Key>
__device__ __forceinline__ void offer_sorted(candidate<Key> (&best)[C], int keep, candidate<Key> x) {
#pragma unroll
  for (int c = 0; c < C; ++c) {
    if (c < keep && before(x, best[c])) {
      const candidate<Key> t = best[c];
      best[c] = x;
      x = t;
    }
  }
}

/// Copies `bytes` from global to shared memory with the whole block: 16-byte loads when both are 16-byte aligned.
__device__ inline void copy_to_shared(void* dst, const void* src, std::size_t bytes) {
  const bool aligned = ((reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src)) & 15) == 0;
  std::size_t done = 0;
  if (aligned) {
    const std::size_t vectors = bytes / 16;
    const uint4* s = static_cast<const uint4*>(src);
    uint4* d = static_cast<uint4*>(dst);
    for (std::size_t e = threadIdx.x; e < vectors; e += blockDim.x) d[e] = s[e];
    done = vectors * 16;
  }
  const unsigned char* s = static_cast<const unsigned char*>(src);
  unsigned char* d = static_cast<unsigned char*>(dst);
  for (std::size_t e = done + threadIdx.x; e < bytes; e += blockDim.x) d[e] = s[e];
}

/// Block 0 of an offspring pass copies the E elites (slots `elites` of src) into dst slots [0, E).
template <class G, class F>
__device__ void copy_elites(const population_view<G, F>& src, const population_view<G, F>& dst,
                            const std::uint32_t* elites, std::uint32_t elite_count) {
  const std::size_t d = static_cast<std::size_t>(src.dimension);
  for (std::uint32_t k = 0; k < elite_count; ++k) {
    const std::size_t s = elites[k];
    for (std::size_t j = threadIdx.x; j < d; j += blockDim.x) dst.genes[k * d + j] = src.genes[s * d + j];
    if (threadIdx.x == 0) {
      dst.objective[k] = src.objective[s];
      dst.violation[k] = src.violation[s];
      dst.rank_key[k] = src.rank_key[s];
    }
  }
}

/// Initial genes: thread per (individual, block of four genes), initial_gene_block as the CPU's init_tile.
template <class Problem>
__device__ __forceinline__ void init_genes(const init_args<Problem>& a) {
  const kernel_params<Problem>& kp = a.kp;
  const std::size_t d = static_cast<std::size_t>(kp.dimension);
  const std::size_t blocks_per_row = (d + 3) / 4;
  const std::size_t total = static_cast<std::size_t>(kp.population) * blocks_per_row;
  for (std::size_t e = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; e < total;
       e += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t i = e / blocks_per_row;
    initial_gene_block(kp, static_cast<std::uint32_t>(i), static_cast<int>(e - i * blocks_per_row), a.genes + i * d);
  }
}

/// A thread's share of its block's summary: objective sum, feasible and NaN counts, best candidates.
template <class K, int C>
struct thread_summary {
  double sum = 0;
  std::uint32_t feasible = 0, nan = 0;
  candidate<K> best[C];

  __device__ __forceinline__ thread_summary() {
#pragma unroll
    for (int c = 0; c < C; ++c) best[c] = worst_candidate<K>();
  }
  /// Adds individual `slot`'s values; its candidate joins best[0, keep) (keep <= C).
  template <class F>
  __device__ __forceinline__ void add(F obj, F vio, K key, std::size_t slot, int keep) {
    const bool nan_key = is_nan_key(key);
    sum += nan_key ? 0.0 : static_cast<double>(obj);
    feasible += !nan_key && vio == F(0) ? 1u : 0u;
    nan += nan_key ? 1u : 0u;
    offer_sorted(best, keep, candidate<K>{key, static_cast<std::uint32_t>(slot)});
  }
  /// The block's totals and best `cands` candidates (every thread of the block calls it).
  __device__ __forceinline__ void write(tile_totals* totals, int cands, candidate<K>* out) {
    sum = block_sum(sum);
    feasible = block_sum(feasible);
    nan = block_sum(nan);
    if (threadIdx.x == 0) totals[blockIdx.x] = {sum, feasible, nan};
    block_best(best, cands, out + static_cast<std::size_t>(blockIdx.x) * cands);
  }
};

/// Individual i's stored values read back (evaluate_args' `evaluate` false), its key recomputed with `rekey`.
template <class Problem>
__device__ __forceinline__ void stored_values(const evaluate_args<Problem>& a, std::size_t i, fitness_t<Problem>& obj,
                                              fitness_t<Problem>& vio, key_of<Problem>& key) {
  obj = a.pop.objective[i];
  vio = a.pop.violation[i];
  if (a.rekey) {
    key = rank_key_of(a.kp, obj, vio);
    a.pop.rank_key[i] = key;
  } else {
    key = a.pop.rank_key[i];
  }
}

/**
 * Population-batch problems: individual i's values after the evaluate_population call — its objective as the call
 * wrote it, violation and rank key from its row of the call's constraint values (rank_population_values, as the
 * CPU passes), the two stored; slots below `v.first` (the elites, not in the call) keep their stored values.
 */
template <class Problem>
__device__ __forceinline__ void batch_row_values(const kernel_params<Problem>& kp, const view_of<Problem>& pop,
                                                 const population_values<fitness_t<Problem>>& v, std::size_t i,
                                                 fitness_t<Problem>& obj, fitness_t<Problem>& vio,
                                                 key_of<Problem>& key) {
  obj = pop.objective[i];
  if (i < v.first) {
    vio = pop.violation[i];
    key = pop.rank_key[i];
    return;
  }
  rank_population_values(kp, v, i, 1, &obj, &vio, &key);
  pop.violation[i] = vio;
  pop.rank_key[i] = key;
}

/// The view of one gene that partial_objective(x, j, j + 1) reads as x[j] (the long offspring kernel's lanes).
template <class G>
struct one_gene {
  G g;
  __device__ __forceinline__ G operator[](int) const { return g; }
};

/// `P::partial_type` for a separable objective, else int (unused).
template <class P, bool = separable_objective_v<P>>
struct separable_partial {
  using type = int;
};
template <class P>
struct separable_partial<P, true> {
  using type = typename P::partial_type;
};

/// A separable objective's partial sum over the genes of one 16-byte chunk.
template <class Problem>
__device__ __forceinline__ typename Problem::partial_type chunk_partial(const Problem& problem, const uint4& v) {
  using G = gene_t<Problem>;
  constexpr int V = 16 / static_cast<int>(sizeof(G));
  G g[V];
  memcpy(g, &v, sizeof v);
  return problem.partial_objective(gene_view<G, 1>{g}, 0, V);
}

/**
 * Lane `sub`'s slice of a separable objective's partial sum (core/problem_traits.hpp) over the row `x` of `d`
 * genes, summed by `lanes` lanes: the row's 16-byte aligned chunks, lane s taking chunks s, s + lanes, ...
 * (each load of the group covers 16 · lanes consecutive bytes), four loads in flight before their sums; lane 0
 * adds the genes before the first aligned chunk, the last lane those after the last. Rows start at multiples of
 * the gene size, so the chunks are whole genes.
 */
template <class Problem>
__device__ __forceinline__ typename Problem::partial_type slice_partial(const Problem& problem,
                                                                        const gene_t<Problem>* x, int d,
                                                                        int sub, int lanes) {
  using G = gene_t<Problem>;
  constexpr int V = 16 / static_cast<int>(sizeof(G));
  const int misaligned = static_cast<int>(((16 - (reinterpret_cast<std::uintptr_t>(x) & 15)) & 15) / sizeof(G));
  const int head = misaligned < d ? misaligned : d;
  const int chunks = (d - head) / V;
  const uint4* body = reinterpret_cast<const uint4*>(x + head);
  typename Problem::partial_type s = 0;
  int c = sub;
  for (; c + 3 * lanes < chunks; c += 4 * lanes) {
    const uint4 v0 = body[c], v1 = body[c + lanes], v2 = body[c + 2 * lanes], v3 = body[c + 3 * lanes];
    s += chunk_partial(problem, v0);
    s += chunk_partial(problem, v1);
    s += chunk_partial(problem, v2);
    s += chunk_partial(problem, v3);
  }
  for (; c < chunks; c += lanes) s += chunk_partial(problem, body[c]);
  const gene_view<G, 1> row{x};
  if (sub == 0) s += problem.partial_objective(row, 0, head);
  if (sub == lanes - 1) s += problem.partial_objective(row, head + chunks * V, d);
  return s;
}

/// A separable objective's values from the row's total: objective, violation 0 (no constraints), rank key.
template <class Problem>
__device__ __forceinline__ void separable_values(const kernel_params<Problem>& kp,
                                                 typename Problem::partial_type total, fitness_t<Problem>& obj,
                                                 fitness_t<Problem>& vio, key_of<Problem>& key) {
  using F = fitness_t<Problem>;
  obj = static_cast<F>(kp.problem.objective_of(total));
  vio = F(0);
  key = dynamic_rule(kp.rule) ? rank_key_of(kp, obj, vio)
                              : make_rank_key(obj, vio, sense_of<Problem>(), kp.rule, kp.penalty_weight);
}

/**
 * Evaluation of a separable objective by groups of `a.row_lanes` lanes per row (geometry.hpp: `warp_rows`), or
 * with `evaluate` false the summary of the stored values: warp w of the block takes `a.rows` consecutive rows of
 * the block's tile, its 32 / row_lanes groups a row each at a time; a group's lanes sum slices of the row
 * (slice_partial, coalesced 16-byte loads) and one lane of the group stores and summarizes it, chosen so that
 * each lane keeps every 32nd row of the warp (at most kEvaluationRows). Writes what evaluate_tile writes.
 */
template <class Problem>
__device__ __forceinline__ void evaluate_warp_rows(const evaluate_args<Problem>& a) {
  using F = fitness_t<Problem>;
  using K = key_of<Problem>;
  constexpr int C = static_cast<int>(cuda_geometry::kEvaluationRows);
  const view_of<Problem>& pop = a.pop;
  const int d = a.kp.dimension;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned lanes = a.row_lanes, groups = 32 / lanes, group = lane / lanes, sub = lane % lanes;
  const std::size_t rows = a.rows;
  const std::size_t begin = (static_cast<std::size_t>(blockIdx.x) * (blockDim.x / 32) + warp) * rows;
  const std::size_t end = begin + rows < pop.size ? begin + rows : pop.size;
  thread_summary<K, C> mine;
  for (std::size_t first = begin; first < end; first += groups) {  // uniform across the warp
    const std::size_t i = first + group, k = i - begin;
    const bool valid = i < end;
    const bool owner = valid && sub == (k / groups) % lanes;  // row k: lane (k mod groups)·lanes + (k / groups) mod lanes
    F obj, vio;
    K key;
    if (a.evaluate) {
      using partial = typename Problem::partial_type;
      const partial slice =
          valid ? slice_partial(a.kp.problem, pop.genes + i * d, d, static_cast<int>(sub), static_cast<int>(lanes))
                : partial(0);
      const partial total = group_total(slice, lanes);
      if (!owner) continue;
      separable_values(a.kp, total, obj, vio, key);
      pop.objective[i] = obj;
      pop.violation[i] = vio;
      pop.rank_key[i] = key;
    } else {
      if (!owner) continue;
      stored_values(a, i, obj, vio, key);
    }
    mine.add(obj, vio, key, i, a.cands < C ? a.cands : C);
  }
  mine.write(a.totals, a.cands, a.best);
}

/**
 * Evaluation (or, with `evaluate` false, only the summary of the stored
 * values) of a tile of `a.rows` · blockDim.x consecutive individuals per
 * block: thread t takes rows t, t + blockDim.x, ... (coalesced value stores),
 * all staged in shared memory first when `staged`. Each thread keeps its own
 * sums and best candidates in registers, so the block reduces once per tile,
 * not once per row. Writes objective, violation and rank key, and the block's
 * totals and best `cands` candidates. Population-batch problems: `evaluate`
 * ranks the values the evaluate_population call wrote (batch_row_values).
 */
template <class Problem>
__device__ __forceinline__ void evaluate_tile(const evaluate_args<Problem>& a) {
  if constexpr (separable_objective_v<Problem>) {
    if (a.warp_rows) {
      evaluate_warp_rows(a);
      return;
    }
  }
  const kernel_params<Problem>& kp = a.kp;
  const view_of<Problem>& pop = a.pop;
  const bool staged = a.staged, evaluate = a.evaluate;
  using G = gene_t<Problem>;
  using F = fitness_t<Problem>;
  using K = rank_key_t<F>;
  // A thread sees at most kEvaluationRows rows, so it keeps them all (a longer list only costs registers).
  constexpr int C = static_cast<int>(cuda_geometry::kEvaluationRows);
  G* tile = dynamic_shared<G>();
  const std::size_t n = pop.size;
  const std::size_t d = static_cast<std::size_t>(kp.dimension);
  const std::size_t per_block = static_cast<std::size_t>(blockDim.x) * a.rows;
  const std::size_t begin = static_cast<std::size_t>(blockIdx.x) * per_block;
  const std::size_t count = begin + per_block < n ? per_block : n - begin;
  constexpr bool batch = has_population_evaluation<Problem>::value;  // evaluated by the executor's call
  if (!batch && evaluate && staged) {
    copy_to_shared(tile, pop.genes + begin * d, count * d * sizeof(G));
    __syncthreads();
  }
  thread_summary<K, C> mine;
  for (std::size_t r = threadIdx.x; r < count; r += blockDim.x) {
    const std::size_t i = begin + r;
    F obj, vio;
    K key;
    if (evaluate) {
      if constexpr (batch) {
        batch_row_values(kp, pop, a.values, i, obj, vio, key);
      } else {
        const G* x = staged ? tile + r * d : pop.genes + i * d;
        evaluate_one<1>(kp, x, obj, vio, key);
        if (dynamic_rule(kp.rule)) key = rank_key_of(kp, obj, vio);
        pop.objective[i] = obj;
        pop.violation[i] = vio;
        pop.rank_key[i] = key;
      }
    } else {
      stored_values(a, i, obj, vio, key);
    }
    mine.add(obj, vio, key, i, a.cands < C ? a.cands : C);
  }
  mine.write(a.totals, a.cands, a.best);
}

/// Stores child `slot`'s values and adds them to the thread's summary.
template <class Problem, int C>
__device__ __forceinline__ void store_values(const view_of<Problem>& dst, std::size_t slot, fitness_t<Problem> obj,
                                             fitness_t<Problem> vio, key_of<Problem> key,
                                             thread_summary<key_of<Problem>, C>& mine) {
  dst.objective[slot] = obj;
  dst.violation[slot] = vio;
  dst.rank_key[slot] = key;
  mine.add(obj, vio, key, slot, C);
}

/// Evaluates child `slot` from `x`, stores its values and adds them to the thread's summary. Population-batch
/// problems: nothing (the executor's evaluate_population call and the ranking evaluation kernel follow).
template <class Problem, int C>
__device__ __forceinline__ void store_child(const kernel_params<Problem>& kp, const view_of<Problem>& dst,
                                            const gene_t<Problem>* x, std::size_t slot,
                                            thread_summary<key_of<Problem>, C>& mine) {
  if constexpr (!has_population_evaluation<Problem>::value) {
    fitness_t<Problem> obj, vio;
    key_of<Problem> key;
    evaluate_one<1>(kp, x, obj, vio, key);
    if (dynamic_rule(kp.rule)) key = rank_key_of(kp, obj, vio);
    store_values<Problem>(dst, slot, obj, vio, key, mine);
  }
}

/// What the out-of-line gradient repair of a row reads, by value: a reference into the kernel's parameters
/// would make the compiler copy them all to local memory.
template <class Problem>
struct repair_call {
  Problem problem;
  bounds_view<gene_t<Problem>> bounds;
  int dimension;
  gradient_repair_spec spec;
  fitness_t<Problem> eps;       ///< the equality tolerance
  fitness_t<Problem>* scratch;  ///< this row's gradient_repair_scratch(d, m) values
};

/// gradient_repair (operators/gradient_repair.hpp) of the d genes at x, in place; returns its evaluations. Out of
/// line, so that the variation kernels keep their register allocation (64 by FUSEDGA_DE_BOUNDS and
/// FUSEDGA_OFFSPRING_SHORT_BOUNDS) when nothing is repaired.
template <class Problem>
__device__ FUSEDGA_DEVICE_NOINLINE int repair_row(const repair_call<Problem> c, gene_t<Problem>* x) {
  return gradient_repair(c.problem, x, c.dimension, c.spec.inequalities, c.spec.equalities, c.bounds.lower,
                         c.bounds.upper, c.eps, c.spec.iterations, c.scratch, c.bounds.integer);
}

/// The gradient repair of the d genes at x, in place, with row `row`'s scratch of `scratch` (N rows of
/// gradient_repair_scratch(d, m) values); returns its evaluations (Newton steps). 0 for a problem it cannot run on.
template <class Problem>
__device__ __forceinline__ std::uint32_t repair_in_place(const kernel_params<Problem>& kp, fitness_t<Problem>* scratch,
                                                         std::size_t row, gene_t<Problem>* x) {
  if constexpr (!repairable_v<Problem>) {
    (void)kp, (void)scratch, (void)row, (void)x;
    return 0;
  } else {
    const std::size_t per =
        gradient_repair_scratch(kp.dimension, kp.gradient_repair.inequalities + kp.gradient_repair.equalities);
    return static_cast<std::uint32_t>(
        repair_row(repair_call<Problem>{kp.problem, kp.bounds, kp.dimension, kp.gradient_repair, kp.equality_tolerance,
                                        scratch + row * per},
                   x));
  }
}

/// The GA's gradient repair of child c (0, 1) of `pair`, the d genes at x in slot `slot`, before its evaluation,
/// when its coin (draw c of rng(pair, g, stream::repair, 0), the CPU's repair_children) comes up; `scratch` is null
/// when the run does not repair. Returns the evaluations spent.
template <class Problem>
__device__ __forceinline__ std::uint32_t repair_child(const kernel_params<Problem>& kp, fitness_t<Problem>* scratch,
                                                      std::uint32_t pair, std::uint32_t generation, int c,
                                                      std::size_t slot, gene_t<Problem>* x) {
  if (scratch == nullptr || !coin<double>(kp.rng(pair, generation, stream::repair, 0).v[c], kp.gradient_repair.rate))
    return 0;
  return repair_in_place(kp, scratch, slot, x);
}

/// The block's gradient-repair evaluations added to the run's counter, which the finish kernel moves into the
/// run state (every thread calls it). A counter, not the block totals: with (μ+λ) survival the evaluation kernel
/// summarizes the parents' buffer over the totals before the finish kernel runs. Integer sums: deterministic.
__device__ __forceinline__ void add_repairs(unsigned long long* count, std::uint32_t repairs) {
  const unsigned long long sum = block_sum(static_cast<unsigned long long>(repairs));
  if (threadIdx.x == 0 && sum != 0) atomicAdd(count, sum);
}

/**
 * Fused offspring pass, short genomes: thread per pair (blockDim.x pairs per
 * block). Tournament → crossover → mutation → repair into a shared-memory
 * tile → evaluation from the tile → coalesced copy of the tile's rows to
 * children slots E + 2·pair (+1). Block 0 also copies the elites.
 */
template <class Problem>
__device__ __forceinline__ void offspring_short(const offspring_args<Problem>& a) {
  const kernel_params<Problem>& kp = a.kp;
  const view_of<Problem>& src = a.src;
  const view_of<Problem>& dst = a.dst;
  const std::uint32_t pairs = a.pairs;
  using G = gene_t<Problem>;
  using K = rank_key_t<fitness_t<Problem>>;
  G* tile = dynamic_shared<G>();
  const std::uint32_t generation = a.state->generation;
  const std::size_t n = src.size;
  const std::size_t d = static_cast<std::size_t>(kp.dimension);
  const std::size_t elite_count = kp.elitism;
  if (blockIdx.x == 0) copy_elites(src, dst, a.elites, kp.elitism);
  const std::uint32_t first_pair = blockIdx.x * blockDim.x;
  const std::uint32_t pair = first_pair + threadIdx.x;
  const std::size_t first_slot = elite_count + 2 * static_cast<std::size_t>(first_pair);
  thread_summary<K, 2> mine;
  std::uint32_t repairs = 0;
  if (pair < pairs) {
    G* c1 = tile + 2 * threadIdx.x * d;
    G* c2 = c1 + d;
    make_children(kp, src, pair, generation, c1, c2);
    const std::size_t slot = elite_count + 2 * static_cast<std::size_t>(pair);
    repairs += repair_child(kp, a.repair_scratch, pair, generation, 0, slot, c1);
    if (slot + 1 < n) repairs += repair_child(kp, a.repair_scratch, pair, generation, 1, slot + 1, c2);
    store_child(kp, dst, c1, slot, mine);
    if (slot + 1 < n) store_child(kp, dst, c2, slot + 1, mine);
  }
  __syncthreads();
  if (first_slot < n) {
    const std::size_t end_slot = first_slot + 2 * blockDim.x < n ? first_slot + 2 * blockDim.x : n;
    const std::size_t values = (end_slot - first_slot) * d;
    G* out = dst.genes + first_slot * d;
    for (std::size_t e = threadIdx.x; e < values; e += blockDim.x) out[e] = tile[e];
  }
  mine.write(a.totals, a.cands, a.best);
  if (a.repair_scratch != nullptr) add_repairs(a.repair_count, repairs);
}

/**
 * Fused offspring pass, long genomes: one warp (the block) per kLongPairs
 * pairs. Lanes 0..15 plan the pairs; then for each pair the lanes walk its
 * genes (coalesced parent loads and child stores, the unpaired last child in
 * the spare row N), keeping the children in a shared-memory tile when it fits;
 * finally lane c evaluates child c. A separable objective (core/problem_traits.hpp)
 * is summed instead while the lanes build the genes: each lane adds the partials
 * of its genes and a warp reduction per child totals them, so nothing is staged
 * or read back. Block 0 also copies the elites.
 */
template <class Problem>
__device__ __forceinline__ void offspring_long(const offspring_args<Problem>& a) {
  const kernel_params<Problem>& kp = a.kp;
  const view_of<Problem>& src = a.src;
  const view_of<Problem>& dst = a.dst;
  const std::uint32_t pairs = a.pairs;
  const bool staged = a.staged;
  using G = gene_t<Problem>;
  using K = rank_key_t<fitness_t<Problem>>;
  constexpr unsigned full = 0xffffffffu;
  G* tile = dynamic_shared<G>();
  const std::uint32_t generation = a.state->generation;
  const std::size_t n = src.size;
  const int d = kp.dimension;
  const std::size_t elite_count = kp.elitism;
  if (blockIdx.x == 0) copy_elites(src, dst, a.elites, kp.elitism);
  const unsigned lane = threadIdx.x;
  const std::uint32_t first_pair = blockIdx.x * cuda_geometry::kLongPairs;
  pair_decision mine_plan{0, 0, 0, 0, 0};
  if (lane < static_cast<unsigned>(cuda_geometry::kLongPairs) && first_pair + lane < pairs)
    mine_plan = plan_pair(kp, src, first_pair + lane, generation);
  constexpr bool separable = separable_objective_v<Problem>;
  using partial = typename separable_partial<Problem>::type;
  partial mine_total = 0;  // separable: the total of child `lane`
  for (int q = 0; q < cuda_geometry::kLongPairs; ++q) {
    const std::uint32_t pair = first_pair + q;
    if (pair >= pairs) break;  // uniform across the warp
    pair_decision plan;
    plan.parent1 = __shfl_sync(full, mine_plan.parent1, q);
    plan.parent2 = __shfl_sync(full, mine_plan.parent2, q);
    plan.crosses = __shfl_sync(full, mine_plan.crosses, q);
    plan.cut_lo = __shfl_sync(full, mine_plan.cut_lo, q);
    plan.cut_hi = __shfl_sync(full, mine_plan.cut_hi, q);
    const std::size_t slot = elite_count + 2 * static_cast<std::size_t>(pair);
    const G* a_row = src.genes + static_cast<std::size_t>(plan.parent1) * d;
    const G* b_row = src.genes + static_cast<std::size_t>(plan.parent2) * d;
    G* r1 = dst.genes + slot * d;
    G* r2 = r1 + d;  // slot + 1 may be the spare row N
    G* t1 = tile + static_cast<std::size_t>(2 * q) * d;
    G* t2 = t1 + d;
    partial part1 = 0, part2 = 0;
#pragma unroll 4
    for (int j = static_cast<int>(lane); j < d; j += 32) {
      G a = a_row[j], b = b_row[j];
      vary_gene(kp, plan, pair, generation, j, a, b);
      r1[j] = a;
      r2[j] = b;
      if constexpr (separable) {
        part1 += kp.problem.partial_objective(one_gene<G>{a}, j, j + 1);
        part2 += kp.problem.partial_objective(one_gene<G>{b}, j, j + 1);
      } else if (staged) {
        t1[j] = a;
        t2[j] = b;
      }
    }
    if constexpr (separable) {
      part1 = group_total(part1);
      part2 = group_total(part2);
      if (lane == static_cast<unsigned>(2 * q)) mine_total = part1;
      if (lane == static_cast<unsigned>(2 * q + 1)) mine_total = part2;
    }
  }
  __syncthreads();  // children rows (tile, or global memory) complete before lanes evaluate them
  thread_summary<K, 1> mine;
  std::uint32_t repairs = 0;
  const std::size_t slot = elite_count + 2 * static_cast<std::size_t>(first_pair) + lane;
  if (first_pair + lane / 2 < pairs && slot < n) {
    if constexpr (separable) {  // unconstrained (separable_objective_v): nothing to repair
      fitness_t<Problem> obj, vio;
      K key;
      separable_values(kp, mine_total, obj, vio, key);
      store_values<Problem>(dst, slot, obj, vio, key, mine);
    } else {
      // A repaired child is repaired in its row of dst (the staged copy would go stale) and evaluated there.
      G* const row = dst.genes + slot * d;
      repairs =
          repair_child(kp, a.repair_scratch, first_pair + lane / 2, generation, static_cast<int>(lane % 2), slot, row);
      store_child(kp, dst, staged && repairs == 0 ? tile + static_cast<std::size_t>(lane) * d : row, slot, mine);
    }
  }
  mine.write(a.totals, a.cands, a.best);
  if (a.repair_scratch != nullptr) add_repairs(a.repair_count, repairs);
}

/// Target i's DE trial (de_trial.hpp: the CPU's draws, mutant, crossover and repair) into row i of dst; returns
/// the donors, whose F and CR the selection credits on success.
template <class Problem>
__device__ __forceinline__ de_donors<gene_t<Problem>> de_make_trial(const de_args<Problem>& a, std::size_t i) {
  using G = gene_t<Problem>;
  const std::size_t d = static_cast<std::size_t>(a.kp.dimension);
  const std::uint32_t generation = a.state->generation;
  const std::uint32_t target = static_cast<std::uint32_t>(i);
  const de_view<G> view{a.memory_F, a.memory_CR, a.archive,      a.counters->archive_size,
                        a.pbest,    a.tile_success, nullptr};  // archive: flags and de_slots
  const de_donors<G> m = de_draw(a.kp, view, a.src.genes, target, generation);
  de_trial(a.kp, m, a.src.genes + i * d, target, generation, a.dst.genes + i * d);
  return m;
}

/// Whether target i's evaluated trial, of violation `vio`, is repaired: the run repairs, the trial is infeasible
/// and its coin (draw 1 of rng(i, g, stream::de_after, 0), as the CPU's de_repair_infeasible) comes up.
template <class Problem>
__device__ __forceinline__ bool repairs_trial(const de_args<Problem>& a, std::size_t i, fitness_t<Problem> vio) {
  if constexpr (!repairable_v<Problem>) {
    (void)a, (void)i, (void)vio;
    return false;
  } else {
    return a.repair_scratch != nullptr && vio > fitness_t<Problem>(0) &&
           coin<double>(a.kp.rng(static_cast<std::uint32_t>(i), a.state->generation, stream::de_after, 0).v[1],
                        a.kp.gradient_repair.rate);
  }
}

/**
 * Differential evolution, thread per target i (kDeThreads per block), as the CPU's de_tile: the trial
 * (de_make_trial) built in row i of dst and evaluated there,
 * εDEg's gradient repair of an infeasible trial whose coin comes up (draw 1 of rng(i, g, stream::de_after, 0), the
 * CPU's de_repair_infeasible; `a.repair_scratch` set only when the run repairs; its evaluations counted in
 * `a.repair_count`) and its evaluation again,
 * then one-to-one survivor selection — the trial stays when its key is not worse than the target's, else
 * the target is copied back. Writes the success flags, SHADE's success sums per kShadeSumTargets targets
 * (one thread each, in slot order: the CPU's order, so the memory update is bitwise the CPU's), the
 * block's totals and its best candidate. Integer genes: nothing (validate rejects DE for them).
 * Population-batch problems, as the CPU's de_trial_tile and de_select_tile: with `a.trials_only` only the
 * trials (and each target's F and CR, kept for the second launch); else the selection of the trials the
 * evaluate_population call evaluated (batch_row_values).
 */
template <class Problem>
__device__ __forceinline__ void de_targets(const de_args<Problem>& a) {
  using G = gene_t<Problem>;
  using F = fitness_t<Problem>;
  using K = rank_key_t<F>;
  if constexpr (std::is_floating_point_v<G>) {
    constexpr bool batch = has_population_evaluation<Problem>::value;  // evaluated by the executor's call
    const std::size_t n = a.src.size;
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (batch && a.trials_only) {  // uniform: the whole launch
      if (i < n) {
        const de_donors<G> m = de_make_trial(a, i);
        a.F_all[i] = m.F;
        a.CR_all[i] = m.CR;
      }
      return;
    }
    constexpr int T = cuda_geometry::kDeThreads;
    static_assert(T % kShadeSumTargets == 0, "whole success-sum groups per block");
    __shared__ double weight[T], scale[T], rate[T];
    __shared__ unsigned char succeeded[T];
    const kernel_params<Problem>& kp = a.kp;
    const view_of<Problem>& src = a.src;
    const view_of<Problem>& dst = a.dst;
    const std::size_t d = static_cast<std::size_t>(kp.dimension);
    thread_summary<K, 1> mine;
    unsigned char better = 0;
    double delta = 0, Fi = 0, CRi = 0;
    std::uint32_t repairs = 0;  // the repair's evaluations (Newton steps, then the new evaluation)
    if (i < n) {
      G* trial = dst.genes + i * d;
      F obj, vio;
      K key;
      double trial_F, trial_CR;
      if constexpr (batch) {
        batch_row_values(kp, dst, a.values, i, obj, vio, key);
        trial_F = a.F_all[i];
        trial_CR = a.CR_all[i];
      } else {
        const de_donors<G> m = de_make_trial(a, i);
        // Evaluated once, or twice when the trial is infeasible and repaired (one copy of the evaluation's code).
        for (bool repaired = false;; repaired = true) {
          evaluate_one<1>(kp, static_cast<const G*>(trial), obj, vio, key);
          if (repaired || !repairs_trial(a, i, vio)) break;
          repairs = repair_in_place(kp, a.repair_scratch, i, trial) + 1;
        }
        if (dynamic_rule(kp.rule)) key = rank_key_of(kp, obj, vio);
        trial_F = m.F;
        trial_CR = m.CR;
      }
      const K parent_key = src.rank_key[i];
      better = key < parent_key ? 1 : 0;
      a.success[i] = better;
      if (better) {
        delta = de_improvement(src.objective[i], src.violation[i], obj, vio, sense_of<Problem>(), kp.rule,
                               kp.penalty_weight);
        Fi = trial_F;
        CRi = trial_CR;
      }
      if (!(key <= parent_key)) {  // the target survives
        for (std::size_t j = 0; j < d; ++j) trial[j] = src.genes[i * d + j];
        obj = src.objective[i];
        vio = src.violation[i];
        key = parent_key;
      }
      store_values<Problem>(dst, i, obj, vio, key, mine);
    }
    weight[threadIdx.x] = delta;
    scale[threadIdx.x] = Fi;
    rate[threadIdx.x] = CRi;
    succeeded[threadIdx.x] = better;
    __syncthreads();
    if (threadIdx.x % kShadeSumTargets == 0 && i < n) {
      de_success_sums s;
      for (unsigned k = threadIdx.x; k < threadIdx.x + kShadeSumTargets && blockIdx.x * blockDim.x + k < n; ++k)
        if (succeeded[k]) s.add(weight[k], scale[k], rate[k]);
      a.tile_success[i / kShadeSumTargets] = s;
    }
    mine.write(a.totals, a.cands, a.best);
    if (a.repair_scratch != nullptr) add_repairs(a.repair_count, repairs);  // uniform: the launch repairs or not
  }
}

/// The thread-per-pair offspring kernel and the DE kernel are register-heavy (Philox draws, SBX and polynomial
/// mutation or DE's donors, in double): uncapped, ptxas gave them 90 and 91 registers per thread on sm_90, so 5
/// blocks of 128 per SM (31 % occupancy, as Nsight Compute measured); capped at 64, 8 blocks fit (50 %), and the
/// seed and engineering problems do not spill (ptxas -v).
#define FUSEDGA_OFFSPRING_SHORT_BOUNDS __launch_bounds__(128, 8)
#define FUSEDGA_DE_BOUNDS __launch_bounds__(::fusedga::detail::cuda_geometry::kDeThreads, 8)

// The problem-dependent kernels: one-line wrappers, so that the GPU JIT's
// prebuilt kernels (src/cuda/expr_kernels.cuh) run the same bodies under
// extern "C" names.

template <class Problem>
__global__ void init_genes_kernel(init_args<Problem> a) { init_genes(a); }
template <class Problem>
__global__ void evaluate_kernel(evaluate_args<Problem> a) { evaluate_tile(a); }
/// A separable objective's evaluation (rows by lane groups): at most 64 registers, so 8 blocks of 128 fit an SM
/// (72 unbounded: 7 blocks, and a third wave 11 % full for seed/gene-sum at N = 10^6 on an H200).
template <class Problem>
__global__ void __launch_bounds__(cuda_geometry::kWarpRowThreads, 8) evaluate_separable_kernel(evaluate_args<Problem> a) {
  evaluate_tile(a);
}
template <class Problem>
__global__ void FUSEDGA_OFFSPRING_SHORT_BOUNDS offspring_short_kernel(offspring_args<Problem> a) { offspring_short(a); }
template <class Problem>
__global__ void offspring_long_kernel(offspring_args<Problem> a) { offspring_long(a); }
template <class Problem>
__global__ void FUSEDGA_DE_BOUNDS de_kernel(de_args<Problem> a) { de_targets(a); }

/// The DE kernel's launch handle: null for integer genes (differential evolution varies real genes only).
template <class Problem>
const void* de_kernel_handle() {
  if constexpr (std::is_floating_point_v<gene_t<Problem>>)
    return reinterpret_cast<const void*>(&de_kernel<Problem>);
  else
    return nullptr;
}

/// The evaluation kernel of `Problem`: the register-bounded one for a separable objective.
template <class Problem>
const void* evaluate_kernel_handle() {
  if constexpr (separable_objective_v<Problem>)
    return reinterpret_cast<const void*>(&evaluate_separable_kernel<Problem>);
  else
    return reinterpret_cast<const void*>(&evaluate_kernel<Problem>);
}

/**
 * Where the engine takes a problem's kernels from: the template kernels
 * above, compiled with the program. The GPU JIT specializes it for its
 * problem type (src/cuda/expr_device_problem.hpp) to hand out the kernels of
 * the module it linked at run time.
 */
template <class Problem>
struct kernel_source {
  static kernel_set get(const Problem&) {
    return {reinterpret_cast<const void*>(&init_genes_kernel<Problem>),
            evaluate_kernel_handle<Problem>(),
            reinterpret_cast<const void*>(&offspring_short_kernel<Problem>),
            reinterpret_cast<const void*>(&offspring_long_kernel<Problem>), de_kernel_handle<Problem>()};
  }
};

/**
 * Single block: combines `blocks` block summaries (in block order) and the
 * elite slots [0, elite_slots) of `pop` into the run state — statistics,
 * best, the next elites (into `elites` when not null, the E smallest
 * (key, slot)), and the best-so-far with its genes (into `best_genes` when it
 * improved). With `advance`, the generation counter moves on.
 */
template <class G, class F>
__device__ __forceinline__ void finish_generation(const finish_args<G, F>& a) {
  const population_view<G, F>& pop = a.pop;
  const tile_totals* totals = a.totals;
  const candidate<rank_key_t<F>>* cands = a.cands;
  const std::uint32_t blocks = a.blocks, elite_slots = a.elite_slots, elite_count = a.elite_count;
  const int cands_per_block = a.cands_per_block;
  std::uint32_t* elites = a.elites;
  run_state<rank_key_t<F>, F>* state = a.state;
  G* best_genes = a.best_genes;
  const bool advance = a.advance;
  using K = rank_key_t<F>;
  constexpr int C = cuda_geometry::kMaxFastElites;
  double sum = 0;
  unsigned long long feasible = 0, nan = 0;
  candidate<K> top[C];
#pragma unroll
  for (int c = 0; c < C; ++c) top[c] = worst_candidate<K>();
  const int keep = cands_per_block;  // <= C
  // A runtime-indexed insertion (top in local memory): offer_sorted's unrolled one took 152 registers here, too
  // many for kFinishThreads threads.
  const auto offer = [&](const candidate<K>& x) {
    if (!before(x, top[keep - 1])) return;
    int pos = keep - 1;
    while (pos > 0 && before(x, top[pos - 1])) {
      top[pos] = top[pos - 1];
      --pos;
    }
    top[pos] = x;
  };
  for (std::uint32_t b = threadIdx.x; b < blocks; b += blockDim.x) {
    sum += totals[b].objective_sum;
    feasible += totals[b].feasible;
    nan += totals[b].not_a_number;
    for (int r = 0; r < keep; ++r) offer(cands[static_cast<std::size_t>(b) * keep + r]);
  }
  for (std::uint32_t k = threadIdx.x; k < elite_slots; k += blockDim.x) {
    const bool nan_key = is_nan_key(pop.rank_key[k]);
    sum += nan_key ? 0.0 : static_cast<double>(pop.objective[k]);
    feasible += !nan_key && pop.violation[k] == F(0) ? 1 : 0;
    nan += nan_key ? 1 : 0;
    offer({pop.rank_key[k], k});
  }
  sum = block_sum(sum);
  feasible = block_sum(feasible);
  nan = block_sum(nan);
  __shared__ candidate<K> first;
  __shared__ int improved;
  int next = 0;
  for (int r = 0; r < keep; ++r) {
    candidate<K> head = worst_candidate<K>();
    for (int c = 0; c < C; ++c)
      if (c == next && c < keep) head = top[c];
    const candidate<K> win = block_min(head);
    if (next < keep && head.slot == win.slot && head.key == win.key && win.slot != ~std::uint32_t(0)) ++next;
    if (threadIdx.x == 0) {
      if (r == 0) first = win;
      if (elites && static_cast<std::uint32_t>(r) < elite_count) elites[r] = win.slot;
    }
  }
  if (threadIdx.x == 0) {
    run_state<K, F>& s = *state;
    s.objective_sum = sum;
    s.feasible = feasible;
    s.not_a_number = nan;
    s.repair_evaluations = 0;
    if (a.repair_count) {  // the variation kernel's repairs since the last summary
      s.repair_evaluations = *a.repair_count;
      *a.repair_count = 0;
    }
    s.best_key = first.key;
    s.best_slot = first.slot;
    s.best_objective = pop.objective[first.slot];
    s.best_violation = pop.violation[first.slot];
    improved = !s.have_best || first.key < s.so_far_key;
    s.improved = improved;
    if (improved) {
      s.have_best = 1;
      s.so_far_key = first.key;
      s.so_far_objective = s.best_objective;
      s.so_far_violation = s.best_violation;
    }
    if (advance) s.generation += 1;
  }
  __syncthreads();
  if (improved) {
    const std::size_t d = static_cast<std::size_t>(pop.dimension);
    for (std::size_t j = threadIdx.x; j < d; j += blockDim.x) best_genes[j] = pop.genes[first.slot * d + j];
  }
}

/// The single-block summary kernel of a generation (finish_generation).
template <class G, class F>
__global__ void finish_generation_kernel(finish_args<G, F> a) { finish_generation(a); }

/**
 * (μ+λ) survival in place (engine/survival.hpp's rule, as the CPU executor applies it): thread per k-th
 * best child; if it survives, it replaces the parent ranked N − 1 − k. No two threads touch one row.
 */
template <class G, class F>
__device__ __forceinline__ void plus_survival(const plus_args<G, F>& a) {
  const std::size_t n = a.parents.size;
  const std::size_t d = static_cast<std::size_t>(a.parents.dimension);
  for (std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; k < n;
       k += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    if (!plus_child_survives(static_cast<std::uint32_t>(k), a.child_keys[k], a.parent_keys,
                             static_cast<std::uint32_t>(n)))
      continue;
    const std::size_t c = a.child_slots[k];
    const std::size_t p = a.parent_slots[n - 1 - k];
    for (std::size_t j = 0; j < d; ++j) a.parents.genes[p * d + j] = a.children.genes[c * d + j];
    a.parents.objective[p] = a.children.objective[c];
    a.parents.violation[p] = a.children.violation[c];
    a.parents.rank_key[p] = a.children.rank_key[c];
  }
}

/// The in-place (μ+λ) survival kernel of a generation with survival plus.
template <class G, class F>
__global__ void plus_survival_kernel(plus_args<G, F> a) { plus_survival(a); }

/**
 * Single block, after a DE generation (shade_state.hpp's de_state::after_pass, on the device).
 *
 * SHADE's memories: the tiles' success sums are folded in tile order, as the CPU folds them, so the sums are
 * bitwise the CPU's. The block stages 1,024 tiles' sums at a time in shared memory with coalesced loads, and
 * lanes 0..4 of warp 0 fold one field each (the count as a double: exact below 2^53) in one unrolled loop —
 * every field's chain of additions is the CPU's, the five chains run in lockstep — then shade_update_memory
 * runs on thread 0.
 *
 * The archive: the lane that folds the counts also writes each tile's first archive position (the archive's
 * size plus the successes of the tiles before it) to `tile_first`, for de_slots; the archive's new size is
 * written and the rows' last-writer marks `owner` are cleared.
 *
 * On an H200 at N = 10^6, moving the slot assignment out of this single block into de_slots took the DE
 * generation from 0.96 to 0.69 ms (5.6 ms before the fold was staged; docs/cuda.md, "SHADE on the GPU").
 */
template <class G, class F>
__device__ __forceinline__ void de_update(const de_update_args<G, F>& a) {
  __shared__ std::uint32_t base;
  const unsigned t = threadIdx.x;
  const std::uint32_t capacity = a.spec.archive_capacity;
  if (t == 0) base = a.counters->archive_size;
  for (std::uint32_t k = t; k < capacity; k += blockDim.x) a.owner[k] = 0;
  __syncthreads();
  constexpr unsigned chunk = 1024;  // tiles' sums staged at a time, one array per field
  constexpr int fields = 5;         // weight, weight_F, weight_F2, weight_CR, count
  constexpr unsigned counts = 4;    // the lane that folds the counts
  __shared__ double staged[fields][chunk];
  __shared__ double folded[fields];
  double field = 0;
  for (std::uint32_t first = 0; first < a.tiles; first += chunk) {
    const std::uint32_t here = a.tiles - first < chunk ? a.tiles - first : chunk;
    for (std::uint32_t k = t; k < here; k += blockDim.x) {
      const de_success_sums& x = a.tile_success[first + k];
      staged[0][k] = x.weight;
      staged[1][k] = x.weight_F;
      staged[2][k] = x.weight_F2;
      staged[3][k] = x.weight_CR;
      staged[counts][k] = static_cast<double>(x.count);
    }
    __syncthreads();
    if (t < fields) {
      const double* column = staged[t];
#pragma unroll 16
      for (std::uint32_t k = 0; k < here; ++k) {
        if (t == counts && capacity > 0) a.tile_first[first + k] = base + static_cast<std::uint32_t>(field);
        field += column[k];
      }
    }
    __syncthreads();
  }
  if (t < fields) folded[t] = field;
  __syncthreads();
  if (t == 0 && a.spec.adaptive()) {
    de_success_sums all;
    all.weight = folded[0];
    all.weight_F = folded[1];
    all.weight_F2 = folded[2];
    all.weight_CR = folded[3];
    all.count = static_cast<std::uint32_t>(folded[counts]);
    int next = a.counters->next_memory;
    shade_update_memory(all, a.memory_F, a.memory_CR, a.spec.memory, next);
    a.counters->next_memory = next;
  }
  if (t == 0 && capacity > 0) {
    const std::uint32_t total = base + static_cast<std::uint32_t>(folded[counts]);
    a.counters->archive_size = total < capacity ? total : capacity;
  }
}

/// The single-block SHADE memory and archive-size kernel of a DE generation (de_update).
template <class G, class F>
__global__ void de_update_kernel(de_update_args<G, F> a) { de_update(a); }

/**
 * The archive rows of the successful targets, a warp per tile of kShadeSumTargets targets (whole warps per
 * block): the tile's successes, in slot order, take the positions from `tile_first[tile]` on (a warp scan of
 * the lanes' flags, 32 targets at a time) — a position below the capacity is that row, a later one a row drawn
 * from stream::de_after — and each row's last writer is recorded in `owner` (atomicMax), so de_archive copies
 * what the CPU's sequential loop leaves there.
 */
template <class G, class F>
__device__ __forceinline__ void de_slots(const de_slots_args<G, F>& a) {
  static_assert(kShadeSumTargets % 32 == 0, "whole warps per tile");
  constexpr unsigned full = 0xffffffffu;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t tile = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (tile >= a.tiles) return;  // uniform over the warp
  const std::uint32_t generation = a.state->generation;
  std::uint32_t position = a.tile_first[tile];
  for (unsigned half = 0; half < kShadeSumTargets; half += 32) {
    const std::size_t i = tile * kShadeSumTargets + half + lane;
    const std::uint32_t mine = i < a.population && a.success[i] ? 1u : 0u;
    std::uint32_t inclusive = mine;
    for (unsigned o = 1; o < 32; o <<= 1) {
      const std::uint32_t v = __shfl_up_sync(full, inclusive, o);
      if (lane >= o) inclusive += v;
    }
    if (mine) {
      const std::uint32_t p = position + inclusive - 1;
      const std::uint32_t target = static_cast<std::uint32_t>(i);
      const std::uint32_t slot = p < a.capacity ? p : archive_replacement(a.rng, target, generation, a.capacity);
      a.archive_slot[i] = slot;
      atomicMax(a.owner + slot, target + 1);
    }
    position += __shfl_sync(full, inclusive, 31);
  }
}

/// The archive-slot kernel of a DE generation (de_slots).
template <class G, class F>
__global__ void de_slots_kernel(de_slots_args<G, F> a) { de_slots(a); }

/// Copies each archive row's last writer (de_update's `owner`) from the parents: thread per gene.
template <class G, class F>
__device__ __forceinline__ void de_archive(const de_archive_args<G, F>& a) {
  const std::size_t n = a.parents.size;
  const std::size_t d = static_cast<std::size_t>(a.parents.dimension);
  for (std::size_t e = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; e < n * d;
       e += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t i = e / d;
    if (!a.success[i]) continue;
    const std::size_t slot = a.archive_slot[i];
    if (a.owner[slot] != i + 1) continue;
    a.archive[slot * d + (e - i * d)] = a.parents.genes[e];
  }
}

/// The archive kernel of a DE generation (de_archive).
template <class G, class F>
__global__ void de_archive_kernel(de_archive_args<G, F> a) { de_archive(a); }

/// slots[i] = i for i < n (the values of the elite sort, E > kMaxFastElites).
template <class Slot>
__global__ void iota_kernel(Slot* slots, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    slots[i] = static_cast<Slot>(i);
}

}  // namespace fusedga::detail::cuda_kernels
